#include "FusionMatcher.hpp"

#include "BinaryPlan.hpp"
#include "EltwisePlan.hpp"
#include "MemoryDesc.hpp"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace hipdnn_onednn {

using hipdnn_flatbuffers_sdk::GraphWrapper;
using hipdnn_flatbuffers_sdk::NodeWrapper;
using hipdnn_flatbuffers_sdk::pointwiseInputCount;

void decline(const NodeWrapper& node, const std::string& why) {
    std::string op(node.typeName());
    if (const auto* pointwise = node.attributesAs<fb::PointwiseAttributes>()) {
        op += std::string(" ") + fb::EnumNamePointwiseMode(pointwise->operation());
    }
    throw Decline("node " + std::to_string(node.index()) + " '" + std::string(node.name()) + "' (" + op +
                  "): " + why);
}

const char* stageKindName(StageKind kind) {
    switch (kind) {
        case StageKind::ConvFwd:
            return "conv_fwd";
        case StageKind::ConvBwdData:
            return "conv_bwd_data";
        case StageKind::ConvBwdWeights:
            return "conv_bwd_weights";
        case StageKind::BatchnormInference:
            return "batchnorm_inference";
        case StageKind::BatchnormInferenceVariance:
            return "batchnorm_inference_variance";
        case StageKind::BatchnormTraining:
            return "batchnorm_training";
        case StageKind::BatchnormBackward:
            return "batchnorm_backward";
        case StageKind::Matmul:
            return "matmul";
        case StageKind::Eltwise:
            return "eltwise";
        case StageKind::Binary:
            return "binary";
        case StageKind::Reduction:
            return "reduction";
        case StageKind::Layernorm:
            return "layernorm";
        case StageKind::Attention:
            return "attention";
        case StageKind::AttentionBackward:
            return "attention_backward";
        case StageKind::Pooling:
            return "pooling";
    }
    return "unknown";
}

namespace {

constexpr size_t kGraphInput = std::numeric_limits<size_t>::max();

/// Who writes and who reads each tensor.
struct Dataflow {
    std::unordered_map<int64_t, size_t> producer;
    std::unordered_map<int64_t, std::vector<size_t>> consumers;

    explicit Dataflow(const GraphWrapper& graph) {
        for (size_t i = 0; i < graph.nodeCount(); ++i) {
            for (const auto& port : graph.node(i).ports()) {
                if (port.isOutput) {
                    producer[port.uid] = i;
                } else {
                    consumers[port.uid].push_back(i);
                }
            }
        }
    }

    size_t producerOf(int64_t uid) const {
        const auto it = producer.find(uid);
        return it == producer.end() ? kGraphInput : it->second;
    }

