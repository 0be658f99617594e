// A normalization graph as CUDA_NORM_ENGINE's kernels see it: one layer norm, RMS norm or batch
// norm (inference, training or backward) node, the tensors it reads and writes with the layout
// facts its kernels index by, and the pointwise nodes after a forward norm (relu, a residual add,
// ...) as a fused epilogue that consumes y in registers. The activation the norm writes is the
// operand "y" (dx for batch norm backward), the one it reads "x" (and "dy" for backward).
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
    BatchnormInference,
    BatchnormInferenceVariance,
    BatchnormTraining,
    BatchnormBackward,
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

    int64_t elementCount = 0;
    // Row norms: x as rows × columns, both packed.
    int64_t rows = 0;
    int64_t columns = 0;
    // Batch norm: x is dense; channel of element e is (e / channelStride) % channels.
    int64_t channels = 0;
    int64_t channelStride = 0;

    const NormOperand* operand(const std::string& name) const;
    bool isRowNorm() const { return kind == NormKind::Layernorm || kind == NormKind::RmsNorm; }
    /// Batch norms that reduce over the batch first (training and backward).
    bool hasStatisticsPass() const {
        return kind == NormKind::BatchnormTraining || kind == NormKind::BatchnormBackward;
    }
};

/// The program of `graph`, or nullopt with `reason` naming what the engine does not run.
std::optional<NormProgram> analyzeNormGraph(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                            std::string& reason);

}  // namespace hipdnn_cuda_kernels
