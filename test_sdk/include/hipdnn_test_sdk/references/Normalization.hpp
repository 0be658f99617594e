#pragma once

#include <hipdnn_test_sdk/references/TensorView.hpp>

#include <optional>

namespace hipdnn_test_sdk::references {

// Layer norm and RMS norm normalize each x[n, ...] over every dim but the first. Statistics
// are (N, 1, ..., 1); scale, bias and their gradients are (1, ...) where each other dim equals
// x's or is 1 (broadcast). The variance is biased.
// Instantiated for T and P in {float, half, bfloat16} and C in {float, double}.

// Training (statistics written) when mean and invVariance are given; both or neither.
template <class T, class P, class C = float>
void layernormForward(const TensorView<const T>& x, const TensorView<const P>& scale,
                      const TensorView<const P>& bias, double epsilon, const TensorView<T>& y,
                      const std::optional<TensorView<P>>& mean,
                      const std::optional<TensorView<P>>& invVariance);

// With xhat = (x - mean) * inv_variance and g = dy * scale over each row:
// dx = inv_variance * (g - mean(g) - xhat * mean(g * xhat));
// dscale = sum over rows of dy * xhat, dbias = sum over rows of dy (each reduced to its dims).
template <class T, class P, class C = float>
void layernormBackward(const TensorView<const T>& dy, const TensorView<const T>& x,
                       const TensorView<const P>& scale, const TensorView<const P>& mean,
                       const TensorView<const P>& invVariance, const TensorView<T>& dx,
                       const TensorView<P>& dscale, const TensorView<P>& dbias);

// y = x * inv_rms * scale (+ bias), inv_rms = 1 / sqrt(mean(x^2) + epsilon).
template <class T, class P, class C = float>
void rmsnormForward(const TensorView<const T>& x, const TensorView<const P>& scale,
                    const std::optional<TensorView<const P>>& bias, double epsilon, const TensorView<T>& y,
                    const std::optional<TensorView<P>>& invRms);

// dx = r * (dy * scale - x * r^2 * mean(dy * scale * x)) with r the row's inv_rms;
// dscale = sum over rows of dy * x * r, dbias = sum over rows of dy (each reduced to its dims).
template <class T, class P, class C = float>
void rmsnormBackward(const TensorView<const T>& dy, const TensorView<const T>& x,
                     const TensorView<const P>& scale, const TensorView<const P>& invRms,
                     const TensorView<T>& dx, const TensorView<P>& dscale,
                     const std::optional<TensorView<P>>& dbias);

}  // namespace hipdnn_test_sdk::references
