// The estimated times of this plugin's fused engines, by which the backend ranks them against
// other plugins' engines: the graph's roofline on the device's theoretical ceilings, scaled by the
// fraction of them each engine reached on such graphs on an H200 (docs/performance.md, sections
// cuda_kernels). Graphs of a kind an engine was not measured on get no estimate.
#pragma once

#include <cstdint>
#include <optional>

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>
#include <hipdnn_plugin_sdk/Roofline.hpp>

namespace hipdnn_cuda_kernels {

/// The efficiency of engine `engineId` of this plugin on graphs of `graphClass`; nothing for an
/// engine or a kind of graph without a measurement.
std::optional<hipdnn_plugin_sdk::EngineEfficiency> measuredEfficiency(
    int64_t engineId, const hipdnn_plugin_sdk::GraphClass& graphClass);

/// The roofline estimate of `graph` with measuredEfficiency() on `ceilings`.
std::optional<double> estimateEngineSeconds(int64_t engineId,
                                            const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                            const hipdnn_plugin_sdk::DeviceCeilings& ceilings);

}  // namespace hipdnn_cuda_kernels
