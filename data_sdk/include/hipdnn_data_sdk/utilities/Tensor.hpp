// Host tensors for tests, references and tools: a buffer with dims and strides.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "hipdnn_data_sdk/utilities/MigratableMemory.hpp"
#include "hipdnn_data_sdk/utilities/ShapeUtilities.hpp"
#include "hipdnn_data_sdk/utilities/UtilsBfp16.hpp"
#include "hipdnn_data_sdk/utilities/UtilsFp16.hpp"

namespace hipdnn_data_sdk::utilities {

namespace detail {

/// Uniform double in [0, 1) from the top 53 bits of one draw, independent of the standard
/// library's distributions.
inline double uniformUnit(std::mt19937_64& generator) {
    constexpr double twoToMinus53 = 1.0 / static_cast<double>(uint64_t{1} << 53);
    return static_cast<double>(generator() >> 11) * twoToMinus53;
}

/// Uniform integer in [low, high], unbiased: draws below 2^64 mod (high - low + 1) are rejected.
inline int64_t uniformInteger(std::mt19937_64& generator, int64_t low, int64_t high) {
    const uint64_t span = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
    if (span == std::numeric_limits<uint64_t>::max()) {
        return static_cast<int64_t>(generator());
    }
    const uint64_t range = span + 1;
    const uint64_t rejectBelow = (0 - range) % range;
    uint64_t draw = generator();
    while (draw < rejectBelow) {
        draw = generator();
    }
    return static_cast<int64_t>(static_cast<uint64_t>(low) + draw % range);
}

}  // namespace detail

/// A host tensor owning storageElementCount(dims, strides) elements of T. T is a floating-point
/// type (float, double, or a hipdnn_data_sdk::types type) or an integer type up to 64 bits.
template <class T>
class Tensor {
    static_assert(std::is_trivially_copyable_v<T> && std::numeric_limits<T>::is_specialized &&
                      !std::is_same_v<T, bool>,
                  "Tensor holds numeric element types");

public:
    /// Packed tensor in `layout`; throws std::invalid_argument when the ranks differ.
    Tensor(std::vector<int64_t> dims, const TensorLayout& layout) : dims_(std::move(dims)) {
        detail::requirePositiveDims("Tensor", dims_);
        if (layout.strideOrder.size() != dims_.size()) {
            throw std::invalid_argument("Tensor: layout " + std::string(layout.name) + " has rank " +
                                        std::to_string(layout.strideOrder.size()) + " but dims " +
                                        formatDims(dims_) + " have rank " + std::to_string(dims_.size()));
        }
        strides_ = generatePackedStrides(dims_, layout.strideOrder);
        memory_ = MigratableMemory<T>(static_cast<size_t>(utilities::storageElementCount(dims_, strides_)));
    }

    /// Packed row-major tensor (last dim fastest).
    explicit Tensor(std::vector<int64_t> dims) : dims_(std::move(dims)) {
        detail::requirePositiveDims("Tensor", dims_);
        strides_ = packedStrides(dims_);
        memory_ = MigratableMemory<T>(static_cast<size_t>(utilities::elementCount(dims_)));
    }

    /// Tensor with explicit strides (zero strides broadcast). Throws std::invalid_argument for
    /// a rank mismatch, non-positive dims or negative strides, std::overflow_error for sizes
    /// beyond int64_t.
    Tensor(std::vector<int64_t> dims, std::vector<int64_t> strides)
        : dims_(std::move(dims)), strides_(std::move(strides)) {
        detail::requirePositiveDims("Tensor", dims_);
        detail::requireValidStrides("Tensor", dims_, strides_);
        memory_ = MigratableMemory<T>(static_cast<size_t>(utilities::storageElementCount(dims_, strides_)));
    }

    const std::vector<int64_t>& dims() const { return dims_; }
    const std::vector<int64_t>& strides() const { return strides_; }
    int64_t elementCount() const { return utilities::elementCount(dims_); }
    int64_t storageElementCount() const { return static_cast<int64_t>(memory_.count()); }
    size_t sizeInBytes() const { return memory_.count() * sizeof(T); }
    T* data() { return memory_.hostData(); }
    const T* data() const { return memory_.hostData(); }

