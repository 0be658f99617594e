// Batch normalization: inference (saved inverse variance or variance + epsilon), training with
// running statistics, backward. Optionally followed by a fused ReLU.
#pragma once

#include "FusionMatcher.hpp"
#include "PlanStep.hpp"

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include <oneapi/dnnl/dnnl.hpp>

#include <memory>
#include <optional>

namespace hipdnn_onednn {

std::unique_ptr<PlanStep> buildBatchnormInferenceStep(const dnnl::engine& engine,
                                                      const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                                      const Stage& stage);
std::unique_ptr<PlanStep> buildBatchnormTrainingStep(const dnnl::engine& engine,
                                                     const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                                     const Stage& stage);
std::unique_ptr<PlanStep> buildBatchnormBackwardStep(const dnnl::engine& engine,
                                                     const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                                     const Stage& stage);

/// Training updates running variances with the unbiased batch variance; oneDNN reports the
/// biased one (divided by n), so it is rescaled by n / (n - 1) (n = elements per channel).
float unbiasedVariance(float biasedVariance, int64_t elementsPerChannel);

}  // namespace hipdnn_onednn
