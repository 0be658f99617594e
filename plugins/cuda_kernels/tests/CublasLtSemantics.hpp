// cuBLASLt's documented semantics on the host, for checking the engine's translations without a
// GPU: per batch, D = op(A) op(B) (+ bias per row of D, then the activation), every matrix
// column-major with its leading dimension and batch stride.
#pragma once

#include <matmul/MatmulProgram.hpp>

#include <vector>

namespace cuda_kernels_test {

/// Writes the product into `d` (the storage of the program's D); `bias` may be null.
void runAsCublasLt(const hipdnn_cuda_kernels::MatmulProgram& program, const std::vector<float>& a,
                   const std::vector<float>& b, const std::vector<float>* bias, std::vector<float>& d);

}  // namespace cuda_kernels_test
