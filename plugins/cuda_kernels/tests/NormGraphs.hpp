// Norm graphs the unit tests generate and compile and the integration tests run: every norm
// CUDA_NORM_ENGINE claims, with and without a fused pointwise epilogue.
#pragma once

#include <hipdnn_test_sdk/GraphBuilder.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace cuda_kernels_test {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

/// Pointwise nodes after a norm's y.
enum class Epilogue { None, Relu, AddRelu };
std::string epilogueName(Epilogue epilogue);

/// Layer norm (or RMS norm) of x {rows, columns} in `type`, fp32 scale and bias {1, columns};
/// training adds the fp32 statistics outputs. `bias` only matters for RMS norm.
hipdnn_test_sdk::GraphBuilder rowNormGraph(bool layernorm, fb::DataType type, int64_t rows, int64_t columns,
                                           bool training, bool bias, Epilogue epilogue = Epilogue::None);

enum class BatchnormMode { Inference, InferenceVariance, Training, TrainingRunningStats, Backward };
std::string batchnormModeName(BatchnormMode mode);

/// Batch norm of x `dims` (N, C, H, W) in `type`, NHWC or NCHW, fp32 per-channel
/// tensors; `epilogue` after y (forward modes). Epsilon 1e-5 and momentum 0.1 are pass-by-value
/// scalars. Backward reads dy (uid 14) and the saved mean and inv_variance and writes dx (uid 20),
/// dscale and dbias.
hipdnn_test_sdk::GraphBuilder batchnormGraph(BatchnormMode mode, fb::DataType type,
                                             const std::vector<int64_t>& dims, bool channelsLast,
                                             Epilogue epilogue = Epilogue::None);

}  // namespace cuda_kernels_test
