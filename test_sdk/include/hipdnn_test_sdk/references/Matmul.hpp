#pragma once

#include <hipdnn_test_sdk/references/TensorView.hpp>

namespace hipdnn_test_sdk::references {

// C[..., M, N] = A[..., M, K] x B[..., K, N] with equal ranks >= 2. Each batch dim of A and B
// divides C's; C batch index i reads index i / (C.dim / A.dim) of A (likewise B), so a dim of 1
// broadcasts and larger divisors group consecutive C batches.
// Instantiated for In and Out in {float, half, bfloat16} and C in {float, double}.
template <class In, class Out, class C = float>
void matmul(const TensorView<const In>& a, const TensorView<const In>& b, const TensorView<Out>& c);

}  // namespace hipdnn_test_sdk::references
