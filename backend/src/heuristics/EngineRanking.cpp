#include "heuristics/EngineRanking.hpp"

#include <algorithm>
#include <array>
#include <tuple>

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

namespace hipdnn_backend::heuristics {

std::vector<int64_t> rankEngines(const std::vector<std::vector<int64_t>>& applicableByPlugin,
                                 std::optional<int64_t> preferredEngineId,
                                 std::optional<int64_t> tunedEngineId,
                                 const std::map<int64_t, double>& estimatedSeconds) {
    using hipdnn_data_sdk::utilities::engineNameToId;
    static constexpr int64_t referenceEngineId = engineNameToId("CPU_REFERENCE_ENGINE");
    static constexpr std::array<int64_t, 2> fallbackEngineIds{engineNameToId("CUDA_GRAPH_ENGINE"),
                                                              engineNameToId("CUDA_SDPA_ENGINE")};
    std::vector<int64_t> ranked;
    for (const auto& engines : applicableByPlugin) {
        ranked.insert(ranked.end(), engines.begin(), engines.end());
    }
    auto rank = [&](int64_t id) {
        if (preferredEngineId && id == *preferredEngineId) {
            return 0;
        }
        if (tunedEngineId && id == *tunedEngineId) {
            return 1;
        }
        if (id == referenceEngineId) {
            return 4;
        }
        return std::find(fallbackEngineIds.begin(), fallbackEngineIds.end(), id) != fallbackEngineIds.end()
                   ? 3
                   : 2;
    };
    // Within a rank, engines with an estimate come first, fastest first.
    auto key = [&](int64_t id) {
        const auto estimate = estimatedSeconds.find(id);
        return std::tuple(rank(id), estimate == estimatedSeconds.end(),
                          estimate == estimatedSeconds.end() ? 0.0 : estimate->second);
    };
    std::stable_sort(ranked.begin(), ranked.end(), [&](int64_t a, int64_t b) { return key(a) < key(b); });
    return ranked;
}

}  // namespace hipdnn_backend::heuristics
