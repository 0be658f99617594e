// A convolution with 1x1 filters, unit strides and no padding over channels-last tensors is one
// matrix product over the P = N x spatial positions, each a row of C (or K) channels:
//   fprop  Y[P, K]  = X[P, C] W[K, C]^T
//   dgrad  dX[P, C] = dY[P, K] W[K, C]
//   wgrad  dW[K, C] = dY[P, K]^T X[P, C]
// so CUDA_GRAPH_ENGINE can run it through cuBLASLt instead of cuDNN. For the long reduction of a
// wgrad (P terms) cuBLASLt's split-K kernels beat cuDNN's fp32 engines (docs/performance.md).
#pragma once

#include "../matmul/MatmulProgram.hpp"
#include "ConvolutionProgram.hpp"

#include <optional>
#include <string>

namespace hipdnn_cuda_kernels {

/// The cuBLASLt program of `convolution`, or nullopt with `reason` naming what makes it no plain
/// matrix product (the filter's extent, a stride or padding, groups, a channel order or strides
/// whose positions do not form rows of one stride).
std::optional<MatmulProgram> convolutionAsMatmul(const ConvolutionProgram& convolution, std::string& reason);

}  // namespace hipdnn_cuda_kernels
