// Upstream hipDNN's convolution references on data SDK tensors, forwarding to
// hipdnn_test_sdk::references (cross-correlation, groups from the channel counts).
#pragma once

#include <cstdint>
#include <vector>

#include <hipdnn_data_sdk/utilities/Tensor.hpp>
#include <hipdnn_test_sdk/references/Convolution.hpp>
#include <hipdnn_test_sdk/utilities/detail/TensorViews.hpp>

namespace hipdnn_test_sdk::utilities {

class CpuFpReferenceConvolution {
public:
    /// One entry per spatial dim in strides, dilations and padding; an empty postPadding pads
    /// the end of each dim as much as the start. Throws std::invalid_argument (from the
    /// reference) for inconsistent shapes or parameters.
    template <class T, class ComputeT = float>
    static void fprop(const hipdnn_data_sdk::utilities::Tensor<T>& x,
                      const hipdnn_data_sdk::utilities::Tensor<T>& w,
                      hipdnn_data_sdk::utilities::Tensor<T>& y, const std::vector<int64_t>& strides,
                      const std::vector<int64_t>& dilations, const std::vector<int64_t>& prePadding,
                      const std::vector<int64_t>& postPadding = {}) {
        references::convolutionFprop<T, ComputeT>(detail::viewOf(x), detail::viewOf(w),
                                                  detail::mutableViewOf(y),
                                                  params(strides, dilations, prePadding, postPadding));
    }

private:
    static references::ConvolutionParams params(const std::vector<int64_t>& strides,
                                                const std::vector<int64_t>& dilations,
                                                const std::vector<int64_t>& prePadding,
                                                const std::vector<int64_t>& postPadding) {
        return {prePadding, postPadding.empty() ? prePadding : postPadding, strides, dilations,
                references::ConvMode::CROSS_CORRELATION};
    }
};

}  // namespace hipdnn_test_sdk::utilities
