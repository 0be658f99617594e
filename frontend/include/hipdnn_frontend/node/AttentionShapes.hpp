// Shapes and option checks shared by attention forward and backward.
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "../detail/Validation.hpp"

namespace hipdnn_frontend::detail {

// Q (B, Hq, Sq, D), K (B, Hk, Skv, D), V (B, Hk, Skv, Dv).
struct AttentionDims {
    int64_t batch = 0, queryHeads = 0, kvHeads = 0, seqQ = 0, seqKv = 0, headDim = 0, valueDim = 0;

    [[nodiscard]] std::vector<int64_t> output() const { return {batch, queryHeads, seqQ, valueDim}; }
    [[nodiscard]] std::vector<int64_t> statistics() const { return {batch, queryHeads, seqQ, 1}; }
    [[nodiscard]] std::vector<int64_t> scores() const { return {batch, queryHeads, seqQ, seqKv}; }
};

inline Error requireAttentionRank(std::string_view node, std::string_view port,
                                  const TensorAttributes& tensor) {
    HIPDNN_RETURN_FRONTEND_ERROR_IF(tensor.get_dim().size() != 4, ErrorCode::INVALID_VALUE,
                                    nodePrefix(node) + "tensor " + describeTensor(port, tensor) +
                                        " has dims " + formatDims(tensor.get_dim()) +
                                        "; attention tensors have rank 4 (B, H, S, D)");
    return {};
}

inline Error checkAttentionInputs(std::string_view node, const TensorAttributes& q, const TensorAttributes& k,
                                  const TensorAttributes& v, AttentionDims& dims) {
    HIPDNN_CHECK_FRONTEND_ERROR(requireAttentionRank(node, "Q", q));
    HIPDNN_CHECK_FRONTEND_ERROR(requireAttentionRank(node, "K", k));
    HIPDNN_CHECK_FRONTEND_ERROR(requireAttentionRank(node, "V", v));
    const auto& qDims = q.get_dim();
    const auto& kDims = k.get_dim();
    const auto& vDims = v.get_dim();
    dims = {qDims[0], qDims[1], kDims[1], qDims[2], kDims[2], qDims[3], vDims[3]};
    HIPDNN_RETURN_FRONTEND_ERROR_IF(kDims[0] != dims.batch || kDims[3] != dims.headDim,
                                    ErrorCode::INVALID_VALUE,
                                    nodePrefix(node) + "tensor " + describeTensor("K", k) + " has dims " +
                                        formatDims(kDims) + " but its batch and head dim must be Q's " +
                                        std::to_string(dims.batch) + " and " + std::to_string(dims.headDim));
    HIPDNN_RETURN_FRONTEND_ERROR_IF(
        dims.kvHeads <= 0 || dims.queryHeads % dims.kvHeads != 0, ErrorCode::INVALID_VALUE,
        nodePrefix(node) + "tensor " + describeTensor("K", k) + " has " + std::to_string(dims.kvHeads) +
            " heads, which do not divide Q's " + std::to_string(dims.queryHeads));
    HIPDNN_RETURN_FRONTEND_ERROR_IF(
        vDims[0] != dims.batch || vDims[1] != dims.kvHeads || vDims[2] != dims.seqKv,
        ErrorCode::INVALID_VALUE,
        nodePrefix(node) + "tensor " + describeTensor("V", v) + " has dims " + formatDims(vDims) +
            " but (B, H, S) must be K's (" + std::to_string(dims.batch) + ", " +
            std::to_string(dims.kvHeads) + ", " + std::to_string(dims.seqKv) + ")");
    return {};
}

inline Error requireIntegerType(std::string_view node, std::string_view port,
                                const TensorAttributes& tensor) {
    const DataType type = tensor.get_data_type();
    HIPDNN_RETURN_FRONTEND_ERROR_IF(type != DataType::INT32 && type != DataType::INT64,
                                    ErrorCode::INVALID_VALUE,
                                    nodePrefix(node) + "tensor " + describeTensor(port, tensor) +
                                        " has data type " + to_string(type) + "; it must be INT32 or INT64");
    return {};
}

// Scale, causal mask, bias, padding and dropout, the same for forward and backward.
template <typename Attributes>
Error checkAttentionOptions(std::string_view node, const Attributes& attributes, const AttentionDims& dims) {
    using In = typename Attributes::InputNames;
    HIPDNN_RETURN_FRONTEND_ERROR_IF(
        attributes.get_causal_mask() && attributes.get_causal_mask_bottom_right(), ErrorCode::INVALID_VALUE,
        nodePrefix(node) + "causal_mask and causal_mask_bottom_right are both set; set one");

    const auto scale = attributes.input(In::ATTN_SCALE);
    const auto scaleValue = attributes.get_attn_scale_value();
    HIPDNN_RETURN_FRONTEND_ERROR_IF(scale && scaleValue, ErrorCode::INVALID_VALUE,
                                    nodePrefix(node) + "attn_scale is set both as a value (" +
                                        std::to_string(*scaleValue) + ") and as a tensor; set one");
    HIPDNN_RETURN_FRONTEND_ERROR_IF(
        scaleValue && !std::isfinite(*scaleValue), ErrorCode::INVALID_VALUE,
        nodePrefix(node) + "attn_scale " + std::to_string(*scaleValue) + " is not finite");
    if (scale) {
        HIPDNN_CHECK_FRONTEND_ERROR(requireScalar(node, "ATTN_SCALE", scale));
    }

    if (const auto bias = attributes.input(In::BIAS)) {
        HIPDNN_CHECK_FRONTEND_ERROR(requireDims(node, "BIAS", bias));
        HIPDNN_CHECK_FRONTEND_ERROR(requireAttentionRank(node, "BIAS", *bias));
        HIPDNN_RETURN_FRONTEND_ERROR_IF(
            !hipdnn_data_sdk::utilities::broadcastsTo(bias->get_dim(), dims.scores()),
            ErrorCode::INVALID_VALUE,
            nodePrefix(node) + "tensor " + describeTensor("BIAS", *bias) + " has dims " +
                formatDims(bias->get_dim()) + ", which do not broadcast to the scores " +
                formatDims(dims.scores()));
    }

    const auto seqLenQ = attributes.input(In::SEQ_LEN_Q);
    const auto seqLenKv = attributes.input(In::SEQ_LEN_KV);
    if (attributes.get_padding_mask()) {
        const std::vector<int64_t> perBatch{dims.batch, 1, 1, 1};
        HIPDNN_CHECK_FRONTEND_ERROR(requireDims(node, "SEQ_LEN_Q", seqLenQ));
        HIPDNN_CHECK_FRONTEND_ERROR(requireDims(node, "SEQ_LEN_KV", seqLenKv));
        HIPDNN_CHECK_FRONTEND_ERROR(checkDims(node, "SEQ_LEN_Q", *seqLenQ, perBatch, "one length per batch"));
        HIPDNN_CHECK_FRONTEND_ERROR(
            checkDims(node, "SEQ_LEN_KV", *seqLenKv, perBatch, "one length per batch"));
        HIPDNN_CHECK_FRONTEND_ERROR(requireIntegerType(node, "SEQ_LEN_Q", *seqLenQ));
        HIPDNN_CHECK_FRONTEND_ERROR(requireIntegerType(node, "SEQ_LEN_KV", *seqLenKv));
    } else {
        HIPDNN_RETURN_FRONTEND_ERROR_IF(
            seqLenQ || seqLenKv, ErrorCode::INVALID_VALUE,
            nodePrefix(node) + "sequence lengths are set but the padding mask is not");
    }

    const auto probability = attributes.get_dropout_probability();
    HIPDNN_RETURN_FRONTEND_ERROR_IF(
        probability && !(*probability >= 0.0F && *probability < 1.0F), ErrorCode::INVALID_VALUE,
        nodePrefix(node) + "dropout probability " + std::to_string(*probability) + " is outside [0, 1)");
    const auto seed = attributes.input(In::SEED);
    const auto offset = attributes.input(In::OFFSET);
    if (probability && *probability > 0.0F) {
        HIPDNN_CHECK_FRONTEND_ERROR(requireScalar(node, "SEED", seed));
        HIPDNN_CHECK_FRONTEND_ERROR(requireScalar(node, "OFFSET", offset));
        HIPDNN_CHECK_FRONTEND_ERROR(requireIntegerType(node, "SEED", *seed));
        HIPDNN_CHECK_FRONTEND_ERROR(requireIntegerType(node, "OFFSET", *offset));
    } else {
        HIPDNN_RETURN_FRONTEND_ERROR_IF(
            seed || offset, ErrorCode::INVALID_VALUE,
            nodePrefix(node) +
                "dropout seed or offset is set but the dropout probability is not "
                "above 0");
    }
    return {};
}

// Stats: (B, Hq, Sq, 1) FLOAT; an output missing dims, type or strides gets them (packed).
inline Error inferOrCheckAttentionStatistics(std::string_view node, TensorAttributes& stats,
                                             const AttentionDims& dims) {
    HIPDNN_CHECK_FRONTEND_ERROR(inferOrCheckDims(node, "STATS", stats, dims.statistics()));
    if (stats.get_data_type() == DataType::NOT_SET) {
        stats.set_data_type(DataType::FLOAT);
    }
    HIPDNN_RETURN_FRONTEND_ERROR_IF(stats.get_data_type() != DataType::FLOAT, ErrorCode::INVALID_VALUE,
                                    nodePrefix(node) + "tensor " + describeTensor("STATS", stats) +
                                        " has data type " + to_string(stats.get_data_type()) +
                                        "; attention statistics are FLOAT");
    inferStrides(stats, nullptr);
    return {};
}

}  // namespace hipdnn_frontend::detail
