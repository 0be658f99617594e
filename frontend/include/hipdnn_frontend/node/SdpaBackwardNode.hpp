// Scaled dot-product attention backward: DQ, DK and DV from Q, K, V, O, DO and the forward
// pass's STATS.
#pragma once

#include "../attributes/SdpaAttributes.hpp"
#include "../detail/TensorLookup.hpp"
#include "AttentionShapes.hpp"
#include "INode.hpp"

namespace hipdnn_frontend::graph {

class SdpaBackwardNode : public NodeBase<SdpaBackwardNode, SdpaBackwardAttributes> {
public:
    static constexpr NodeType kType = NodeType::SDPA_BACKWARD;
    using Schema = fbs::SdpaBackwardAttributes;
    using NodeBase::NodeBase;

    static std::string_view portName(InputNames port) {
        switch (port) {
            case InputNames::Q:
                return "Q";
            case InputNames::K:
                return "K";
            case InputNames::V:
                return "V";
            case InputNames::O:
                return "O";
            case InputNames::DO:
                return "DO";
            case InputNames::STATS:
                return "STATS";
            case InputNames::ATTN_SCALE:
                return "ATTN_SCALE";
            case InputNames::BIAS:
                return "BIAS";
            case InputNames::SEQ_LEN_Q:
                return "SEQ_LEN_Q";
            case InputNames::SEQ_LEN_KV:
                return "SEQ_LEN_KV";
            case InputNames::SEED:
                return "SEED";
            case InputNames::OFFSET:
                return "OFFSET";
        }
        return "?";
    }
    static std::string_view portName(OutputNames port) {
        switch (port) {
            case OutputNames::DQ:
                return "DQ";
            case OutputNames::DK:
                return "DK";
            case OutputNames::DV:
                return "DV";
        }
        return "?";
    }

    Error inferAndValidateNode() {
        for (auto port : {InputNames::Q, InputNames::K, InputNames::V, InputNames::O, InputNames::DO,
                          InputNames::STATS}) {
            HIPDNN_CHECK_FRONTEND_ERROR(requireInput(port));
        }
        detail::AttentionDims dims;
        HIPDNN_CHECK_FRONTEND_ERROR(detail::checkAttentionInputs(
            name(), *in(InputNames::Q), *in(InputNames::K), *in(InputNames::V), dims));
        HIPDNN_CHECK_FRONTEND_ERROR(detail::checkDims(name(), "O", *in(InputNames::O), dims.output(),
                                                      "(B, Hq, Sq, Dv) from Q and V"));
        HIPDNN_CHECK_FRONTEND_ERROR(
            detail::checkDims(name(), "DO", *in(InputNames::DO), dims.output(), "O's dims"));
        HIPDNN_CHECK_FRONTEND_ERROR(
            detail::inferOrCheckAttentionStatistics(name(), *in(InputNames::STATS), dims));
        HIPDNN_CHECK_FRONTEND_ERROR(detail::checkAttentionOptions(name(), attributes, dims));
        HIPDNN_CHECK_FRONTEND_ERROR(
            inferOutput(OutputNames::DQ, in(InputNames::Q)->get_dim(), InputNames::Q));
        HIPDNN_CHECK_FRONTEND_ERROR(
            inferOutput(OutputNames::DK, in(InputNames::K)->get_dim(), InputNames::K));
        HIPDNN_CHECK_FRONTEND_ERROR(
            inferOutput(OutputNames::DV, in(InputNames::V)->get_dim(), InputNames::V));
        return {};
    }

