// The order in which ENGINEHEUR returns applicable engines (documented in backend/README.md):
//   1. the preferred engine (OPERATIONGRAPH PREFERRED_ENGINE_ID_EXT, else the graph's
//      preferred_engine_id), when it applies;
//   2. the engine the tuning database measured fastest for the graph on this device (a record
//      of the loaded plugin's version; see tuning/TuningLookup.hpp), when it applies;
//   3. every other engine, plugin by plugin in load order (sorted canonical path), each plugin's
//      engines in the order the plugin answered them;
//   4. the GPU fallback engines, which run what the fused engines decline, slower where both
//      run: CUDA_GRAPH_ENGINE (node by node) and CUDA_SDPA_ENGINE (portable attention kernels,
//      slower than cuDNN's fused flash attention wherever that runs);
//   5. CPU_REFERENCE_ENGINE, the slow exact oracle, last.
// The order is stable: the same plugins and graph always give the same ranking.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace hipdnn_backend::heuristics {

// `applicableByPlugin`: per plugin in load order, the engine ids it found applicable.
std::vector<int64_t> rankEngines(const std::vector<std::vector<int64_t>>& applicableByPlugin,
                                 std::optional<int64_t> preferredEngineId,
                                 std::optional<int64_t> tunedEngineId);

}  // namespace hipdnn_backend::heuristics
