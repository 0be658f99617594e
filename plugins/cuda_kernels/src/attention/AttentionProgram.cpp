#include "AttentionProgram.hpp"

#include "../pointwise/PointwiseProgram.hpp"

#include <hipdnn_flatbuffers_sdk/PassByValue.hpp>

#include <algorithm>

namespace hipdnn_cuda_kernels {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

const AttentionOperand* AttentionProgram::operand(const std::string& name) const {
    const auto found = std::find_if(operands.begin(), operands.end(), [&](const AttentionOperand& candidate) {
        return candidate.name == name;
    });
    return found != operands.end() ? &*found : nullptr;
}

namespace {

using Tensor = fb::TensorAttributes;
using hipdnn_flatbuffers_sdk::NodeWrapper;

// The largest of D and Dv the kernels' shared-memory tiles hold (4 rows of 512 floats).
constexpr int64_t kMaxHeadDim = 512;

class AttentionAnalysis {
public:
    AttentionAnalysis(const hipdnn_flatbuffers_sdk::GraphWrapper& graph, std::string& reason)
        : _graph(graph), _reason(reason) {}

    std::optional<AttentionProgram> run() {
        if (_graph.nodeCount() != 1) {
            decline("the graph has " + std::to_string(_graph.nodeCount()) +
                    " nodes; CUDA_SDPA_ENGINE runs a graph of one attention node");
            return std::nullopt;
        }
        const NodeWrapper node = _graph.node(0);
        fb::DataType compute = node.node().compute_data_type();
        if (compute == fb::DataType::UNSET) {
            compute = _graph.graph().compute_data_type();
        }
        if (compute != fb::DataType::FLOAT && compute != fb::DataType::UNSET) {
            decline(node.describe() + " has compute data type " + fb::EnumNameDataType(compute) +
                    "; supported: FLOAT");
            return std::nullopt;
        }
        bool accepted = false;
        if (const auto* forward = node.attributesAs<fb::SdpaAttributes>()) {
            _program.direction = AttentionDirection::Forward;
            accepted = analyzeForward(*forward) && analyzeOptions(*forward);
        } else if (const auto* backward = node.attributesAs<fb::SdpaBackwardAttributes>()) {
            _program.direction = AttentionDirection::Backward;
            accepted = analyzeBackward(*backward) && analyzeOptions(*backward);
        } else {
            decline(node.describe() + " is not scaled dot-product attention (forward or backward)");
        }
        if (!accepted) {
            return std::nullopt;
        }
        return std::move(_program);
    }

private:
    bool decline(std::string why) {
        _reason = std::move(why);
        return false;
    }

    // A tensor of the node in memory, appended to the operands.
    bool addOperand(const std::string& name, int64_t uid, bool floatingPoint) {
        const Tensor& tensor = _graph.tensor(uid);
        if (tensor.virtual_()) {
            return decline(
                describeTensor(tensor) + " (" + name +
                ") is virtual; CUDA_SDPA_ENGINE reads and writes every tensor of its node in memory");
        }
        const fb::DataType type = effectiveType(_graph, tensor);
        if (floatingPoint && !elementTypeOf(type)) {
            return decline(describeTensor(tensor) + " (" + name + ") has data type " +
                           fb::EnumNameDataType(type) + "; supported: FLOAT, HALF, BFLOAT16");
        }
        AttentionOperand operand{name, uid, type, {}};
        const auto* dims = tensor.dims();
        const auto* strides = tensor.strides();
        for (flatbuffers::uoffset_t d = 0; d < std::min<flatbuffers::uoffset_t>(4, dims->size()); ++d) {
            operand.strides[d] = dims->Get(d) == 1 ? 0 : strides->Get(d);
        }
        _program.operands.push_back(std::move(operand));
        return true;
    }

    bool addOptionalOperand(const std::string& name, std::optional<int64_t> uid) {
        return !uid || addOperand(name, *uid, true);
    }

    bool setSizes(int64_t q, int64_t k, int64_t v) {
        const auto dims = [&](int64_t uid) { return _graph.tensor(uid).dims(); };
        _program.batch = dims(q)->Get(0);
        _program.queryHeads = dims(q)->Get(1);
        _program.seqQ = dims(q)->Get(2);
        _program.headDim = dims(q)->Get(3);
        _program.kvHeads = dims(k)->Get(1);
        _program.seqKv = dims(k)->Get(2);
        _program.valueDim = dims(v)->Get(3);
        for (const auto& [name, extent] :
             {std::pair{"head dim D", _program.headDim}, std::pair{"value head dim Dv", _program.valueDim}}) {
            if (extent > kMaxHeadDim) {
                return decline(std::string(name) + " = " + std::to_string(extent) +
                               " exceeds CUDA_SDPA_ENGINE's limit of " + std::to_string(kMaxHeadDim));
            }
        }
        return true;
    }

