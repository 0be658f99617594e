#pragma once

#include <hipdnn_test_sdk/references/TensorView.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace hipdnn_test_sdk::references {

// Scaled dot-product attention. q (B, Hq, Sq, D), k (B, Hk, Skv, D), v (B, Hk, Skv, Dv),
// o (B, Hq, Sq, Dv); query head h reads KV head h / (Hq / Hk). Any strides (BHSD, BSHD, ...).
// Scores s[i][j] = scale * q_i . k_j + bias[i][j] over the keys query i sees, softmax over them,
// o_i = sum_j p[i][j] v_j. Everything is accumulated in double and rounded once on store.
//
// Key j is visible from query i when j < seqLenKv[b] (with padding), and with a causal mask when
// j <= i (top-left) or j <= i + Skv' - Sq' (bottom-right, Skv' and Sq' the batch's valid lengths).
// Scores of -inf (from the bias) count as masked. A row that sees no key — a padded query row
// (i >= seqLenQ[b]) or a fully masked one — writes o = 0 and stats = +inf, so that a consumer's
// exp(s - stats) is 0 and the backward pass gives it zero gradients; no NaN is ever produced.
// Stats (B, Hq, Sq, 1) are each row's log-sum-exp of its scaled, masked scores (natural log).
//
// Dropout drops weight p[i][j] when dropoutUniform(seed, offset, index) < probability and scales
// the kept ones by 1 / (1 - probability); index is the element's row-major position in
// (B, Hq, Sq, Skv). The backward pass regenerates the same mask from the same seed and offset.
// Other engines draw other random numbers: compare dropout results statistically or through
// forward/backward consistency, never elementwise across engines.
// Instantiated for T in {float, half, bfloat16}.
struct AttentionParams {
    double scale = 1.0;
    bool causal = false;
    bool causalBottomRight = false;
    // Valid lengths per batch (padding); absent means every row and column is valid.
    std::optional<std::vector<int64_t>> seqLenQ;
    std::optional<std::vector<int64_t>> seqLenKv;
    double dropoutProbability = 0.0;
    uint64_t dropoutSeed = 0;
    uint64_t dropoutOffset = 0;
};

// A uniform number in [0, 1) from a counter-based hash (splitmix64's finalizer) of the seed and
// offset + index: x = seed + 0x9E3779B97F4A7C15 * (offset + index + 1), mixed, top 53 bits / 2^53.
double dropoutUniform(uint64_t seed, uint64_t offset, uint64_t index);

// bias, when given, has each dim equal to (B, Hq, Sq, Skv)'s or 1. stats is written when given.
template <class T>
void sdpaForward(const AttentionParams& params, const TensorView<const T>& q, const TensorView<const T>& k,
                 const TensorView<const T>& v, const std::optional<TensorView<const float>>& bias,
                 const TensorView<T>& o, const std::optional<TensorView<float>>& stats);

// dq, dk, dv from the forward pass's o, its stats and the output gradient dO (o's dims).
template <class T>
void sdpaBackward(const AttentionParams& params, const TensorView<const T>& q, const TensorView<const T>& k,
                  const TensorView<const T>& v, const TensorView<const T>& o, const TensorView<const T>& dO,
                  const TensorView<const float>& stats, const std::optional<TensorView<const float>>& bias,
                  const TensorView<T>& dq, const TensorView<T>& dk, const TensorView<T>& dv);

}  // namespace hipdnn_test_sdk::references
