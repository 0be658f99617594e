// Reductions over the dims where the output has extent 1.
#pragma once

#include "FusionMatcher.hpp"
#include "PlanStep.hpp"

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include <oneapi/dnnl/dnnl.hpp>

#include <memory>
#include <optional>

namespace hipdnn_onednn {

/// oneDNN reduction algorithm and p for a reduction mode; nullopt when oneDNN has none.
struct ReductionSpec {
    dnnl::algorithm algorithm = dnnl::algorithm::undef;
    float p = 0.0F;
};
std::optional<ReductionSpec> reductionSpecFor(fb::ReductionMode mode);

std::unique_ptr<PlanStep> buildReductionStep(const dnnl::engine& engine,
                                             const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                             const Stage& stage);

}  // namespace hipdnn_onednn
