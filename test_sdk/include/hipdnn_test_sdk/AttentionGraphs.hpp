// Attention test graphs shared by every engine's attention tests: a case (shape, layout, masks,
// type), random cases drawn over the variants engines must handle, the forward and backward
// graphs of a case, and the tolerance each direction is checked with.
#pragma once

#include <hipdnn_test_sdk/GraphBuilder.hpp>
#include <hipdnn_test_sdk/Tolerances.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace hipdnn_test_sdk {

struct AttentionCase {
    int64_t batch = 1, heads = 1, kvHeads = 1, seqQ = 1, seqKv = 1, dim = 8, valueDim = 8;
    bool bshd = false;
    bool causal = false;
    bool bottomRight = false;
    bool bias = false;
    bool stats = false;
    float scale = 1.0F;
    /// The scale as a FLOAT tensor in memory (uid 15, dims 1x1x1x1) instead of attn_scale_value;
    /// the test fills it with `scale`.
    bool scaleTensor = false;
    /// A padding mask: INT32 seq_len_q (uid 11) and seq_len_kv (uid 12), dims (B, 1, 1, 1), whose
    /// lengths the test fills.
    bool padding = false;
    /// > 0: dropout with this probability, INT64 seed (uid 13) and offset (uid 14) filled by the test.
    float dropout = 0.0F;
    hipdnn_flatbuffers_sdk::data_objects::DataType type =
        hipdnn_flatbuffers_sdk::data_objects::DataType::FLOAT;

    /// "B1 H4/2 Sq17 Skv64 D16/16 bhsd causal-tl bias stats BFLOAT16" (with "scale-tensor", "padding"
    /// and "dropout0.1" where set).
    std::string describe() const;
};

/// (B, H, S, D) strides, S before H in memory for BSHD.
std::vector<int64_t> attentionStrides(int64_t heads, int64_t seq, int64_t dim, bool bshd);

/// What random cases draw from: sequence lengths and head dims (the rest — batch, grouped heads,
/// layouts, masks, bias, stats — always varies).
struct AttentionCaseSpace {
    std::vector<int64_t> seqQ{1, 3, 17, 64, 260};
    std::vector<int64_t> seqKv{1, 5, 64, 130, 520};
    std::vector<int64_t> dims{8, 16, 40};
};
AttentionCase randomAttentionCase(std::mt19937& random, const AttentionCaseSpace& space = {});

/// The forward graph: q 1, k 2, v 3, o 4, stats 5 (when the case has them), bias 6.
GraphBuilder attentionGraph(const AttentionCase& c);
/// The backward graph: q 1, k 2, v 3, o 4, dO 5, stats 6, dq 7, dk 8, dv 9, bias 10.
GraphBuilder attentionBackwardGraph(const AttentionCase& c);

/// attentionTolerance for the case's forward (reductions over Skv) and backward (over
/// max(Skv, Sq * Hq / Hk)) passes.
Tolerance attentionForwardTolerance(const AttentionCase& c);
Tolerance attentionBackwardTolerance(const AttentionCase& c);

}  // namespace hipdnn_test_sdk
