// Layer normalization over every dim but the first.
#pragma once

#include "FusionMatcher.hpp"
#include "PlanStep.hpp"

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include <oneapi/dnnl/dnnl.hpp>

#include <memory>

namespace hipdnn_onednn {

std::unique_ptr<PlanStep> buildLayernormStep(const dnnl::engine& engine,
                                             const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                             const Stage& stage);

}  // namespace hipdnn_onednn
