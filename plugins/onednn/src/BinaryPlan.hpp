// Binary pointwise nodes as oneDNN binary primitives (or binary post-ops).
#pragma once

#include "FusionMatcher.hpp"
#include "PlanStep.hpp"

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include <oneapi/dnnl/dnnl.hpp>

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

/// Appends the stage's post-ops to `postOps` and binds every binary operand into `step`
/// (DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | DNNL_ARG_SRC_1). `rank` is the destination's rank.
void appendPostOps(const hipdnn_flatbuffers_sdk::GraphWrapper& graph, const Stage& stage, size_t rank,
                   dnnl::post_ops& postOps, PlanStep& step, PlanStep::Args& args);

std::unique_ptr<PlanStep> buildBinaryStep(const dnnl::engine& engine,
                                          const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                          const Stage& stage);

}  // namespace hipdnn_onednn
