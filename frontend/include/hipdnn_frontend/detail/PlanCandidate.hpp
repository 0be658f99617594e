// One engine the graph may run on, from heuristics or create_execution_plan_ext, and the backend
// descriptors built for it as the lifecycle advances.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../Knobs.hpp"
#include "BackendDescriptor.hpp"

namespace hipdnn_frontend::detail {

struct PlanCandidate {
    int64_t engineId = 0;
    std::string engineName;
    std::string pluginName;
    std::vector<KnobSetting> knobs;

    DescriptorPtr engineConfig;  // ENGINECFG; finalized by check_support
    bool configFinalized = false;
    int64_t configWorkspaceSize = 0;
    DescriptorPtr plan;         // EXECUTION_PLAN once built
    int64_t workspaceSize = 0;  // from the built plan (authoritative)

    std::optional<double> medianMs;  // measured by Graph::autotune

    bool deselected = false;
    // Why check_support or build failed for this engine (empty while fine).
    std::string failure;

    [[nodiscard]] bool isBuilt() const { return plan != nullptr; }
};

// Run-time shapes for one execution, in the variant pack's flat form: uids[i] has rank
// lengths[i]; its dims and strides follow those of the earlier uids in shapes and strides.
struct ShapeOverrides {
    std::vector<int64_t> uids;
    std::vector<int64_t> lengths;
    std::vector<int64_t> shapes;
    std::vector<int64_t> strides;
};

// Asks executeCandidate to time `runs` runs (hipdnnBackendTimeExecution_ext) instead of running once.
struct TimedRuns {
    int32_t runs = 0;
    double medianMs = 0;  // written by executeCandidate
};

}  // namespace hipdnn_frontend::detail
