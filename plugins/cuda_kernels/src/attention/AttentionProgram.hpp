// A graph of one attention node (forward or backward) as CUDA_SDPA_ENGINE's kernels see it: the
// problem's sizes, every tensor in memory with its element type and (B, H, S, D) strides, where the
// scale, sequence lengths and dropout seed / offset come from (a constant of the source or one
// element in memory), the causal alignment and the dropout probability.
#pragma once

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hipdnn_cuda_kernels {

enum class AttentionDirection { Forward, Backward };

/// A tensor the kernels read or write: one kernel parameter, in AttentionProgram::operands order.
struct AttentionOperand {
    /// The kernel's name for it: q, k, v, o, stats, bias, dO, dq, dk, dv, scale, seq_len_q,
    /// seq_len_kv, seed, offset.
    std::string name;
    int64_t uid = 0;
    hipdnn_flatbuffers_sdk::data_objects::DataType type =
        hipdnn_flatbuffers_sdk::data_objects::DataType::FLOAT;
    /// Strides of its (B, H, S, D) dims, 0 where a dim of extent 1 broadcasts (the bias); a
    /// sequence length's batch stride is strides[0].
    std::array<int64_t, 4> strides{};
};

/// A number the kernels read once: a constant of the source (a pass-by-value tensor or an
/// attribute), else element 0 (per batch for sequence lengths) of the operand named `operand`.
struct AttentionScalar {
    std::optional<double> constant;  // the scale
    std::optional<int64_t> integer;  // sequence lengths, seed, offset: exact
    std::string operand;
};

struct AttentionProgram {
    AttentionDirection direction = AttentionDirection::Forward;
    int64_t batch = 0, queryHeads = 0, kvHeads = 0, seqQ = 0, seqKv = 0, headDim = 0, valueDim = 0;
    std::vector<AttentionOperand> operands;
    AttentionScalar scale;  // 1 without a scale tensor or attn_scale_value
    bool causal = false;
    bool bottomRight = false;  // the causal diagonal ends at the last valid key of the last valid query
    std::optional<AttentionScalar> seqLenQ, seqLenKv;
    double dropoutProbability = 0;  // > 0: seed and offset are set
    std::optional<AttentionScalar> seed, offset;

    /// The operand called `name`, or null.
    const AttentionOperand* operand(const std::string& name) const;
};

/// The program of `graph`, or nullopt with `reason` naming the node, tensor or attribute (and its
/// value) that the engine does not run.
std::optional<AttentionProgram> analyzeAttentionGraph(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                                      std::string& reason);

}  // namespace hipdnn_cuda_kernels