    /// The storage under upstream hipDNN's interface (hostData, deviceData, mark*Modified).
    MigratableMemory<T>& memory() { return memory_; }
    const MigratableMemory<T>& memory() const { return memory_; }

    /// The element at a logical index; throws std::out_of_range naming the index when it does
    /// not lie inside dims.
    T& at(const std::vector<int64_t>& index) { return memory_.hostData()[storageIndex(index)]; }
    const T& at(const std::vector<int64_t>& index) const { return memory_.hostData()[storageIndex(index)]; }

    /// Sets every storage element, gaps between strided elements included.
    void fill(T value) { std::fill_n(memory_.hostData(), memory_.count(), value); }

    /// Upstream hipDNN's name for fill.
    void fillWithValue(T value) { fill(value); }

    /// Upstream hipDNN's fill: like fillRandom, with bounds of the element type and, by default,
    /// a nondeterministic seed.
    void fillWithRandomValues(T min, T max, unsigned int seed = std::random_device{}()) {
        fillRandom(static_cast<double>(min), static_cast<double>(max), seed);
    }

    /// Sets every logical element, in row-major index order, to a value drawn uniformly from
    /// [min, max] by std::mt19937_64 seeded with `seed`. The logical values depend only on the
    /// dims, the bounds and the seed, not on strides or the standard library. Floating-point
    /// draws are rounded to T; integer types draw integers and need integral bounds within T.
    void fillRandom(double min, double max, uint64_t seed) {
        if (!(min <= max)) {
            throw std::invalid_argument("Tensor::fillRandom: min " + std::to_string(min) +
                                        " must not exceed max " + std::to_string(max));
        }
        std::mt19937_64 generator(seed);
        if constexpr (std::numeric_limits<T>::is_integer) {
            const auto low = integerBound(min);
            const auto high = integerBound(max);
            forEachIndex(dims_, [&](const std::vector<int64_t>& index) {
                memory_.hostData()[offsetOf(index, strides_)] =
                    static_cast<T>(detail::uniformInteger(generator, low, high));
            });
        } else {
            forEachIndex(dims_, [&](const std::vector<int64_t>& index) {
                const double unit = detail::uniformUnit(generator);
                // Interpolating from both ends cannot overflow, whatever the bounds.
                memory_.hostData()[offsetOf(index, strides_)] =
                    static_cast<T>(min * (1.0 - unit) + max * unit);
            });
        }
    }

    /// Sets every storage element to a value that real results are unlikely to hold: a quiet
    /// NaN for floating-point types, the maximum for integers.
    void fillSentinel() {
        if constexpr (std::numeric_limits<T>::has_quiet_NaN) {
            fill(std::numeric_limits<T>::quiet_NaN());
        } else {
            fill(std::numeric_limits<T>::max());
        }
    }

private:
    size_t storageIndex(const std::vector<int64_t>& index) const {
        bool inside = index.size() == dims_.size();
        for (size_t i = 0; inside && i < index.size(); ++i) {
            inside = index[i] >= 0 && index[i] < dims_[i];
        }
        if (!inside) {
            throw std::out_of_range("Tensor::at: index " + formatDims(index) + " is outside dims " +
                                    formatDims(dims_));
        }
        return static_cast<size_t>(offsetOf(index, strides_));
    }

    static int64_t integerBound(double bound) {
        constexpr double twoTo63 = 9223372036854775808.0;
        const bool isInt64 = bound >= -twoTo63 && bound < twoTo63 && std::trunc(bound) == bound;
        const int64_t value = isInt64 ? static_cast<int64_t>(bound) : 0;
        if (!isInt64 || std::cmp_less(value, std::numeric_limits<T>::lowest()) ||
            std::cmp_greater(value, std::numeric_limits<T>::max())) {
            throw std::invalid_argument("Tensor::fillRandom: bound " + std::to_string(bound) +
                                        " is not an integer value of the element type");
        }
        return value;
    }

    std::vector<int64_t> dims_;
    std::vector<int64_t> strides_;
    MigratableMemory<T> memory_;
};

}  // namespace hipdnn_data_sdk::utilities
