#pragma once

#include "HipdnnStatus.h"
#include "hipdnn_plugin_sdk/PluginApiDataTypes.h"

namespace hipdnn_backend {

// "HIPDNN_STATUS_BAD_PARAM" etc.; "HIPDNN_STATUS_UNKNOWN" for values outside the enum.
const char* statusName(hipdnnStatus_t status) noexcept;
// A sentence describing the status (what hipdnnGetErrorString returns).
const char* statusDescription(hipdnnStatus_t status) noexcept;
// "HIPDNN_PLUGIN_STATUS_BAD_PARAM" etc.
const char* pluginStatusName(hipdnnPluginStatus_t status) noexcept;

}  // namespace hipdnn_backend
