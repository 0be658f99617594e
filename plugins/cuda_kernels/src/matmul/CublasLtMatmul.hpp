// The execution context of CUBLASLT_ENGINE: a cuBLASLt handle, the matmul descriptor, the matrix
// layouts and the chosen algorithm, made once at plan build; execute is one cublasLtMatmul on the
// handle's stream.
#pragma once

#include "CublasLtEngine.hpp"

#include <hipdnn_plugin_sdk/IExecutionContext.hpp>

#include <memory>

namespace hipdnn_cuda_kernels {

/// Throws PluginError: NOT_APPLICABLE when cuBLASLt is missing or has no algorithm for the
/// program, BAD_PARAM when settings.algorithm is not below the number of candidates it returned,
/// INTERNAL_ERROR when a cuBLASLt call fails.
std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> makeCublasLtMatmul(const MatmulProgram& program,
                                                                         const CublasLtSettings& settings);

}  // namespace hipdnn_cuda_kernels
