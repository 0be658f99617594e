#pragma once

#include <hipdnn_test_sdk/references/TensorView.hpp>

#include <optional>

namespace hipdnn_test_sdk::references {

// Batch norm normalizes per channel (dim 1) over N and every spatial dim. Per-channel tensors
// have dims (1, C, 1, ...) and element type P, which may differ from x's T.
// inv_variance = 1 / sqrt(variance + epsilon), with the biased batch variance.
// Instantiated for T and P in {float, half, bfloat16} and C in {float, double}.

template <class T, class P, class C = float>
void batchnormInference(const TensorView<const T>& x, const TensorView<const P>& mean,
                        const TensorView<const P>& invVariance, const TensorView<const P>& scale,
                        const TensorView<const P>& bias, const TensorView<T>& y);

template <class T, class P, class C = float>
void batchnormInferenceWithVariance(const TensorView<const T>& x, const TensorView<const P>& mean,
                                    const TensorView<const P>& variance, const TensorView<const P>& scale,
                                    const TensorView<const P>& bias, double epsilon, const TensorView<T>& y);

// next = (1 - momentum) * prev + momentum * batch statistic, with the unbiased (Bessel-corrected)
// batch variance.
template <class P>
struct BatchnormRunningStats {
    TensorView<const P> prevMean;
    TensorView<const P> prevVariance;
    TensorView<P> nextMean;
    TensorView<P> nextVariance;
    double momentum = 0.0;
};

template <class T, class P, class C = float>
void batchnormTraining(const TensorView<const T>& x, const TensorView<const P>& scale,
                       const TensorView<const P>& bias, double epsilon, const TensorView<T>& y,
                       const std::optional<TensorView<P>>& mean,
                       const std::optional<TensorView<P>>& invVariance,
                       const std::optional<BatchnormRunningStats<P>>& runningStats);

// Without mean and invVariance the statistics are recomputed from x, and epsilon is required.
// dx = scale * invVar * (dy - mean(dy) - xhat * mean(dy * xhat)), dscale = sum(dy * xhat),
// dbias = sum(dy).
template <class T, class P, class C = float>
void batchnormBackward(const TensorView<const T>& dy, const TensorView<const T>& x,
                       const std::optional<TensorView<const P>>& mean,
                       const std::optional<TensorView<const P>>& invVariance,
                       const TensorView<const P>& scale, std::optional<double> epsilon,
                       const TensorView<T>& dx, const TensorView<P>& dscale, const TensorView<P>& dbias);

}  // namespace hipdnn_test_sdk::references
