// Upstream hipDNN's batch norm references on data SDK tensors, forwarding to
// hipdnn_test_sdk::references. Per-channel tensors have dims (1, C, 1, ...).
#pragma once

#include <hipdnn_data_sdk/utilities/Tensor.hpp>
#include <hipdnn_test_sdk/references/Batchnorm.hpp>
#include <hipdnn_test_sdk/utilities/detail/TensorViews.hpp>

namespace hipdnn_test_sdk::utilities {

class CpuFpReferenceBatchnorm {
public:
    /// y = scale * (x - mean) * invVariance + bias. Throws std::invalid_argument (from the
    /// reference) for inconsistent shapes.
    template <class T, class P, class ComputeT = float>
    static void fwdInference(const hipdnn_data_sdk::utilities::Tensor<T>& x,
                             const hipdnn_data_sdk::utilities::Tensor<P>& scale,
                             const hipdnn_data_sdk::utilities::Tensor<P>& bias,
                             const hipdnn_data_sdk::utilities::Tensor<P>& mean,
                             const hipdnn_data_sdk::utilities::Tensor<P>& invVariance,
                             hipdnn_data_sdk::utilities::Tensor<T>& y) {
        references::batchnormInference<T, P, ComputeT>(detail::viewOf(x), detail::viewOf(mean),
                                                       detail::viewOf(invVariance), detail::viewOf(scale),
                                                       detail::viewOf(bias), detail::mutableViewOf(y));
    }
};

}  // namespace hipdnn_test_sdk::utilities
