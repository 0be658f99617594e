#pragma once

#include "HipdnnStatus.h"
#include "hipdnn_plugin_sdk/PluginApiDataTypes.h"

namespace hipdnn_backend {

// They take ints: a status from outside (a C caller, a plugin) need not be an enumerator, and is
// read as an int (hipdnn_data_sdk/utilities/CEnum.hpp).
// "HIPDNN_STATUS_BAD_PARAM" etc.; "HIPDNN_STATUS_UNKNOWN" for values outside the enum.
const char* statusName(int status) noexcept;
// A sentence describing the status (what hipdnnGetErrorString returns).
const char* statusDescription(int status) noexcept;
// "HIPDNN_PLUGIN_STATUS_BAD_PARAM" etc.; "HIPDNN_PLUGIN_STATUS_UNKNOWN" for values outside the enum.
const char* pluginStatusName(int status) noexcept;

}  // namespace hipdnn_backend
