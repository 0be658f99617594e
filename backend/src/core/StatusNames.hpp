#pragma once

#include "HipdnnStatus.h"

namespace hipdnn_backend {

// "HIPDNN_STATUS_BAD_PARAM" etc.; "HIPDNN_STATUS_UNKNOWN" for values outside the enum.
const char* statusName(hipdnnStatus_t status) noexcept;
// A sentence describing the status (what hipdnnGetErrorString returns).
const char* statusDescription(hipdnnStatus_t status) noexcept;
// Plugin statuses are named by hipdnn_plugin_sdk::pluginStatusName (hipdnn_plugin_sdk/PluginError.hpp).

}  // namespace hipdnn_backend
