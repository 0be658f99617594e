// What a graph costs a device at least: the multiply-adds of its convolutions, matmuls and
// attention by the math they run in, and the bytes of its non-virtual tensors. The driver's
// floors and the engines' estimated times (plugin_sdk Roofline.hpp) both start from these counts,
// so an engine's estimate and the driver's floor describe the same work.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>
#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

namespace hipdnn_flatbuffers_sdk {

/// The arithmetic a convolution's or matmul's multiply-adds run in. Strict fp32 runs on CUDA cores
/// or FMA units; the others have tensor cores, AMX tiles or dot-product instructions of their own.
enum class MathKind { Fp32, Tf32, Fp16, Bf16, Fp8, Int8 };

inline const char* mathKindName(MathKind kind) {
    switch (kind) {
        case MathKind::Fp32:
            return "fp32";
        case MathKind::Tf32:
            return "tf32";
        case MathKind::Fp16:
            return "fp16";
        case MathKind::Bf16:
            return "bf16";
        case MathKind::Fp8:
            return "fp8";
        case MathKind::Int8:
            break;
    }
    return "int8";
}

/// Bytes of one element of `type`; 0 for a type without a fixed element size.
inline std::size_t elementBytes(data_objects::DataType type) {
    using data_objects::DataType;
    switch (type) {
        case DataType::DOUBLE:
        case DataType::INT64:
            return 8;
        case DataType::FLOAT:
        case DataType::INT32:
            return 4;
        case DataType::HALF:
        case DataType::BFLOAT16:
            return 2;
        case DataType::UINT8:
        case DataType::INT8:
        case DataType::FP8_E4M3:
        case DataType::FP8_E5M2:
        case DataType::FP8_E4M3_FNUZ:
        case DataType::FP8_E5M2_FNUZ:
            return 1;
        default:
            return 0;
    }
}

/// The math a multiply-add on operands of `type` runs in.
inline MathKind mathKindOf(data_objects::DataType type, bool tf32Allowed) {
    using data_objects::DataType;
    switch (type) {
        case DataType::HALF:
            return MathKind::Fp16;
        case DataType::BFLOAT16:
            return MathKind::Bf16;
        case DataType::FP8_E4M3:
        case DataType::FP8_E5M2:
        case DataType::FP8_E4M3_FNUZ:
        case DataType::FP8_E5M2_FNUZ:
            return MathKind::Fp8;
        case DataType::INT8:
        case DataType::UINT8:
            return MathKind::Int8;
        case DataType::FLOAT:
            return tf32Allowed ? MathKind::Tf32 : MathKind::Fp32;
        default:
            return MathKind::Fp32;
    }
}

inline std::vector<int64_t> tensorDims(const GraphWrapper& graph, int64_t uid) {
    const auto* dims = graph.tensor(uid).dims();
    return {dims->begin(), dims->end()};
}

inline double tensorElements(const GraphWrapper& graph, int64_t uid) {
    return static_cast<double>(hipdnn_data_sdk::utilities::elementCount(tensorDims(graph, uid)));
}

/// Terms per output element of a convolution: (C / groups) x filter volume = W's dims but the first.
inline int64_t filterTerms(const GraphWrapper& graph, int64_t filterUid) {
    const auto dims = tensorDims(graph, filterUid);
    int64_t terms = 1;
    for (std::size_t i = 1; i < dims.size(); ++i) {
        terms *= dims[i];
    }
    return terms;
}

/// Attention's dims: q (B, Hq, Sq, D), k (B, Hk, Skv, D), v (B, Hk, Skv, Dv).
struct AttentionShape {
    double batch, queryHeads, kvHeads, seqQ, seqKv, headDim, valueDim;
};

inline AttentionShape attentionShape(const GraphWrapper& graph, int64_t q, int64_t k, int64_t v) {
    const auto qDims = tensorDims(graph, q);
    const auto kDims = tensorDims(graph, k);
    const auto vDims = tensorDims(graph, v);
    return {static_cast<double>(qDims[0]), static_cast<double>(qDims[1]), static_cast<double>(kDims[1]),
            static_cast<double>(qDims[2]), static_cast<double>(kDims[2]), static_cast<double>(qDims[3]),
            static_cast<double>(vDims[3])};
}

/// Q K^T and P V: 2 B Hq Sq Skv (D + Dv), the usual 4 B Hq Sq Skv D when Dv = D; a causal mask
/// halves the work an engine must do.
template <class Attributes>
double attentionForwardFlops(const GraphWrapper& graph, const Attributes& a) {
    const auto s = attentionShape(graph, a.q_tensor_uid(), a.k_tensor_uid(), a.v_tensor_uid());
    const double causal = a.causal_mask() || a.causal_mask_bottom_right() ? 0.5 : 1.0;
    return 2.0 * s.batch * s.queryHeads * s.seqQ * s.seqKv * (s.headDim + s.valueDim) * causal;
}

/// The attention backward pass recomputes Q K^T and runs four more products (dV, dP, dQ, dK): 2.5
/// times the forward pass's work, as flash-attention counts it.
inline constexpr double kAttentionBackwardFactor = 2.5;

/// 2 x multiply-adds of the convolutions, matmuls and attention by the math they run in, read from
/// each operation's first operand (bf16 operands run on bf16 units, fp32 in tf32 when the engine
/// may round to it). Other operations count 0: they are memory-bound.
inline std::map<MathKind, double> graphFlopsByMath(const GraphWrapper& graph, bool tf32Allowed) {
    namespace fbs = data_objects;
    std::map<MathKind, double> flops;
    auto add = [&](int64_t operandUid, double count) {
        flops[mathKindOf(graph.tensor(operandUid).data_type(), tf32Allowed)] += count;
    };
    for (std::size_t index = 0; index < graph.nodeCount(); ++index) {
        const auto node = graph.node(index);
        if (const auto* conv = node.attributesAs<fbs::ConvolutionFwdAttributes>()) {
            add(conv->x_tensor_uid(),
                2.0 * tensorElements(graph, conv->y_tensor_uid()) * filterTerms(graph, conv->w_tensor_uid()));
        } else if (const auto* dgrad = node.attributesAs<fbs::ConvolutionBwdAttributes>()) {
            add(dgrad->dy_tensor_uid(), 2.0 * tensorElements(graph, dgrad->dy_tensor_uid()) *
                                            filterTerms(graph, dgrad->w_tensor_uid()));
        } else if (const auto* wgrad = node.attributesAs<fbs::ConvolutionWrwAttributes>()) {
            add(wgrad->dy_tensor_uid(), 2.0 * tensorElements(graph, wgrad->dy_tensor_uid()) *
                                            filterTerms(graph, wgrad->dw_tensor_uid()));
        } else if (const auto* matmul = node.attributesAs<fbs::MatmulAttributes>()) {
            const auto a = tensorDims(graph, matmul->a_tensor_uid());
            add(matmul->a_tensor_uid(),
                2.0 * tensorElements(graph, matmul->c_tensor_uid()) * static_cast<double>(a.back()));
        } else if (const auto* sdpa = node.attributesAs<fbs::SdpaAttributes>()) {
            add(sdpa->q_tensor_uid(), attentionForwardFlops(graph, *sdpa));
        } else if (const auto* sdpaBackward = node.attributesAs<fbs::SdpaBackwardAttributes>()) {
            add(sdpaBackward->q_tensor_uid(),
                kAttentionBackwardFactor * attentionForwardFlops(graph, *sdpaBackward));
        }
    }
    return flops;
}

/// The flops of graphFlopsByMath over every kind of math.
inline double graphFlops(const GraphWrapper& graph) {
    double total = 0.0;
    for (const auto& [kind, count] : graphFlopsByMath(graph, false)) {
        total += count;
    }
    return total;
}

/// Bytes of the non-virtual tensors read or written, each once (pass-by-value scalars excluded).
inline double graphBytes(const GraphWrapper& graph) {
    double bytes = 0.0;
    auto add = [&](int64_t uid) {
        const auto& tensor = graph.tensor(uid);
        if (tensor.value() != nullptr) {
            return;
        }
        bytes += tensorElements(graph, uid) * static_cast<double>(elementBytes(tensor.data_type()));
    };
    for (int64_t uid : graph.inputUids()) {
        add(uid);
    }
    for (int64_t uid : graph.outputUids()) {
        add(uid);
    }
    return bytes;
}

}  // namespace hipdnn_flatbuffers_sdk
