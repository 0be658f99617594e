// The tuning database as the heuristics consult it and the C API fills it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "descriptors/ExecutionPlanDescriptor.hpp"
#include "descriptors/FinalizedGraph.hpp"
#include "descriptors/KnobValues.hpp"

namespace hipdnn_backend::tuning {

// The engine and knob settings a tuning record names.
struct TunedConfig {
    int64_t engineId = 0;
    std::vector<descriptors::KnobChoice> knobs;
};

// The configuration the handle's tuning database recorded as fastest for `graph` on the handle's
// device, when the handle has a database and the record's plugin is loaded on the handle with the
// version that measured it. A record for another plugin version is ignored (logged at info).
[[nodiscard]] std::optional<TunedConfig> tunedConfigFor(const descriptors::FinalizedGraph& graph);

// Stores `plan`'s engine configuration as the fastest for its graph on its handle's device.
// `runnerUpMs`: the median of the second fastest configuration, or 0 when only this one ran.
// BAD_PARAM for medians that are negative, not finite or out of order; NOT_SUPPORTED when the
// handle has no database (HIPDNN_DISABLE_CACHE); INTERNAL_ERROR naming the file when writing fails.
void recordTuningResult(const descriptors::ExecutionPlanDescriptor& plan, double medianMs, double runnerUpMs,
                        const std::string& tool);

}  // namespace hipdnn_backend::tuning
