// Attributes of scaled dot-product attention, forward and backward:
//   O = softmax(scale * Q K^T + bias + mask) V
// with Q (B, Hq, Sq, D), K (B, Hk, Skv, D), V (B, Hk, Skv, Dv) and O (B, Hq, Sq, Dv); Hk divides
// Hq (grouped-query attention). The layout (BHSD or BSHD) is carried by the strides only. STATS
// (B, Hq, Sq, 1, FLOAT) is each query row's log-sum-exp, written when stats are generated and
// read back by the backward pass.
#pragma once

#include <optional>

#include "AttributesBase.hpp"

namespace hipdnn_frontend::graph {

namespace sdpa_ports {
enum class InputNames { Q, K, V, ATTN_SCALE, BIAS, SEQ_LEN_Q, SEQ_LEN_KV, SEED, OFFSET };
enum class OutputNames { O, STATS };
}  // namespace sdpa_ports

namespace sdpa_backward_ports {
enum class InputNames { Q, K, V, O, DO, STATS, ATTN_SCALE, BIAS, SEQ_LEN_Q, SEQ_LEN_KV, SEED, OFFSET };
enum class OutputNames { DQ, DK, DV };
}  // namespace sdpa_backward_ports

// The options forward and backward share: scale, masks, bias, padding and dropout. Their ports
// have the same names in both InputNames enums.
template <typename Derived, typename InputNamesT, typename OutputNamesT>
class SdpaOptions : public AttributesBase<Derived, InputNamesT, OutputNamesT> {
    using Base = AttributesBase<Derived, InputNamesT, OutputNamesT>;

public:
    using typename Base::InputNames;

    // The factor of Q K^T, as a value in the graph or a one-element tensor. Neither set means no
    // scaling (a factor of 1), as in cuDNN: pass 1 / sqrt(D) for the usual attention.
    Derived& set_attn_scale(float value) {
        attnScaleValue_ = value;
        return self();
    }
    Derived& set_attn_scale(std::shared_ptr<TensorAttributes> scale) {
        this->inputs[InputNames::ATTN_SCALE] = std::move(scale);
        return self();
    }
    // Query i sees key j only when j <= i, or j <= i + Skv - Sq with BOTTOM_RIGHT alignment.
    Derived& set_causal_mask(bool value) {
        causalMask_ = value;
        return self();
    }
    Derived& set_causal_mask_bottom_right(bool value) {
        causalMaskBottomRight_ = value;
        return self();
    }
    Derived& set_diagonal_alignment(DiagonalAlignment alignment) {
        diagonalAlignment_ = alignment;
        return self();
    }
    // Per-batch valid lengths, (B, 1, 1, 1) INT32 or INT64: rows and columns past them are masked.
    Derived& set_padding_mask(bool value) {
        paddingMask_ = value;
        return self();
    }
    Derived& set_seq_len_q(std::shared_ptr<TensorAttributes> lengths) {
        this->inputs[InputNames::SEQ_LEN_Q] = std::move(lengths);
        return self();
    }
    Derived& set_seq_len_kv(std::shared_ptr<TensorAttributes> lengths) {
        this->inputs[InputNames::SEQ_LEN_KV] = std::move(lengths);
        return self();
    }
    // Added to the scaled scores; each dim equals (B, Hq, Sq, Skv)'s or is 1.
    Derived& set_bias(std::shared_ptr<TensorAttributes> bias) {
        this->inputs[InputNames::BIAS] = std::move(bias);
        return self();
    }
    // Drops each attention weight with `probability` and scales the kept ones by 1 / (1 - p); the
    // one-element integer seed and offset choose the random numbers.
    Derived& set_dropout(float probability, std::shared_ptr<TensorAttributes> seed,
                         std::shared_ptr<TensorAttributes> offset) {
        dropoutProbability_ = probability;
        this->inputs[InputNames::SEED] = std::move(seed);
        this->inputs[InputNames::OFFSET] = std::move(offset);
        return self();
    }

    [[nodiscard]] std::optional<float> get_attn_scale_value() const { return attnScaleValue_; }
    [[nodiscard]] bool get_causal_mask() const { return causalMask_; }
    [[nodiscard]] bool get_causal_mask_bottom_right() const { return causalMaskBottomRight_; }
    [[nodiscard]] DiagonalAlignment get_diagonal_alignment() const { return diagonalAlignment_; }
    [[nodiscard]] bool get_padding_mask() const { return paddingMask_; }
    [[nodiscard]] std::optional<float> get_dropout_probability() const { return dropoutProbability_; }

private:
    Derived& self() { return static_cast<Derived&>(*this); }

    std::optional<float> attnScaleValue_;
    bool causalMask_ = false;
    bool causalMaskBottomRight_ = false;
    DiagonalAlignment diagonalAlignment_ = DiagonalAlignment::TOP_LEFT;
    bool paddingMask_ = false;
    std::optional<float> dropoutProbability_;
};

class SdpaAttributes : public SdpaOptions<SdpaAttributes, sdpa_ports::InputNames, sdpa_ports::OutputNames> {
public:
    // Whether STATS is written (training); inference is the opposite.
    SdpaAttributes& set_generate_stats(bool value) {
        generateStats_ = value;
        return *this;
    }
    SdpaAttributes& set_is_inference(bool value) { return set_generate_stats(!value); }
    [[nodiscard]] bool get_generate_stats() const { return generateStats_; }
    [[nodiscard]] bool get_is_inference() const { return !generateStats_; }

private:
    bool generateStats_ = false;
};

class SdpaBackwardAttributes : public SdpaOptions<SdpaBackwardAttributes, sdpa_backward_ports::InputNames,
                                                  sdpa_backward_ports::OutputNames> {};

using SDPA_attributes = SdpaAttributes;
using SDPA_backward_attributes = SdpaBackwardAttributes;

}  // namespace hipdnn_frontend::graph
