// Scaled dot-product attention, forward and backward: oneDNN matmuls over tiles of queries and
// keys. Forward keeps the softmax online (running maximum and sum per row); backward recomputes
// the probabilities from the forward statistics. Memory grows with the tile sizes and Sq · D,
// never with Sq · Skv.
#pragma once

#include "FusionMatcher.hpp"
#include "PlanStep.hpp"

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include <oneapi/dnnl/dnnl.hpp>

#include <memory>

namespace hipdnn_onednn {

std::unique_ptr<PlanStep> buildSdpaStep(const dnnl::engine& engine,
                                        const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                        const Stage& stage);
std::unique_ptr<PlanStep> buildSdpaBackwardStep(const dnnl::engine& engine,
                                                const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                                const Stage& stage);

}  // namespace hipdnn_onednn
