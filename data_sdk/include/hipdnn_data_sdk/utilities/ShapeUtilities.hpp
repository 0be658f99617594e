// Shapes, strides and layouts of dense tensors. Dims are positive, strides non-negative, both in
// elements; a stride order gives, per dim, its rank from fastest (0) to slowest (rank - 1).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hipdnn_data_sdk::utilities {

/// A named memory layout: the stride order of each logical dim (0 = fastest varying).
struct TensorLayout {
    std::string_view name;
    std::vector<int64_t> strideOrder;

    static const TensorLayout NCL;
    static const TensorLayout NLC;
    static const TensorLayout NCHW;
    static const TensorLayout NHWC;
    static const TensorLayout NCDHW;
    static const TensorLayout NDHWC;
};

inline const TensorLayout TensorLayout::NCL{"NCL", {2, 1, 0}};
inline const TensorLayout TensorLayout::NLC{"NLC", {2, 0, 1}};
inline const TensorLayout TensorLayout::NCHW{"NCHW", {3, 2, 1, 0}};
inline const TensorLayout TensorLayout::NHWC{"NHWC", {3, 0, 2, 1}};
inline const TensorLayout TensorLayout::NCDHW{"NCDHW", {4, 3, 2, 1, 0}};
inline const TensorLayout TensorLayout::NDHWC{"NDHWC", {4, 0, 3, 2, 1}};

inline std::ostream& operator<<(std::ostream& stream, const TensorLayout& layout) {
    return stream << layout.name;
}

/// "[a, b, c]", for messages.
inline std::string formatDims(const std::vector<int64_t>& values) {
    std::string text = "[";
    for (size_t i = 0; i < values.size(); ++i) {
        if (i != 0) {
            text += ", ";
        }
        text += std::to_string(values[i]);
    }
    return text + "]";
}

namespace detail {

inline void requirePositiveDims(std::string_view function, const std::vector<int64_t>& dims) {
    if (std::any_of(dims.begin(), dims.end(), [](int64_t dim) { return dim <= 0; })) {
        throw std::invalid_argument(std::string(function) + ": dims " + formatDims(dims) +
                                    " must all be positive");
    }
}

inline void requireValidStrides(std::string_view function, const std::vector<int64_t>& dims,
                                const std::vector<int64_t>& strides) {
    if (dims.size() != strides.size()) {
        throw std::invalid_argument(std::string(function) + ": dims " + formatDims(dims) + " and strides " +
                                    formatDims(strides) + " differ in rank (" + std::to_string(dims.size()) +
                                    " vs " + std::to_string(strides.size()) + ")");
    }
    if (std::any_of(strides.begin(), strides.end(), [](int64_t stride) { return stride < 0; })) {
        throw std::invalid_argument(std::string(function) + ": strides " + formatDims(strides) +
                                    " must not be negative");
    }
}

/// a * b for non-negative operands, or nullopt when the product exceeds int64_t.
inline std::optional<int64_t> checkedMultiply(int64_t a, int64_t b) {
    if (a != 0 && b > std::numeric_limits<int64_t>::max() / a) {
        return std::nullopt;
    }
    return a * b;
}

/// a + b for non-negative operands, or nullopt when the sum exceeds int64_t.
inline std::optional<int64_t> checkedAdd(int64_t a, int64_t b) {
    if (b > std::numeric_limits<int64_t>::max() - a) {
        return std::nullopt;
    }
    return a + b;
}

/// Odometer over the index space of `dims`; `order` lists dims from slowest to fastest.
template <class Function>
void walkIndexSpace(const std::vector<int64_t>& dims, const std::vector<size_t>& order, Function&& function) {
    std::vector<int64_t> index(dims.size(), 0);
    while (true) {
        function(static_cast<const std::vector<int64_t>&>(index));
        size_t position = order.size();
        while (position > 0) {
            const size_t dim = order[position - 1];
            if (++index[dim] < dims[dim]) {
                break;
            }
            index[dim] = 0;
            --position;
        }
        if (position == 0) {
            return;
        }
    }
}

}  // namespace detail

/// Number of logical elements; 1 for rank 0. Throws std::invalid_argument for non-positive
/// dims and std::overflow_error when the count exceeds int64_t.
inline int64_t elementCount(const std::vector<int64_t>& dims) {
    detail::requirePositiveDims("elementCount", dims);
    int64_t count = 1;
    for (const int64_t dim : dims) {
        const auto product = detail::checkedMultiply(count, dim);
        if (!product) {
            throw std::overflow_error("elementCount: element count of dims " + formatDims(dims) +
                                      " overflows int64_t");
        }
        count = *product;
    }
    return count;
}

/// One spatial dim of a sliding window (convolution, pooling): `window` taps `dilation` apart,
/// moved by `stride` over `input` elements padded by `prePadding` and `postPadding`.
struct SlidingWindow {
    int64_t input = 1;
    int64_t window = 1;
    int64_t prePadding = 0;
    int64_t postPadding = 0;
    int64_t stride = 1;
    int64_t dilation = 1;

