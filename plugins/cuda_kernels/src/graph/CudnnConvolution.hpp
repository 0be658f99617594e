// One convolution through cuDNN's backend API on the plugin handle's cuDNN handle: the tensor,
// convolution and operation descriptors, a one-operation graph, heuristics (mode A, then the
// fallback list) and the first candidate whose execution plan finalizes, all made at plan build.
// fp32 convolutions skip candidates that compute in TF32 or down-convert their inputs (strict fp32,
// as PyTorch's default for cuDNN convolutions). Execute binds a variant pack and runs the plan on
// the handle's stream (the cuDNN handle follows the plugin handle's stream).
#pragma once

#include "../CudaKernelsHandle.hpp"
#include "ConvolutionProgram.hpp"

#include <hipdnn_plugin_sdk/IExecutionContext.hpp>

#include <memory>
#include <string>

namespace hipdnn_cuda_kernels {

/// Null with `reason` when cuDNN is not available, or has no engine that plans `program`.
std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> makeCudnnConvolution(CudaKernelsHandle& handle,
                                                                           const ConvolutionProgram& program,
                                                                           std::string& reason);

}  // namespace hipdnn_cuda_kernels