    flatbuffers::Offset<Schema> packAttributes(flatbuffers::FlatBufferBuilder& b, const UidMap& uids) const {
        fbs::SdpaBackwardAttributesBuilder builder(b);
        builder.add_q_tensor_uid(detail::uidOf(uids, in(InputNames::Q)));
        builder.add_k_tensor_uid(detail::uidOf(uids, in(InputNames::K)));
        builder.add_v_tensor_uid(detail::uidOf(uids, in(InputNames::V)));
        builder.add_o_tensor_uid(detail::uidOf(uids, in(InputNames::O)));
        builder.add_do_tensor_uid(detail::uidOf(uids, in(InputNames::DO)));
        builder.add_stats_tensor_uid(detail::uidOf(uids, in(InputNames::STATS)));
        builder.add_dq_tensor_uid(detail::uidOf(uids, out(OutputNames::DQ)));
        builder.add_dk_tensor_uid(detail::uidOf(uids, out(OutputNames::DK)));
        builder.add_dv_tensor_uid(detail::uidOf(uids, out(OutputNames::DV)));
        const auto addOptional = [&](void (fbs::SdpaBackwardAttributesBuilder::*add)(int64_t),
                                     const std::shared_ptr<TensorAttributes>& tensor) {
            if (tensor) {
                (builder.*add)(detail::uidOf(uids, tensor));
            }
        };
        addOptional(&fbs::SdpaBackwardAttributesBuilder::add_scale_tensor_uid, in(InputNames::ATTN_SCALE));
        addOptional(&fbs::SdpaBackwardAttributesBuilder::add_attn_mask_tensor_uid, in(InputNames::BIAS));
        addOptional(&fbs::SdpaBackwardAttributesBuilder::add_seq_len_q_tensor_uid, in(InputNames::SEQ_LEN_Q));
        addOptional(&fbs::SdpaBackwardAttributesBuilder::add_seq_len_kv_tensor_uid,
                    in(InputNames::SEQ_LEN_KV));
        addOptional(&fbs::SdpaBackwardAttributesBuilder::add_seed_tensor_uid, in(InputNames::SEED));
        addOptional(&fbs::SdpaBackwardAttributesBuilder::add_offset_tensor_uid, in(InputNames::OFFSET));
        builder.add_padding_mask(attributes.get_padding_mask());
        builder.add_causal_mask(attributes.get_causal_mask());
        builder.add_causal_mask_bottom_right(attributes.get_causal_mask_bottom_right());
        if (const auto probability = attributes.get_dropout_probability()) {
            builder.add_dropout_probability(*probability);
        }
        if (const auto scale = attributes.get_attn_scale_value()) {
            builder.add_attn_scale_value(*scale);
        }
        builder.add_diagonal_alignment(detail::toFbs(attributes.get_diagonal_alignment()));
        return builder.Finish();
    }

    static SdpaBackwardAttributes unpack(const Schema& source, const detail::TensorLookup& tensors) {
        SdpaBackwardAttributes result;
        result.set_padding_mask(source.padding_mask())
            .set_causal_mask(source.causal_mask())
            .set_causal_mask_bottom_right(source.causal_mask_bottom_right())
            .set_diagonal_alignment(detail::fromFbs(source.diagonal_alignment()));
        if (source.attn_scale_value().has_value()) {
            result.set_attn_scale(*source.attn_scale_value());
        }
        if (source.dropout_probability().has_value()) {
            result.set_dropout(*source.dropout_probability(), nullptr, nullptr);
        }
        result.inputs[InputNames::Q] = tensors(source.q_tensor_uid());
        result.inputs[InputNames::K] = tensors(source.k_tensor_uid());
        result.inputs[InputNames::V] = tensors(source.v_tensor_uid());
        result.inputs[InputNames::O] = tensors(source.o_tensor_uid());
        result.inputs[InputNames::DO] = tensors(source.do_tensor_uid());
        result.inputs[InputNames::STATS] = tensors(source.stats_tensor_uid());
        result.inputs[InputNames::ATTN_SCALE] = tensors(source.scale_tensor_uid());
        result.inputs[InputNames::BIAS] = tensors(source.attn_mask_tensor_uid());
        result.inputs[InputNames::SEQ_LEN_Q] = tensors(source.seq_len_q_tensor_uid());
        result.inputs[InputNames::SEQ_LEN_KV] = tensors(source.seq_len_kv_tensor_uid());
        result.inputs[InputNames::SEED] = tensors(source.seed_tensor_uid());
        result.inputs[InputNames::OFFSET] = tensors(source.offset_tensor_uid());
        result.outputs[OutputNames::DQ] = tensors(source.dq_tensor_uid());
        result.outputs[OutputNames::DK] = tensors(source.dk_tensor_uid());
        result.outputs[OutputNames::DV] = tensors(source.dv_tensor_uid());
        return result;
    }
};

}  // namespace hipdnn_frontend::graph
