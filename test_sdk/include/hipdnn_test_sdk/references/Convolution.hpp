#pragma once

#include <hipdnn_test_sdk/references/Enums.hpp>
#include <hipdnn_test_sdk/references/TensorView.hpp>

#include <cstdint>
#include <vector>

namespace hipdnn_test_sdk::references {

// x, dx, y, dy: (N, C, [D,] H, W); w, dw: (K, C / groups, [T,] R, S); groups = x.C / w.C.
// One entry per spatial dim in each vector. Output size per spatial dim is
// (in + pre + post - (dilation * (k - 1) + 1)) / stride + 1, checked against y / dy.
struct ConvolutionParams {
    std::vector<int64_t> prePadding;
    std::vector<int64_t> postPadding;
    std::vector<int64_t> stride;
    std::vector<int64_t> dilation;
    // CONVOLUTION uses the filter flipped along every spatial dim.
    ConvMode mode = ConvMode::CROSS_CORRELATION;
};

// Instantiated for T in {float, half, bfloat16} and C in {float, double}.
template <class T, class C = float>
void convolutionFprop(const TensorView<const T>& x, const TensorView<const T>& w, const TensorView<T>& y,
                      const ConvolutionParams& params);

template <class T, class C = float>
void convolutionDgrad(const TensorView<const T>& dy, const TensorView<const T>& w, const TensorView<T>& dx,
                      const ConvolutionParams& params);

template <class T, class C = float>
void convolutionWgrad(const TensorView<const T>& x, const TensorView<const T>& dy, const TensorView<T>& dw,
                      const ConvolutionParams& params);

}  // namespace hipdnn_test_sdk::references
