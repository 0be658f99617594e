// Convolution forward (with bias and post-ops), backward data and backward weights.
#pragma once

#include "FusionMatcher.hpp"
#include "PlanStep.hpp"

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include <oneapi/dnnl/dnnl.hpp>

#include <memory>

namespace hipdnn_onednn {

std::unique_ptr<PlanStep> buildConvFwdStep(const dnnl::engine& engine,
                                           const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                           const Stage& stage);
std::unique_ptr<PlanStep> buildConvBwdDataStep(const dnnl::engine& engine,
                                               const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                               const Stage& stage);
std::unique_ptr<PlanStep> buildConvBwdWeightsStep(const dnnl::engine& engine,
                                                  const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                                  const Stage& stage);

/// The weights descriptor oneDNN expects for `groups` groups: (K, C/g, spatial...) unchanged for
/// one group, else (g, K/g, C/g, spatial...) over the same memory.
dnnl::memory::desc makeGroupedWeightsDesc(const std::vector<int64_t>& dims,
                                          const std::vector<int64_t>& strides, int64_t groups,
                                          dnnl::memory::data_type type);

}  // namespace hipdnn_onednn