    size_t consumerCount(int64_t uid) const {
        const auto it = consumers.find(uid);
        return it == consumers.end() ? 0 : it->second.size();
    }
};

/// What a primary node allows to be folded after it.
enum class FusionScope { None, ReluOnly, PostOps, BiasAndPostOps };

struct Primary {
    StageKind kind;
    int64_t output;  // the tensor post-ops apply to
    FusionScope scope;
};

Primary classify(const NodeWrapper& node) {
    using A = fb::NodeAttributes;
    switch (node.type()) {
        case A::ConvolutionFwdAttributes:
            return {StageKind::ConvFwd, node.attributesAs<fb::ConvolutionFwdAttributes>()->y_tensor_uid(),
                    FusionScope::BiasAndPostOps};
        case A::ConvolutionBwdAttributes:
            return {StageKind::ConvBwdData,
                    node.attributesAs<fb::ConvolutionBwdAttributes>()->dx_tensor_uid(), FusionScope::None};
        case A::ConvolutionWrwAttributes:
            return {StageKind::ConvBwdWeights,
                    node.attributesAs<fb::ConvolutionWrwAttributes>()->dw_tensor_uid(), FusionScope::None};
        case A::BatchnormInferenceAttributes:
            return {StageKind::BatchnormInference,
                    node.attributesAs<fb::BatchnormInferenceAttributes>()->y_tensor_uid(),
                    FusionScope::ReluOnly};
        case A::BatchnormInferenceAttributesVarianceExt:
            return {StageKind::BatchnormInferenceVariance,
                    node.attributesAs<fb::BatchnormInferenceAttributesVarianceExt>()->y_tensor_uid(),
                    FusionScope::ReluOnly};
        case A::BatchnormAttributes:
            return {StageKind::BatchnormTraining,
                    node.attributesAs<fb::BatchnormAttributes>()->y_tensor_uid(), FusionScope::ReluOnly};
        case A::BatchnormBackwardAttributes:
            return {StageKind::BatchnormBackward,
                    node.attributesAs<fb::BatchnormBackwardAttributes>()->dx_tensor_uid(), FusionScope::None};
        case A::MatmulAttributes:
            return {StageKind::Matmul, node.attributesAs<fb::MatmulAttributes>()->c_tensor_uid(),
                    FusionScope::BiasAndPostOps};
        case A::ReductionAttributes:
            return {StageKind::Reduction, node.attributesAs<fb::ReductionAttributes>()->out_tensor_uid(),
                    FusionScope::None};
        case A::LayernormAttributes:
            return {StageKind::Layernorm, node.attributesAs<fb::LayernormAttributes>()->y_tensor_uid(),
                    FusionScope::None};
        case A::ResampleFwdAttributes:
            return {StageKind::Pooling, node.attributesAs<fb::ResampleFwdAttributes>()->y_tensor_uid(),
                    FusionScope::None};
        case A::PointwiseAttributes: {
            const auto* pointwise = node.attributesAs<fb::PointwiseAttributes>();
            const int inputs = pointwiseInputCount(pointwise->operation());
            if (inputs == 1) {
                std::string why;
                if (!eltwiseSpecFor(*pointwise, why)) {
                    decline(node, why);
                }
                return {StageKind::Eltwise, pointwise->out_0_tensor_uid(), FusionScope::None};
            }
            if (inputs == 2 && binaryAlgorithmFor(pointwise->operation())) {
                return {StageKind::Binary, pointwise->out_0_tensor_uid(), FusionScope::PostOps};
            }
            decline(node, std::string("pointwise mode ") + fb::EnumNamePointwiseMode(pointwise->operation()) +
                              " has no oneDNN eltwise or binary algorithm");
        }
        case A::SdpaAttributes:
            return {StageKind::Attention, node.attributesAs<fb::SdpaAttributes>()->o_tensor_uid(),
                    FusionScope::None};
        case A::SdpaBackwardAttributes:
            return {StageKind::AttentionBackward,
                    node.attributesAs<fb::SdpaBackwardAttributes>()->dq_tensor_uid(), FusionScope::None};
        case A::RMSNormAttributes:
        case A::RMSNormBackwardAttributes:
            decline(node, "oneDNN 2.6 has no RMS normalization primitive");
        case A::LayernormBackwardAttributes:
            decline(node, "layer norm backward is not implemented by the oneDNN engine");
        default:
            decline(node, "operation not supported by the oneDNN engine");
    }
}

/// True when `operand` can be broadcast to `target` (every dim equal or 1, same rank), or is a
/// single-element scalar.
bool broadcastsTo(const fb::TensorAttributes& operand, const fb::TensorAttributes& target) {
    const auto from = dimsOf(operand);
    const auto to = dimsOf(target);
    int64_t count = 1;
    for (int64_t d : from) {
        count *= d;
    }
    if (count == 1) {
        return true;
    }
    if (from.size() != to.size()) {
        return false;
    }
    for (size_t i = 0; i < from.size(); ++i) {
        if (from[i] != 1 && from[i] != to[i]) {
            return false;
        }
    }
    return true;
}

/// A per-output-channel bias for the stage kind: (1, K, 1, ...) for convolutions, (1, ..., N)
/// for matmul.
bool isBiasShaped(StageKind kind, const fb::TensorAttributes& operand, const fb::TensorAttributes& output) {
    const auto dims = dimsOf(output);
    if (dimsOf(operand).size() != dims.size()) {
        return false;
    }
    if (kind == StageKind::ConvFwd) {
        return isVectorAlong(operand, 1, dims[1]);
    }
    return isVectorAlong(operand, dims.size() - 1, dims.back());
}

/// Tries to fold node `next` into `stage` as bias, ReLU flag or post-op; true when folded.
bool tryFold(const GraphWrapper& graph, const Dataflow& flow, FusionScope scope, Stage& stage, size_t next) {
    const NodeWrapper node = graph.node(next);
    const auto* pointwise = node.attributesAs<fb::PointwiseAttributes>();
    if (pointwise == nullptr) {
        return false;
    }
    const int64_t current = stage.outputUid;
    const fb::TensorAttributes& out = graph.tensor(pointwise->out_0_tensor_uid());
    if (dimsOf(out) != dimsOf(graph.tensor(current))) {
        return false;
    }
    const int inputs = pointwiseInputCount(pointwise->operation());
    if (inputs == 1) {
        if (pointwise->in_0_tensor_uid() != current) {
            return false;
        }
        if (scope == FusionScope::ReluOnly) {
            if (!isPlainRelu(*pointwise) || stage.fuseRelu) {
                return false;
            }
            stage.fuseRelu = true;
            return true;
        }
        std::string why;
        const auto spec = eltwiseSpecFor(*pointwise, why);
        if (!spec) {
            return false;
        }
        // oneDNN 2.6's JIT post-op injector gives every eltwise post-op of one algorithm the first
        // one's alpha and beta (IDENTITY then NEG both scale by 1), so such a node ends the chain.
        const bool clashes = std::any_of(stage.postOps.begin(), stage.postOps.end(), [&](const PostOp& op) {
            return op.kind == PostOp::Kind::Eltwise && op.algorithm == spec->algorithm &&
                   (op.alpha != spec->alpha || op.beta != spec->beta);
        });
        if (clashes) {
            return false;
        }
        stage.postOps.push_back({PostOp::Kind::Eltwise, spec->algorithm, spec->alpha, spec->beta, 0, next});
        return true;
    }
    if (inputs != 2 || scope == FusionScope::ReluOnly || !pointwise->in_1_tensor_uid().has_value()) {
        return false;
    }
    const auto algorithm = binaryAlgorithmFor(pointwise->operation());
    if (!algorithm) {
        return false;
    }
    int64_t operand = 0;
    if (pointwise->in_0_tensor_uid() == current && *pointwise->in_1_tensor_uid() != current) {
        operand = *pointwise->in_1_tensor_uid();
    } else if (*pointwise->in_1_tensor_uid() == current && pointwise->in_0_tensor_uid() != current &&
               isCommutative(pointwise->operation())) {
        operand = pointwise->in_0_tensor_uid();
    } else {
        return false;
    }
    // The stage runs where its primary node is, so the operand must exist by then.
    const size_t producer = flow.producerOf(operand);
    if (producer != kGraphInput && producer >= stage.primaryNode) {
        return false;
    }
    const fb::TensorAttributes& operandTensor = graph.tensor(operand);
    if (!broadcastsTo(operandTensor, out)) {
        return false;
    }
    // oneDNN 2.6's JIT kernels misread a broadcast binary post-op operand when the output's last
    // dim is 1 (N x C x 1 times 1 x C x 1 reads the wrong channel; a convolution's NDHWC output
    // with W = 1 reads wrong values or past the operand's end); a separate binary stage reads it
    // right.
    const auto outDims = dimsOf(out);
    if (outDims.size() > 2 && outDims.back() == 1 && dimsOf(operandTensor) != outDims &&
        operandTensor.value_type() == fb::TensorValue::NONE) {
        return false;
    }
    if (scope == FusionScope::BiasAndPostOps && !stage.biasUid && stage.postOps.empty() &&
        pointwise->operation() == fb::PointwiseMode::ADD &&
        operandTensor.value_type() == fb::TensorValue::NONE && isBiasShaped(stage.kind, operandTensor, out)) {
        stage.biasUid = operand;
        return true;
    }
    stage.postOps.push_back({PostOp::Kind::Binary, *algorithm, 0.0F, 0.0F, operand, next});
    return true;
}

}  // namespace

