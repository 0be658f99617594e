#pragma once

#include <cstdint>
#include <vector>

namespace hipdnn_test_sdk::references {

// A non-owning view of a strided tensor in host memory. Strides are in elements and may be in
// any order; a stride of 0 repeats one element along that dim (a broadcast view).
template <class T>
struct TensorView {
    T* data = nullptr;
    std::vector<int64_t> dims;
    std::vector<int64_t> strides;

    int64_t rank() const { return static_cast<int64_t>(dims.size()); }

    int64_t elementCount() const {
        int64_t count = 1;
        for (const int64_t dim : dims) {
            count *= dim;
        }
        return count;
    }

    // Lets a caller pass the view of an output buffer where a read-only input is expected.
    operator TensorView<const T>() const { return TensorView<const T>{data, dims, strides}; }
};

int64_t elementCount(const std::vector<int64_t>& dims);

// Row-major (the last dim is contiguous).
std::vector<int64_t> packedStrides(const std::vector<int64_t>& dims);

// strideOrder[d] is the rank of dim d from the innermost (0) outwards, as in the data SDK's
// TensorLayout: NCHW = {3, 2, 1, 0}, NHWC = {3, 0, 2, 1}.
std::vector<int64_t> stridesForOrder(const std::vector<int64_t>& dims,
                                     const std::vector<int64_t>& strideOrder);

}  // namespace hipdnn_test_sdk::references
