// CUDA C++ source of CUDA_SDPA_ENGINE's kernels for one AttentionProgram, for NVRTC, the problem's
// sizes, strides and options as constants. Every product and sum is fp32; memory per head is
// O(S·D) (no score matrix is stored).
//
// Forward: a block per (batch, query head, tile of query rows) keeps its Q tile in shared memory and
// walks the key tiles its rows see, computing the scores, an online softmax (running max and sum
// per row, the accumulator rescaled when the max grows) and the weighted sum of V; it writes O and
// the log-sum-exp statistics. Backward: delta_i = dO_i · O_i per row into the workspace; a block per
// query tile recomputes P from Q, K and the statistics for dQ; a block per (batch, KV head, key
// tile) loops over the query heads of its group and every query tile for dK and dV (no atomics).
// Dropout regenerates the CPU reference's counter-hash mask in the kernels, bit for bit.
#pragma once

#include "AttentionProgram.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hipdnn_cuda_kernels {

inline constexpr const char* kSdpaForwardKernel = "hipdnn_sdpa_forward";
inline constexpr const char* kSdpaDeltaKernel = "hipdnn_sdpa_delta";
inline constexpr const char* kSdpaDqKernel = "hipdnn_sdpa_dq";
inline constexpr const char* kSdpaDkvKernel = "hipdnn_sdpa_dkv";
inline constexpr unsigned kSdpaBlockSize = 128;

/// One launch of `kernel` with `gridSize` blocks of kSdpaBlockSize threads. Every kernel takes the
/// program's operands in order, then the workspace.
struct AttentionLaunch {
    std::string kernel;
    unsigned gridSize = 1;
};

struct AttentionSource {
    std::string source;
    std::vector<std::string> kernelNames;
    std::vector<AttentionLaunch> launches;  // in order
    size_t workspaceBytes = 0;              // backward: one float (delta) per query row
    int tile = 0;                           // query and key rows per tile
};

/// Rows per tile: the largest power of two up to 32 whose tile of max(D, Dv) floats fits 2048
/// (so four row tiles and two score tiles, at most 42 KiB, fit the 48 KiB of static shared memory).
int attentionTile(int64_t headDim, int64_t valueDim);

/// The kernels keep weight (i, j) when the hash's top 53 bits are at least this, which is exactly
/// the CPU reference's dropoutUniform(seed, offset, index) >= probability.
uint64_t dropoutThreshold(double probability);

/// The source for sm_<computeCapability>, or nullopt with `reason` naming what it cannot launch.
std::optional<AttentionSource> generateAttentionSource(const AttentionProgram& program, int computeCapability,
                                                       std::string& reason);

}  // namespace hipdnn_cuda_kernels
