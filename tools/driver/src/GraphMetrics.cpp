#include "GraphMetrics.hpp"

#include <algorithm>

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

namespace hipdnn_driver {

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;
using hipdnn_flatbuffers_sdk::attentionShape;
using hipdnn_flatbuffers_sdk::filterTerms;
using hipdnn_flatbuffers_sdk::GraphWrapper;
using hipdnn_flatbuffers_sdk::tensorDims;
using hipdnn_test_sdk::ToleranceOp;

namespace {

// Lower is more dominant.
int rankOf(ToleranceOp op) {
    switch (op) {
        case ToleranceOp::ConvolutionFwd:
        case ToleranceOp::ConvolutionBwd:
        case ToleranceOp::ConvolutionWrw:
            return 0;
        case ToleranceOp::Matmul:
        case ToleranceOp::Sdpa:
        case ToleranceOp::SdpaBackward:
            return 1;
        case ToleranceOp::BatchnormTraining:
        case ToleranceOp::BatchnormBackward:
        case ToleranceOp::Layernorm:
        case ToleranceOp::RmsNorm:
            return 2;
        case ToleranceOp::BatchnormInference:
        case ToleranceOp::BatchnormInferenceVariance:
        case ToleranceOp::Resample:
        case ToleranceOp::Reduction:
            return 3;
        case ToleranceOp::Pointwise:
            break;
    }
    return 4;
}

}  // namespace

GraphTolerance graphTolerance(const GraphWrapper& graph) {
    GraphTolerance result;
    for (size_t index = 0; index < graph.nodeCount(); ++index) {
        const auto node = graph.node(index);
        ToleranceOp op = ToleranceOp::Pointwise;
        int64_t length = 1;
        if (const auto* conv = node.attributesAs<fbs::ConvolutionFwdAttributes>()) {
            op = ToleranceOp::ConvolutionFwd;
            length = filterTerms(graph, conv->w_tensor_uid());
        } else if (const auto* dgrad = node.attributesAs<fbs::ConvolutionBwdAttributes>()) {
            op = ToleranceOp::ConvolutionBwd;
            const auto w = tensorDims(graph, dgrad->w_tensor_uid());
            length = filterTerms(graph, dgrad->w_tensor_uid()) / w[1] * w[0];
        } else if (const auto* wgrad = node.attributesAs<fbs::ConvolutionWrwAttributes>()) {
            op = ToleranceOp::ConvolutionWrw;
            const auto dy = tensorDims(graph, wgrad->dy_tensor_uid());
            length = hipdnn_data_sdk::utilities::elementCount(dy) / dy[1];
        } else if (const auto* matmul = node.attributesAs<fbs::MatmulAttributes>()) {
            op = ToleranceOp::Matmul;
            length = tensorDims(graph, matmul->a_tensor_uid()).back();
        } else if (node.attributesAs<fbs::BatchnormInferenceAttributes>() != nullptr) {
            op = ToleranceOp::BatchnormInference;
        } else if (node.attributesAs<fbs::BatchnormInferenceAttributesVarianceExt>() != nullptr) {
            op = ToleranceOp::BatchnormInferenceVariance;
        } else if (node.attributesAs<fbs::BatchnormAttributes>() != nullptr) {
            op = ToleranceOp::BatchnormTraining;
        } else if (node.attributesAs<fbs::BatchnormBackwardAttributes>() != nullptr) {
            op = ToleranceOp::BatchnormBackward;
        } else if (node.attributesAs<fbs::LayernormAttributes>() != nullptr ||
                   node.attributesAs<fbs::LayernormBackwardAttributes>() != nullptr) {
            op = ToleranceOp::Layernorm;
        } else if (node.attributesAs<fbs::RMSNormAttributes>() != nullptr ||
                   node.attributesAs<fbs::RMSNormBackwardAttributes>() != nullptr) {
            op = ToleranceOp::RmsNorm;
        } else if (node.attributesAs<fbs::ResampleFwdAttributes>() != nullptr) {
            op = ToleranceOp::Resample;
        } else if (node.attributesAs<fbs::ReductionAttributes>() != nullptr) {
            op = ToleranceOp::Reduction;
        } else if (const auto* sdpa = node.attributesAs<fbs::SdpaAttributes>()) {
            op = ToleranceOp::Sdpa;
            length = tensorDims(graph, sdpa->k_tensor_uid())[2];
            result.attentionOperandType = graph.tensor(sdpa->q_tensor_uid()).data_type();
        } else if (const auto* sdpaBackward = node.attributesAs<fbs::SdpaBackwardAttributes>()) {
            op = ToleranceOp::SdpaBackward;
            const auto s = attentionShape(graph, sdpaBackward->q_tensor_uid(), sdpaBackward->k_tensor_uid(),
                                          sdpaBackward->v_tensor_uid());
            length = static_cast<int64_t>(std::max(s.seqKv, s.seqQ * s.queryHeads / s.kvHeads));
            result.attentionOperandType = graph.tensor(sdpaBackward->q_tensor_uid()).data_type();
        }
        if (rankOf(op) < rankOf(result.op)) {
            result.op = op;
        }
        result.reductionLength = std::max(result.reductionLength, length);
    }
    return result;
}

}  // namespace hipdnn_driver
