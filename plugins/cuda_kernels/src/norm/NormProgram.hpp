// A normalization graph as CUDA_NORM_ENGINE's kernels see it: one layer norm or RMS norm (forward or
// backward), batch norm (inference, training or backward) or pooling forward node, the tensors it
// reads and writes with the layout facts its kernels index by, and the pointwise nodes after a
// forward norm or the pooling (relu, a residual add, ...) as a fused epilogue that consumes y in
// registers. The activation the node writes is the operand "y" (dx for the backward norms), the
// one it reads "x" (and "dy" for backward).
#pragma once

#include "../pointwise/PointwiseProgram.hpp"

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hipdnn_cuda_kernels {

enum class NormKind {
    Layernorm,
    RmsNorm,
    RmsNormBackward,
    LayernormBackward,
    BatchnormInference,
    BatchnormInferenceVariance,
    BatchnormTraining,
    BatchnormBackward,
    Pooling,
};

enum class PoolingMode { Max, AverageExcludePadding, AverageIncludePadding };

/// What a max pooling window position outside x contributes: nothing (NEG_INF_PAD, the default),
/// zero (ZERO_PAD) or x's nearest element (EDGE_VAL_PAD).
enum class PoolingPadding { None, Zero, Edge };

/// A pooling forward node over the spatial dims of x (N, C, [D,] H, W). x is read through its
/// strides (any layout); y is dense, so an output's offset is its index and its coordinates follow
/// from y's strides.
struct PoolingWindow {
    PoolingMode mode = PoolingMode::Max;
    PoolingPadding padding = PoolingPadding::None;
    std::vector<int64_t> window;  // window, stride and padding: one entry per spatial dim
    std::vector<int64_t> stride;
    std::vector<int64_t> prePadding;
    std::vector<int64_t> postPadding;
    std::vector<int64_t> xDims;
    std::vector<int64_t> xStrides;
    std::vector<int64_t> yDims;
    std::vector<int64_t> yStrides;
};

/// A tensor a norm kernel takes as a pointer parameter named `name`.
struct NormOperand {
    std::string name;
    int64_t uid = 0;
    ElementType type = ElementType::Float;
    bool isOutput = false;
    int64_t stride = 0;  // statistics: between rows (row norms); parameters: between channels (batch norm)
};

/// A scalar attribute (epsilon, momentum): a pass-by-value constant, or a one-element tensor
/// named by its operand.
struct NormScalar {
    std::optional<double> constant;
    std::optional<std::string> operand;
};

struct NormProgram {
    NormKind kind = NormKind::Layernorm;
    std::vector<NormOperand> operands;  // the kernels' pointer parameters in order
    NormScalar epsilon;
    NormScalar momentum;  // batch norm training with running statistics
    bool storesY = true;  // y is not virtual
    ElementType yType = ElementType::Float;
    std::optional<PointwiseProgram> epilogue;    // the pointwise nodes after the norm
    std::vector<std::string> epilogueArguments;  // operand names of the epilogue's memory operands, in order

    int64_t elementCount = 0;  // x's elements; pooling: y's
    // Row norms (forward and backward): x as rows × columns, both packed.
    int64_t rows = 0;
    int64_t columns = 0;
    // Batch norm: x is dense; channel of element e is (e / channelStride) % channels.
    int64_t channels = 0;
    int64_t channelStride = 0;
    // Batch norm training and backward with peer_stats: the statistics are the whole group's, one
    // GPU per peer_stats tensor, summed over the handle's NCCL communicator. 0: this GPU's batch only.
    int64_t peerCount = 0;
    std::optional<PoolingWindow> pooling;  // kind Pooling

    const NormOperand* operand(const std::string& name) const;
    /// Norms over the rows of x (dim 0 outermost, every other dim a column).
    bool isRowNorm() const {
        return kind == NormKind::Layernorm || kind == NormKind::RmsNorm || isRowNormBackward();
    }
    /// Row norm backward: dx per row, and dscale (and dbias) summed over the rows.
    bool isRowNormBackward() const {
        return kind == NormKind::RmsNormBackward || kind == NormKind::LayernormBackward;
    }
    /// Batch norms that reduce over the batch first (training and backward).
    bool hasStatisticsPass() const {
        return kind == NormKind::BatchnormTraining || kind == NormKind::BatchnormBackward;
    }
    /// Statistics summed across the GPUs of a communicator (synchronized batch norm).
    bool isSynchronized() const { return peerCount > 0; }
};

/// The program of `graph`, or nullopt with `reason` naming what the engine does not run.
std::optional<NormProgram> analyzeNormGraph(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                            std::string& reason);

}  // namespace hipdnn_cuda_kernels