    bool analyzeForward(const fb::SdpaAttributes& a) {
        return addOperand("q", a.q_tensor_uid(), true) && addOperand("k", a.k_tensor_uid(), true) &&
               addOperand("v", a.v_tensor_uid(), true) && addOperand("o", a.o_tensor_uid(), true) &&
               addOptionalOperand("stats", a.stats_tensor_uid()) &&
               addOptionalOperand("bias", a.attn_mask_tensor_uid()) &&
               setSizes(a.q_tensor_uid(), a.k_tensor_uid(), a.v_tensor_uid());
    }

    bool analyzeBackward(const fb::SdpaBackwardAttributes& a) {
        return addOperand("q", a.q_tensor_uid(), true) && addOperand("k", a.k_tensor_uid(), true) &&
               addOperand("v", a.v_tensor_uid(), true) && addOperand("o", a.o_tensor_uid(), true) &&
               addOperand("dO", a.do_tensor_uid(), true) && addOperand("stats", a.stats_tensor_uid(), true) &&
               addOperand("dq", a.dq_tensor_uid(), true) && addOperand("dk", a.dk_tensor_uid(), true) &&
               addOperand("dv", a.dv_tensor_uid(), true) &&
               addOptionalOperand("bias", a.attn_mask_tensor_uid()) &&
               setSizes(a.q_tensor_uid(), a.k_tensor_uid(), a.v_tensor_uid());
    }

    // A scale from a tensor: its pass-by-value number, else one floating-point element in memory.
    std::optional<AttentionScalar> floatScalar(const std::string& name, int64_t uid) {
        const Tensor& tensor = _graph.tensor(uid);
        if (const auto value = hipdnn_flatbuffers_sdk::passByValueNumber(tensor)) {
            return AttentionScalar{value, std::nullopt, ""};
        }
        if (!addOperand(name, uid, true)) {
            return std::nullopt;
        }
        return AttentionScalar{std::nullopt, std::nullopt, name};
    }

    // A length, seed or offset: its pass-by-value integer (exact), else INT32 / INT64 in memory
    // (the catalogue has checked the type).
    std::optional<AttentionScalar> integerScalar(const std::string& name, int64_t uid) {
        const Tensor& tensor = _graph.tensor(uid);
        if (tensor.value_type() == fb::TensorValue::Int64Value) {
            return AttentionScalar{std::nullopt, tensor.value_as_Int64Value()->value(), ""};
        }
        if (tensor.value_type() == fb::TensorValue::Int32Value) {
            return AttentionScalar{std::nullopt, tensor.value_as_Int32Value()->value(), ""};
        }
        if (tensor.value_type() != fb::TensorValue::NONE) {
            decline(describeTensor(tensor) + " (" + name + ") holds a pass-by-value " +
                    fb::EnumNameTensorValue(tensor.value_type()) + "; an INT32 or INT64 value is needed");
            return std::nullopt;
        }
        if (!addOperand(name, uid, false)) {
            return std::nullopt;
        }
        return AttentionScalar{std::nullopt, std::nullopt, name};
    }

    // What the forward and backward tables share (fields of the same names).
    template <class Attributes>
    bool analyzeOptions(const Attributes& a) {
        if (a.scale_tensor_uid().has_value()) {
            const auto scale = floatScalar("scale", *a.scale_tensor_uid());
            if (!scale) {
                return false;
            }
            _program.scale = *scale;
        } else {
            _program.scale.constant = a.attn_scale_value().has_value() ? *a.attn_scale_value() : 1.0;
        }
        const bool alignedBottomRight = a.diagonal_alignment() == fb::DiagonalAlignment::BOTTOM_RIGHT;
        _program.causal = a.causal_mask() || a.causal_mask_bottom_right();
        _program.bottomRight = a.causal_mask_bottom_right() || (a.causal_mask() && alignedBottomRight);
        if (a.padding_mask()) {
            _program.seqLenQ = integerScalar("seq_len_q", *a.seq_len_q_tensor_uid());
            _program.seqLenKv =
                _program.seqLenQ ? integerScalar("seq_len_kv", *a.seq_len_kv_tensor_uid()) : std::nullopt;
            if (!_program.seqLenKv) {
                return false;
            }
        }
        if (a.dropout_probability().has_value() && *a.dropout_probability() > 0.0F) {
            _program.dropoutProbability = *a.dropout_probability();
            _program.seed = integerScalar("seed", *a.seed_tensor_uid());
            _program.offset = _program.seed ? integerScalar("offset", *a.offset_tensor_uid()) : std::nullopt;
            if (!_program.offset) {
                return false;
            }
        }
        return true;
    }

    const hipdnn_flatbuffers_sdk::GraphWrapper& _graph;
    std::string& _reason;
    AttentionProgram _program;
};

}  // namespace

std::optional<AttentionProgram> analyzeAttentionGraph(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                                      std::string& reason) {
    return AttentionAnalysis(graph, reason).run();
}

}  // namespace hipdnn_cuda_kernels
