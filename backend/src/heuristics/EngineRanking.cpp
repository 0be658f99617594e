#include "heuristics/EngineRanking.hpp"

#include <algorithm>

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

namespace hipdnn_backend::heuristics {

std::vector<int64_t> rankEngines(const std::vector<std::vector<int64_t>>& applicableByPlugin,
                                 std::optional<int64_t> preferredEngineId,
                                 std::optional<int64_t> tunedEngineId) {
    static const int64_t referenceEngineId =
        hipdnn_data_sdk::utilities::engineNameToId("CPU_REFERENCE_ENGINE");
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
        return id == referenceEngineId ? 3 : 2;
    };
    std::stable_sort(ranked.begin(), ranked.end(), [&](int64_t a, int64_t b) { return rank(a) < rank(b); });
    return ranked;
}

}  // namespace hipdnn_backend::heuristics
