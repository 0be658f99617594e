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

/// RMS norm backward of x {rows, columns} (uid 1) in `type`: dy (uid 14) and dx (uid 20) in
/// `type`, fp32 scale {1, columns} (uid 2), saved inv_rms {rows, 1} (uid 5), dscale (uid 15)
/// and, with `dbias`, dbias (uid 16) {1, columns}.
hipdnn_test_sdk::GraphBuilder rmsnormBackwardGraph(fb::DataType type, int64_t rows, int64_t columns,
                                                   bool dbias);

/// Layer norm backward of x `dims` (N, ...; every dim but the first normalized, packed row-major)
/// (uid 1) in `type`: dy (uid 14) and dx (uid 20) in `type`, fp32 scale (uid 2), dscale (uid 15)
/// and dbias (uid 16) (1, ...), saved mean (uid 4) and inv_variance (uid 5) (N, 1, ...).
hipdnn_test_sdk::GraphBuilder layernormBackwardGraph(fb::DataType type, const std::vector<int64_t>& dims);

enum class BatchnormMode { Inference, InferenceVariance, Training, TrainingRunningStats, Backward };
std::string batchnormModeName(BatchnormMode mode);

/// Batch norm of x `dims` (N, C, H, W) in `type`, NHWC or NCHW, fp32 per-channel
/// tensors; `epilogue` after y (forward modes). Epsilon 1e-5 and momentum 0.1 are pass-by-value
/// scalars. Backward reads dy (uid 14) and the saved mean and inv_variance and writes dx (uid 20),
/// dscale and dbias. `peers` > 0 (training and backward) synchronizes the statistics over that
/// many GPUs: peer_stats tensors uids kFirstPeerStats, ... (fp32, 2 × 4C, cudnn-frontend's shape).
hipdnn_test_sdk::GraphBuilder batchnormGraph(BatchnormMode mode, fb::DataType type,
                                             const std::vector<int64_t>& dims, bool channelsLast,
                                             Epilogue epilogue = Epilogue::None, int64_t peers = 0);
inline constexpr int64_t kFirstPeerStats = 30;

/// A pooling forward node: x's dims (N, C, spatial...), the window, stride and padding per
/// spatial dim, and x's and y's layout (channels last or first, both packed).
struct PoolingShape {
    fb::ResampleMode mode = fb::ResampleMode::MAXPOOL;
    fb::PaddingMode padding = fb::PaddingMode::PADDING_NOT_SET;
    std::vector<int64_t> xDims;
    std::vector<int64_t> window;
    std::vector<int64_t> stride;
    std::vector<int64_t> prePadding;
    std::vector<int64_t> postPadding;
    bool channelsLast = false;

    /// y's dims: x's N and C, the sliding window's output length per spatial dim.
    std::vector<int64_t> yDims() const;
    /// "MAXPOOL_2x3x7x9_w3x3_s2x2_p1x1_1x1_nhwc", for test names.
    std::string name() const;
};

/// Pooling of x (uid 1) in `type` to y (uid 20), `epilogue` after y.
hipdnn_test_sdk::GraphBuilder poolingGraph(fb::DataType type, const PoolingShape& shape,
                                           Epilogue epilogue = Epilogue::None);

}  // namespace cuda_kernels_test
