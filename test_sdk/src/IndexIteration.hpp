// Private helpers: row-major iteration over a dims box and strided offsets.
#pragma once

#include <cstdint>
#include <vector>

namespace hipdnn_test_sdk::detail {

inline int64_t offsetOf(const std::vector<int64_t>& index, const std::vector<int64_t>& strides) {
    int64_t offset = 0;
    for (size_t i = 0; i < index.size(); ++i) {
        offset += index[i] * strides[i];
    }
    return offset;
}

inline int64_t elementCountOf(const std::vector<int64_t>& dims) {
    int64_t count = 1;
    for (const int64_t dim : dims) {
        count *= dim;
    }
    return count;
}

/// Elements a strided tensor spans: 1 + the offset of its last element.
inline int64_t storageElementCountOf(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides) {
    int64_t lastOffset = 0;
    for (size_t i = 0; i < dims.size(); ++i) {
        lastOffset += (dims[i] - 1) * strides[i];
    }
    return lastOffset + 1;
}

/// Calls fn(index) for every index of `dims` in row-major order (an odometer, no recursion).
template <class Fn>
void forEachIndex(const std::vector<int64_t>& dims, Fn&& fn) {
    if (elementCountOf(dims) <= 0) {
        return;
    }
    std::vector<int64_t> index(dims.size(), 0);
    while (true) {
        fn(static_cast<const std::vector<int64_t>&>(index));
        int64_t axis = static_cast<int64_t>(dims.size()) - 1;
        while (axis >= 0 && ++index[static_cast<size_t>(axis)] == dims[static_cast<size_t>(axis)]) {
            index[static_cast<size_t>(axis)] = 0;
            --axis;
        }
        if (axis < 0) {
            return;
        }
    }
}

}  // namespace hipdnn_test_sdk::detail
