// Unary pointwise nodes as oneDNN eltwise primitives (or eltwise post-ops).
#pragma once

#include "FusionMatcher.hpp"
#include "PlanStep.hpp"

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include <oneapi/dnnl/dnnl.hpp>

#include <memory>
#include <optional>
#include <string>

namespace hipdnn_onednn {

/// A unary pointwise mode in oneDNN terms: y = algorithm(x; alpha, beta).
struct EltwiseSpec {
    dnnl::algorithm algorithm = dnnl::algorithm::undef;
    float alpha = 0.0F;
    float beta = 0.0F;
};

/// The oneDNN eltwise algorithm computing a unary pointwise node; nullopt with `why` set when
/// oneDNN has none (or the node's parameters have no equivalent).
std::optional<EltwiseSpec> eltwiseSpecFor(const fb::PointwiseAttributes& attributes, std::string& why);

/// True for a RELU_FWD without clip or slope parameters (what batch norm's fuse_norm_relu does).
bool isPlainRelu(const fb::PointwiseAttributes& attributes);

std::unique_ptr<PlanStep> buildEltwiseStep(const dnnl::engine& engine,
                                           const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                           const Stage& stage);

}  // namespace hipdnn_onednn
