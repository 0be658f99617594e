#pragma once

#include "hipdnn_flatbuffers_sdk/data_objects/execution_plan_generated.h"

#include <cstdint>

namespace hipdnn_flatbuffers_sdk {

// The layout version SerializedExecutionPlan.version carries. Readers refuse other versions
// rather than guess what a newer writer meant.
inline constexpr uint32_t kSerializedExecutionPlanVersion = 1;

}  // namespace hipdnn_flatbuffers_sdk
