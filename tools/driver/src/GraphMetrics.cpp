#include "GraphMetrics.hpp"

#include <algorithm>

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>
#include <hipdnn_test_sdk/ElementAccess.hpp>

namespace hipdnn_driver {

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;
using hipdnn_flatbuffers_sdk::GraphWrapper;
using hipdnn_test_sdk::ToleranceOp;

namespace {

std::vector<int64_t> dimsOf(const GraphWrapper& graph, int64_t uid) {
    const auto* dims = graph.tensor(uid).dims();
    return {dims->begin(), dims->end()};
}

double elements(const GraphWrapper& graph, int64_t uid) {
    return static_cast<double>(hipdnn_data_sdk::utilities::elementCount(dimsOf(graph, uid)));
}

// Terms per output element of a convolution: (C / groups) x filter volume = W's dims but the first.
int64_t filterTerms(const GraphWrapper& graph, int64_t filterUid) {
    const auto dims = dimsOf(graph, filterUid);
    int64_t terms = 1;
    for (size_t i = 1; i < dims.size(); ++i) {
        terms *= dims[i];
    }
    return terms;
}

// Attention's dims: q (B, Hq, Sq, D), k (B, Hk, Skv, D), v (B, Hk, Skv, Dv).
struct AttentionShape {
    double batch, queryHeads, kvHeads, seqQ, seqKv, headDim, valueDim;
};

AttentionShape attentionShape(const GraphWrapper& graph, int64_t q, int64_t k, int64_t v) {
    const auto qDims = dimsOf(graph, q);
    const auto kDims = dimsOf(graph, k);
    const auto vDims = dimsOf(graph, v);
    return {static_cast<double>(qDims[0]), static_cast<double>(qDims[1]), static_cast<double>(kDims[1]),
            static_cast<double>(qDims[2]), static_cast<double>(kDims[2]), static_cast<double>(qDims[3]),
            static_cast<double>(vDims[3])};
}

// Q K^T and P V: 2 B Hq Sq Skv (D + Dv), the usual 4 B Hq Sq Skv D when Dv = D; a causal mask
// halves the work an engine must do.
template <class Attributes>
double attentionForwardFlops(const GraphWrapper& graph, const Attributes& a) {
    const auto s = attentionShape(graph, a.q_tensor_uid(), a.k_tensor_uid(), a.v_tensor_uid());
    const double causal = a.causal_mask() || a.causal_mask_bottom_right() ? 0.5 : 1.0;
    return 2.0 * s.batch * s.queryHeads * s.seqQ * s.seqKv * (s.headDim + s.valueDim) * causal;
}

// The backward pass recomputes Q K^T and runs four more products (dV, dP, dQ, dK): 2.5 times the
// forward pass's work, as flash-attention counts it.
constexpr double kAttentionBackwardFactor = 2.5;

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

namespace {

// The math a multiply-add on operands of `type` runs in.
MathKind mathKindOf(fbs::DataType type, bool tf32Allowed) {
    switch (type) {
        case fbs::DataType::HALF:
            return MathKind::Fp16;
        case fbs::DataType::BFLOAT16:
            return MathKind::Bf16;
        case fbs::DataType::FP8_E4M3:
        case fbs::DataType::FP8_E5M2:
        case fbs::DataType::FP8_E4M3_FNUZ:
        case fbs::DataType::FP8_E5M2_FNUZ:
            return MathKind::Fp8;
        case fbs::DataType::INT8:
        case fbs::DataType::UINT8:
            return MathKind::Int8;
        case fbs::DataType::FLOAT:
            return tf32Allowed ? MathKind::Tf32 : MathKind::Fp32;
        default:
            return MathKind::Fp32;
    }
}

}  // namespace

std::map<MathKind, double> graphFlopsByMath(const GraphWrapper& graph, bool tf32Allowed) {
    std::map<MathKind, double> flops;
    auto add = [&](int64_t operandUid, double count) {
        flops[mathKindOf(graph.tensor(operandUid).data_type(), tf32Allowed)] += count;
    };
    for (size_t index = 0; index < graph.nodeCount(); ++index) {
        const auto node = graph.node(index);
        if (const auto* conv = node.attributesAs<fbs::ConvolutionFwdAttributes>()) {
            add(conv->x_tensor_uid(),
                2.0 * elements(graph, conv->y_tensor_uid()) * filterTerms(graph, conv->w_tensor_uid()));
        } else if (const auto* dgrad = node.attributesAs<fbs::ConvolutionBwdAttributes>()) {
            add(dgrad->dy_tensor_uid(),
                2.0 * elements(graph, dgrad->dy_tensor_uid()) * filterTerms(graph, dgrad->w_tensor_uid()));
        } else if (const auto* wgrad = node.attributesAs<fbs::ConvolutionWrwAttributes>()) {
            add(wgrad->dy_tensor_uid(),
                2.0 * elements(graph, wgrad->dy_tensor_uid()) * filterTerms(graph, wgrad->dw_tensor_uid()));
        } else if (const auto* matmul = node.attributesAs<fbs::MatmulAttributes>()) {
            const auto a = dimsOf(graph, matmul->a_tensor_uid());
            add(matmul->a_tensor_uid(),
                2.0 * elements(graph, matmul->c_tensor_uid()) * static_cast<double>(a.back()));
        } else if (const auto* sdpa = node.attributesAs<fbs::SdpaAttributes>()) {
            add(sdpa->q_tensor_uid(), attentionForwardFlops(graph, *sdpa));
        } else if (const auto* sdpaBackward = node.attributesAs<fbs::SdpaBackwardAttributes>()) {
            add(sdpaBackward->q_tensor_uid(),
                kAttentionBackwardFactor * attentionForwardFlops(graph, *sdpaBackward));
        }
    }
    return flops;
}

double graphFlops(const GraphWrapper& graph) {
    double total = 0.0;
    for (const auto& [kind, count] : graphFlopsByMath(graph, false)) {
        total += count;
    }
    return total;
}

double graphBytes(const GraphWrapper& graph) {
    double bytes = 0.0;
    auto add = [&](int64_t uid) {
        const auto& tensor = graph.tensor(uid);
        if (tensor.value() != nullptr) {
            return;
        }
        bytes +=
            elements(graph, uid) * static_cast<double>(hipdnn_test_sdk::dataTypeSize(tensor.data_type()));
    };
    for (int64_t uid : graph.inputUids()) {
        add(uid);
    }
    for (int64_t uid : graph.outputUids()) {
        add(uid);
    }
    return bytes;
}

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
            const auto w = dimsOf(graph, dgrad->w_tensor_uid());
            length = filterTerms(graph, dgrad->w_tensor_uid()) / w[1] * w[0];
        } else if (const auto* wgrad = node.attributesAs<fbs::ConvolutionWrwAttributes>()) {
            op = ToleranceOp::ConvolutionWrw;
            const auto dy = dimsOf(graph, wgrad->dy_tensor_uid());
            length = hipdnn_data_sdk::utilities::elementCount(dy) / dy[1];
        } else if (const auto* matmul = node.attributesAs<fbs::MatmulAttributes>()) {
            op = ToleranceOp::Matmul;
            length = dimsOf(graph, matmul->a_tensor_uid()).back();
        } else if (node.attributesAs<fbs::BatchnormInferenceAttributes>() != nullptr) {
            op = ToleranceOp::BatchnormInference;
        } else if (node.attributesAs<fbs::BatchnormInferenceAttributesVarianceExt>() != nullptr) {
            op = ToleranceOp::BatchnormInferenceVariance;
        } else if (node.attributesAs<fbs::BatchnormAttributes>() != nullptr) {
            op = ToleranceOp::BatchnormTraining;
        } else if (node.attributesAs<fbs::BatchnormBackwardAttributes>() != nullptr) {
            op = ToleranceOp::BatchnormBackward;
        } else if (node.attributesAs<fbs::LayernormAttributes>() != nullptr) {
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
            length = dimsOf(graph, sdpa->k_tensor_uid())[2];
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
