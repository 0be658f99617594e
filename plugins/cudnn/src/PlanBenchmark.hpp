// global.benchmarking: times the candidate execution plans of one graph and picks the fastest.
// Each plan runs on scratch device buffers shaped like the graph's tensors, so timing never reads
// or writes the caller's data (batch norm running statistics stay untouched), and it happens while
// the plan is chosen, before any workspace size is reported.
#pragma once

#include "CudnnEngineConfigs.hpp"
#include "CudnnGraphSpec.hpp"

#include <memory>
#include <vector>

namespace hipdnn_cudnn_plugin {

/// Milliseconds per execute of each plan (median of a few timed batches after a warm-up run;
/// infinity for a plan whose execute fails). Runs on the handle's stream and waits for it.
/// Throws PluginError(INTERNAL_ERROR) when scratch memory cannot be allocated.
std::vector<double> timePlans(cudnnHandle_t cudnn, const CudnnGraphSpec& spec,
                              const std::vector<std::shared_ptr<CudnnPlan>>& plans);

}  // namespace hipdnn_cudnn_plugin
