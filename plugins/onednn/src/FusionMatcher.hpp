// Partitions a graph into stages, each run by one oneDNN primitive with the pointwise nodes that
// follow it folded in as bias, post-ops or the batch-norm ReLU flag.
#pragma once

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace hipdnn_onednn {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

/// Thrown while planning when the engine cannot run a graph; the message is the decline reason
/// and names the node (index, name, op) and why.
class Decline : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Throws Decline with "<node description>: <why>".
[[noreturn]] void decline(const hipdnn_flatbuffers_sdk::NodeWrapper& node, const std::string& why);

/// The primitive family a stage runs.
enum class StageKind {
    ConvFwd,
    ConvBwdData,
    ConvBwdWeights,
    BatchnormInference,
    BatchnormInferenceVariance,
    BatchnormTraining,
    BatchnormBackward,
    Matmul,
    Eltwise,
    Binary,
    Reduction,
    Layernorm,
    Pooling,
    Attention,
    AttentionBackward,
};

const char* stageKindName(StageKind kind);

/// One pointwise node folded into the primitive that precedes it.
struct PostOp {
    enum class Kind { Eltwise, Binary };
    Kind kind = Kind::Eltwise;
    dnnl::algorithm algorithm = dnnl::algorithm::undef;
    float alpha = 0.0F;  // eltwise parameters (oneDNN's meaning for `algorithm`)
    float beta = 0.0F;
    int64_t operandUid = 0;  // binary: the tensor combined with the running result
    size_t nodeIndex = 0;

    bool operator==(const PostOp&) const = default;
};

struct Stage {
    StageKind kind = StageKind::Eltwise;
    size_t primaryNode = 0;
    std::vector<size_t> nodes;       // every node the stage runs, primary first
    std::optional<int64_t> biasUid;  // conv / matmul bias folded from an ADD node
    bool fuseRelu = false;           // batch norm followed by a plain ReLU
    std::vector<PostOp> postOps;     // in application order
    int64_t outputUid = 0;           // the tensor the stage finally writes (after post-ops)
};

/// The graph as an ordered list of stages covering every node exactly once. Throws Decline for
/// the first node no stage can cover.
std::vector<Stage> matchStages(const hipdnn_flatbuffers_sdk::GraphWrapper& graph);

}  // namespace hipdnn_onednn
