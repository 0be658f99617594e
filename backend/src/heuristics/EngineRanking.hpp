// The order in which ENGINEHEUR returns applicable engines (documented in backend/README.md):
//   1. the preferred engine (OPERATIONGRAPH PREFERRED_ENGINE_ID_EXT, else the graph's
//      preferred_engine_id), when it applies;
//   2. the engine the tuning database measured fastest for the graph on this device (a record
//      of the loaded plugin's version; see tuning/TuningLookup.hpp), when it applies;
//   3. every other engine: first those that estimate their time for the graph, fastest estimate
//      first (hipdnnEnginePluginEstimateExecutionTime_ext: a roofline of the graph's bytes and
//      flops and the engine's efficiency), then those without an estimate, plugin by plugin in
//      load order (sorted canonical path), each plugin's engines in the order the plugin answered
//      them;
//   4. the GPU fallback engines, which run what the fused engines decline, slower where both
//      run: CUDA_GRAPH_ENGINE (node by node) and CUDA_SDPA_ENGINE (portable attention kernels,
//      slower than cuDNN's fused flash attention wherever that runs);
//   5. CPU_REFERENCE_ENGINE, the slow exact oracle, last.
// The order is stable: the same plugins, estimates and graph always give the same ranking (equal
// estimates keep the static order).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace hipdnn_backend::heuristics {

// `applicableByPlugin`: per plugin in load order, the engine ids it found applicable.
// `estimatedSeconds`: the engines that gave an estimate, by id.
std::vector<int64_t> rankEngines(const std::vector<std::vector<int64_t>>& applicableByPlugin,
                                 std::optional<int64_t> preferredEngineId,
                                 std::optional<int64_t> tunedEngineId,
                                 const std::map<int64_t, double>& estimatedSeconds = {});

}  // namespace hipdnn_backend::heuristics
