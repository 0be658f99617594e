// CUDNN_ENGINE's estimated times, by which the backend ranks it against other plugins' engines:
// the graph's roofline on the device's theoretical ceilings, scaled by the fraction of them cuDNN's
// kernels reached on such graphs on an H200 (docs/performance.md). Graphs of a kind not measured
// get no estimate.
#pragma once

#include <optional>

#include <hipdnn_plugin_sdk/Roofline.hpp>

namespace hipdnn_cudnn_plugin {

/// The efficiency of cuDNN's kernels on graphs of `graphClass`; nothing without a measurement.
std::optional<hipdnn_plugin_sdk::EngineEfficiency> measuredEfficiency(
    const hipdnn_plugin_sdk::GraphClass& graphClass);

}  // namespace hipdnn_cudnn_plugin