    /// The elements one window position covers: dilation * (window - 1) + 1.
    int64_t extent() const { return dilation * (window - 1) + 1; }
    int64_t paddedInput() const { return input + prePadding + postPadding; }

    /// (input + pre + post - extent) / stride + 1; nullopt when the window is larger than the
    /// padded input, the stride is not positive, or a step of the formula overflows int64_t
    /// (the values may come from an untrusted graph).
    std::optional<int64_t> outputLength() const {
        int64_t taps = 0;
        int64_t windowExtent = 0;
        int64_t padded = 0;
        int64_t span = 0;
        if (__builtin_sub_overflow(window, 1, &taps) ||
            __builtin_mul_overflow(dilation, taps, &windowExtent) ||
            __builtin_add_overflow(windowExtent, 1, &windowExtent) ||
            __builtin_add_overflow(input, prePadding, &padded) ||
            __builtin_add_overflow(padded, postPadding, &padded) ||
            __builtin_sub_overflow(padded, windowExtent, &span)) {
            return std::nullopt;
        }
        if (span < 0 || stride < 1) {
            return std::nullopt;
        }
        return span / stride + 1;
    }

    /// The formula with its values, for messages: "(8 + 1 + 1 - (1 * (3 - 1) + 1)) / 1 + 1";
    /// without `showDilation` the window stands alone: "(8 + 1 + 1 - 3) / 1 + 1".
    std::string formula(bool showDilation = true) const {
        // Appending (rather than chaining operator+ on temporaries) keeps GCC 12's -Wrestrict quiet.
        std::string text = "(";
        text +=
            std::to_string(input) + " + " + std::to_string(prePadding) + " + " + std::to_string(postPadding);
        text += " - ";
        if (showDilation) {
            text += "(" + std::to_string(dilation) + " * (" + std::to_string(window) + " - 1) + 1)";
        } else {
            text += std::to_string(window);
        }
        text += ") / " + std::to_string(stride) + " + 1";
        return text;
    }
};

/// True when `dims`, aligned from the right with `target`, has in each dim the target's value
/// or 1 and is not of higher rank: numpy's rule for an operand that broadcasts into `target`.
inline bool broadcastsTo(const std::vector<int64_t>& dims, const std::vector<int64_t>& target) {
    if (dims.size() > target.size()) {
        return false;
    }
    const size_t offset = target.size() - dims.size();
    for (size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] != 1 && dims[i] != target[offset + i]) {
            return false;
        }
    }
    return true;
}

/// Packed strides for `dims` laid out in `strideOrder` (a permutation of 0..rank-1, 0 fastest).
inline std::vector<int64_t> generatePackedStrides(const std::vector<int64_t>& dims,
                                                  const std::vector<int64_t>& strideOrder) {
    detail::requirePositiveDims("generatePackedStrides", dims);
    const auto rank = static_cast<int64_t>(dims.size());
    std::vector<int64_t> dimOfOrder(dims.size(), -1);
    bool isPermutation = strideOrder.size() == dims.size();
    for (size_t dim = 0; isPermutation && dim < dims.size(); ++dim) {
        const int64_t order = strideOrder[dim];
        isPermutation = order >= 0 && order < rank && dimOfOrder[static_cast<size_t>(order)] == -1;
        if (isPermutation) {
            dimOfOrder[static_cast<size_t>(order)] = static_cast<int64_t>(dim);
        }
    }
    if (!isPermutation) {
        throw std::invalid_argument("generatePackedStrides: stride order " + formatDims(strideOrder) +
                                    " is not a permutation of 0.." + std::to_string(rank - 1) + " for dims " +
                                    formatDims(dims));
    }
    std::vector<int64_t> strides(dims.size(), 0);
    int64_t stride = 1;
    for (const int64_t dim : dimOfOrder) {
        strides[static_cast<size_t>(dim)] = stride;
        const auto next = detail::checkedMultiply(stride, dims[static_cast<size_t>(dim)]);
        if (!next) {
            throw std::overflow_error("generatePackedStrides: element count of dims " + formatDims(dims) +
                                      " overflow int64_t");
        }
        stride = *next;
    }
    return strides;
}

/// Packed row-major strides (last dim fastest).
inline std::vector<int64_t> packedStrides(const std::vector<int64_t>& dims) {
    std::vector<int64_t> rowMajor(dims.size());
    std::iota(rowMajor.rbegin(), rowMajor.rend(), int64_t{0});
    return generatePackedStrides(dims, rowMajor);
}

/// Upstream hipDNN's name for generatePackedStrides.
inline std::vector<int64_t> generateStrides(const std::vector<int64_t>& dims,
                                            const std::vector<int64_t>& strideOrder) {
    return generatePackedStrides(dims, strideOrder);
}

/// Upstream hipDNN's name for packedStrides (row-major).
inline std::vector<int64_t> generateStrides(const std::vector<int64_t>& dims) {
    return packedStrides(dims);
}

