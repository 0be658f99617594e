// Binary pointwise nodes as oneDNN binary primitives (or binary post-ops).
#pragma once

#include "FusionMatcher.hpp"
#include "PlanStep.hpp"

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

namespace hipdnn_onednn {

/// The oneDNN binary algorithm of a two-input pointwise mode; nullopt when oneDNN has none.
std::optional<dnnl::algorithm> binaryAlgorithmFor(fb::PointwiseMode mode);

/// True when swapping the operands does not change the result.
bool isCommutative(fb::PointwiseMode mode);

/// A descriptor for a binary operand of rank `rank`: the tensor itself, or a tensor of ones
/// when it is a single-element scalar of another rank (oneDNN needs equal ranks).
dnnl::memory::desc makeOperandDesc(const fb::TensorAttributes& tensor, size_t rank);

/// The stage's post-ops `first` to `last - 1` (clamped to the stage's count) as oneDNN post-ops,
/// without binding their operands. `rank` is the destination's rank.
dnnl::post_ops makePostOps(const hipdnn_flatbuffers_sdk::GraphWrapper& graph, const Stage& stage, size_t rank,
                           size_t first = 0, size_t last = SIZE_MAX);

/// Binds the binary operands of the stage's post-ops `first` to `last - 1` into `step`, as
/// makePostOps(graph, stage, rank, first, last) numbers them.
void bindPostOpOperands(const hipdnn_flatbuffers_sdk::GraphWrapper& graph, const Stage& stage, size_t rank,
                        PlanStep& step, PlanStep::Args& args, size_t first = 0, size_t last = SIZE_MAX);

/// Appends the stage's post-ops `first` to `last - 1` (all by default) to `postOps` and binds
/// every binary operand into `step` (DNNL_ARG_ATTR_MULTIPLE_POST_OP(i - first) | DNNL_ARG_SRC_1).
/// `rank` is the destination's rank.
void appendPostOps(const hipdnn_flatbuffers_sdk::GraphWrapper& graph, const Stage& stage, size_t rank,
                   dnnl::post_ops& postOps, PlanStep& step, PlanStep::Args& args, size_t first = 0,
                   size_t last = SIZE_MAX);

/// Runs the stage's post-ops from `first` (a binary one) on as a separate binary primitive, in
/// place over `result` (described by `resultDesc`, the stage's output): result = result op operand,
/// followed by the remaining post-ops fused into that primitive.
void appendPostOpsAsBinaryStep(const dnnl::engine& engine, const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                               const Stage& stage, size_t first, const dnnl::memory& result,
                               const dnnl::memory::desc& resultDesc, PlanStep& step);

std::unique_ptr<PlanStep> buildBinaryStep(const dnnl::engine& engine,
                                          const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                          const Stage& stage);

}  // namespace hipdnn_onednn