std::vector<Stage> matchStages(const GraphWrapper& graph) {
    const Dataflow flow(graph);
    std::vector<bool> covered(graph.nodeCount(), false);
    std::vector<Stage> stages;
    for (size_t i = 0; i < graph.nodeCount(); ++i) {
        if (covered[i]) {
            continue;
        }
        const NodeWrapper node = graph.node(i);
        const Primary primary = classify(node);
        Stage stage;
        stage.kind = primary.kind;
        stage.primaryNode = i;
        stage.nodes.push_back(i);
        stage.outputUid = primary.output;
        covered[i] = true;
        // Fold the chain while the running result is an intermediate read by exactly one node.
        while (primary.scope != FusionScope::None) {
            const int64_t current = stage.outputUid;
            if (!graph.tensor(current).virtual_() || flow.consumerCount(current) != 1) {
                break;
            }
            const size_t next = flow.consumers.at(current).front();
            if (covered[next] || !tryFold(graph, flow, primary.scope, stage, next)) {
                break;
            }
            covered[next] = true;
            stage.nodes.push_back(next);
            stage.outputUid = graph.node(next).attributesAs<fb::PointwiseAttributes>()->out_0_tensor_uid();
        }
        stages.push_back(std::move(stage));
    }
    return stages;
}

}  // namespace hipdnn_onednn