/// The per-channel shape of a tensor with `dims` (N, C, ...): [1, C, 1, ...], as batch norm's
/// statistics and a per-channel bias have. Throws std::invalid_argument below rank 2.
inline std::vector<int64_t> getDerivedShape(const std::vector<int64_t>& dims) {
    if (dims.size() < 2) {
        throw std::invalid_argument("getDerivedShape: dims " + formatDims(dims) +
                                    " have no channel dim (rank " + std::to_string(dims.size()) + " < 2)");
    }
    std::vector<int64_t> derived(dims.size(), 1);
    derived[1] = dims[1];
    return derived;
}

/// The stride order of `strides` (0 = smallest stride). Equal strides rank the later dim as
/// faster, as in row-major order.
inline std::vector<int64_t> extractStrideOrder(const std::vector<int64_t>& strides) {
    std::vector<size_t> dimsFastestFirst(strides.size());
    std::iota(dimsFastestFirst.begin(), dimsFastestFirst.end(), size_t{0});
    std::sort(dimsFastestFirst.begin(), dimsFastestFirst.end(), [&strides](size_t a, size_t b) {
        return strides[a] != strides[b] ? strides[a] < strides[b] : a > b;
    });
    std::vector<int64_t> order(strides.size());
    for (size_t rank = 0; rank < dimsFastestFirst.size(); ++rank) {
        order[dimsFastestFirst[rank]] = static_cast<int64_t>(rank);
    }
    return order;
}

/// The name of the TensorLayout constant whose packed strides equal `strides` for `dims`, or
/// nullopt. Where several match (dims of size 1), the channels-first layout wins.
inline std::optional<std::string_view> layoutFromStrides(const std::vector<int64_t>& dims,
                                                         const std::vector<int64_t>& strides) {
    detail::requireValidStrides("layoutFromStrides", dims, strides);
    for (const TensorLayout* layout : {&TensorLayout::NCL, &TensorLayout::NLC, &TensorLayout::NCHW,
                                       &TensorLayout::NHWC, &TensorLayout::NCDHW, &TensorLayout::NDHWC}) {
        if (layout->strideOrder.size() == dims.size() &&
            generatePackedStrides(dims, layout->strideOrder) == strides) {
            return layout->name;
        }
    }
    return std::nullopt;
}

/// Elements a buffer must hold for `dims` and `strides`: the largest offset plus one. Throws
/// std::invalid_argument for inconsistent input and std::overflow_error when the count exceeds
/// int64_t.
inline int64_t storageElementCount(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides) {
    detail::requirePositiveDims("storageElementCount", dims);
    detail::requireValidStrides("storageElementCount", dims, strides);
    int64_t count = 1;
    for (size_t i = 0; i < dims.size(); ++i) {
        const auto extent = detail::checkedMultiply(dims[i] - 1, strides[i]);
        const auto sum = extent ? detail::checkedAdd(count, *extent) : std::nullopt;
        if (!sum) {
            throw std::overflow_error("storageElementCount: storage for dims " + formatDims(dims) +
                                      " with strides " + formatDims(strides) + " overflows int64_t");
        }
        count = *sum;
    }
    return count;
}

/// Offset in elements of `index` under `strides`.
inline int64_t offsetOf(const std::vector<int64_t>& index, const std::vector<int64_t>& strides) {
    if (index.size() != strides.size()) {
        throw std::invalid_argument("offsetOf: index " + formatDims(index) + " and strides " +
                                    formatDims(strides) + " differ in rank");
    }
    int64_t offset = 0;
    for (size_t i = 0; i < index.size(); ++i) {
        offset += index[i] * strides[i];
    }
    return offset;
}

/// Calls `function(const std::vector<int64_t>& index)` for every index of `dims` in row-major
/// order (last dim fastest). Rank 0 visits the single empty index.
template <class Function>
void forEachIndex(const std::vector<int64_t>& dims, Function&& function) {
    detail::requirePositiveDims("forEachIndex", dims);
    std::vector<size_t> slowestFirst(dims.size());
    std::iota(slowestFirst.begin(), slowestFirst.end(), size_t{0});
    detail::walkIndexSpace(dims, slowestFirst, std::forward<Function>(function));
}

/// Like forEachIndex, but in memory order: the dim with the smallest stride varies fastest, so
/// a packed tensor is visited at increasing offsets.
template <class Function>
void forEachIndexInStrideOrder(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides,
                               Function&& function) {
    detail::requirePositiveDims("forEachIndexInStrideOrder", dims);
    detail::requireValidStrides("forEachIndexInStrideOrder", dims, strides);
    const std::vector<int64_t> order = extractStrideOrder(strides);
    std::vector<size_t> slowestFirst(dims.size());
    for (size_t dim = 0; dim < dims.size(); ++dim) {
        slowestFirst[dims.size() - 1 - static_cast<size_t>(order[dim])] = dim;
    }
    detail::walkIndexSpace(dims, slowestFirst, std::forward<Function>(function));
}

}  // namespace hipdnn_data_sdk::utilities
