// Small helpers for the hand-worked reference tests: logical (row-major) values in, strided
// buffers for the references, and back.
#pragma once

#include <hipdnn_test_sdk/references/TensorView.hpp>

#include <cstdint>
#include <random>
#include <vector>

namespace reference_tests {

namespace refs = hipdnn_test_sdk::references;

// A buffer holding a logical row-major tensor laid out with the given strides.
template <class T>
struct StridedTensor {
    std::vector<int64_t> dims;
    std::vector<int64_t> strides;
    std::vector<T> storage;

    StridedTensor(std::vector<int64_t> tensorDims, std::vector<int64_t> tensorStrides)
        : dims(std::move(tensorDims)), strides(std::move(tensorStrides)) {
        int64_t span = 1;
        for (size_t d = 0; d < dims.size(); ++d) {
            span += (dims[d] - 1) * strides[d];
        }
        storage.assign(static_cast<size_t>(span), T(0));
    }

    StridedTensor(std::vector<int64_t> tensorDims, std::vector<int64_t> tensorStrides,
                  const std::vector<T>& rowMajor)
        : StridedTensor(std::move(tensorDims), std::move(tensorStrides)) {
        for (size_t i = 0; i < rowMajor.size(); ++i) {
            storage[static_cast<size_t>(offset(static_cast<int64_t>(i)))] = rowMajor[i];
        }
    }

    int64_t offset(int64_t linear) const {
        int64_t result = 0;
        for (size_t d = dims.size(); d-- > 0;) {
            result += (linear % dims[d]) * strides[d];
            linear /= dims[d];
        }
        return result;
    }

    refs::TensorView<T> view() { return {storage.data(), dims, strides}; }
    refs::TensorView<const T> constView() const { return {storage.data(), dims, strides}; }

    std::vector<T> rowMajor() const {
        std::vector<T> values(static_cast<size_t>(refs::elementCount(dims)));
        for (size_t i = 0; i < values.size(); ++i) {
            values[i] = storage[static_cast<size_t>(offset(static_cast<int64_t>(i)))];
        }
        return values;
    }
};

template <class T>
StridedTensor<T> packed(std::vector<int64_t> dims, const std::vector<T>& rowMajor) {
    auto strides = refs::packedStrides(dims);
    return StridedTensor<T>(std::move(dims), std::move(strides), rowMajor);
}

template <class T>
StridedTensor<T> packedZeros(std::vector<int64_t> dims) {
    auto strides = refs::packedStrides(dims);
    return StridedTensor<T>(std::move(dims), std::move(strides));
}

// Channels-last strides for (N, C, spatial...).
inline std::vector<int64_t> channelsLast(const std::vector<int64_t>& dims) {
    std::vector<int64_t> order(dims.size());
    order[0] = static_cast<int64_t>(dims.size()) - 1;
    order[1] = 0;
    for (size_t d = 2; d < dims.size(); ++d) {
        order[d] = static_cast<int64_t>(dims.size() - d);
    }
    return refs::stridesForOrder(dims, order);
}

// Values that are multiples of 1/8 in [-2, 2]: exact in every type and in short sums.
inline std::vector<float> randomValues(size_t count, unsigned seed) {
    std::mt19937 generator(seed);
    std::uniform_int_distribution<int> distribution(-16, 16);
    std::vector<float> values(count);
    for (float& value : values) {
        value = static_cast<float>(distribution(generator)) / 8.0f;
    }
    return values;
}

}  // namespace reference_tests
