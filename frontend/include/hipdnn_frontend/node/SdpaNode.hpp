// Scaled dot-product attention forward: O and, when generating stats, STATS from Q, K and V.
#pragma once

#include "../attributes/SdpaAttributes.hpp"
#include "../detail/TensorLookup.hpp"
#include "AttentionShapes.hpp"
#include "INode.hpp"

namespace hipdnn_frontend::graph {

class SdpaNode : public NodeBase<SdpaNode, SdpaAttributes> {
public:
    static constexpr NodeType kType = NodeType::SDPA;
    using Schema = fbs::SdpaAttributes;
    using NodeBase::NodeBase;

    static std::string_view portName(InputNames port) {
        switch (port) {
            case InputNames::Q:
                return "Q";
            case InputNames::K:
                return "K";
            case InputNames::V:
                return "V";
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
    static std::string_view portName(OutputNames port) { return port == OutputNames::O ? "O" : "STATS"; }

    Error inferAndValidateNode() {
        for (auto port : {InputNames::Q, InputNames::K, InputNames::V}) {
            HIPDNN_CHECK_FRONTEND_ERROR(requireInput(port));
        }
        detail::AttentionDims dims;
        HIPDNN_CHECK_FRONTEND_ERROR(detail::checkAttentionInputs(
            name(), *in(InputNames::Q), *in(InputNames::K), *in(InputNames::V), dims));
        HIPDNN_CHECK_FRONTEND_ERROR(detail::checkAttentionOptions(name(), attributes, dims));
        HIPDNN_CHECK_FRONTEND_ERROR(inferOutput(OutputNames::O, dims.output(), InputNames::Q));
        if (attributes.get_generate_stats()) {
            HIPDNN_CHECK_FRONTEND_ERROR(requireOutput(OutputNames::STATS));
            HIPDNN_CHECK_FRONTEND_ERROR(
                detail::inferOrCheckAttentionStatistics(name(), *out(OutputNames::STATS), dims));
        } else {
            HIPDNN_RETURN_FRONTEND_ERROR_IF(
                out(OutputNames::STATS) != nullptr, ErrorCode::INVALID_VALUE,
                detail::nodePrefix(name()) + "a STATS output is connected but generate_stats is not set");
        }
        return {};
    }

    flatbuffers::Offset<Schema> packAttributes(flatbuffers::FlatBufferBuilder& b, const UidMap& uids) const {
        fbs::SdpaAttributesBuilder builder(b);
        builder.add_q_tensor_uid(detail::uidOf(uids, in(InputNames::Q)));
        builder.add_k_tensor_uid(detail::uidOf(uids, in(InputNames::K)));
        builder.add_v_tensor_uid(detail::uidOf(uids, in(InputNames::V)));
        builder.add_o_tensor_uid(detail::uidOf(uids, out(OutputNames::O)));
        const auto addOptional = [&](void (fbs::SdpaAttributesBuilder::*add)(int64_t),
                                     const std::shared_ptr<TensorAttributes>& tensor) {
            if (tensor) {
                (builder.*add)(detail::uidOf(uids, tensor));
            }
        };
        addOptional(&fbs::SdpaAttributesBuilder::add_attn_mask_tensor_uid, in(InputNames::BIAS));
        addOptional(&fbs::SdpaAttributesBuilder::add_scale_tensor_uid, in(InputNames::ATTN_SCALE));
        addOptional(&fbs::SdpaAttributesBuilder::add_seq_len_q_tensor_uid, in(InputNames::SEQ_LEN_Q));
        addOptional(&fbs::SdpaAttributesBuilder::add_seq_len_kv_tensor_uid, in(InputNames::SEQ_LEN_KV));
        addOptional(&fbs::SdpaAttributesBuilder::add_seed_tensor_uid, in(InputNames::SEED));
        addOptional(&fbs::SdpaAttributesBuilder::add_offset_tensor_uid, in(InputNames::OFFSET));
        addOptional(&fbs::SdpaAttributesBuilder::add_stats_tensor_uid, out(OutputNames::STATS));
        builder.add_generate_stats(attributes.get_generate_stats());
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

    static SdpaAttributes unpack(const Schema& source, const detail::TensorLookup& tensors) {
        SdpaAttributes result;
        result.set_generate_stats(source.generate_stats().has_value()
                                      ? *source.generate_stats()
                                      : source.stats_tensor_uid().has_value());
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
        result.inputs[InputNames::BIAS] = tensors(source.attn_mask_tensor_uid());
        result.inputs[InputNames::ATTN_SCALE] = tensors(source.scale_tensor_uid());
        result.inputs[InputNames::SEQ_LEN_Q] = tensors(source.seq_len_q_tensor_uid());
        result.inputs[InputNames::SEQ_LEN_KV] = tensors(source.seq_len_kv_tensor_uid());
        result.inputs[InputNames::SEED] = tensors(source.seed_tensor_uid());
        result.inputs[InputNames::OFFSET] = tensors(source.offset_tensor_uid());
        result.outputs[OutputNames::O] = tensors(source.o_tensor_uid());
        result.outputs[OutputNames::STATS] = tensors(source.stats_tensor_uid());
        return result;
    }
};

}  // namespace hipdnn_frontend::graph
