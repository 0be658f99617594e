// The exception engines throw to make a plugin entry point fail with a chosen status.
#pragma once

#include <hipdnn_plugin_sdk/PluginApiDataTypes.h>

#include <stdexcept>
#include <string>

namespace hipdnn_plugin_sdk {

/// Thrown from engine code (or the SDK itself) to fail the current plugin API call with
/// `status`; the message becomes the calling thread's last error string.
class PluginError : public std::runtime_error {
public:
    PluginError(hipdnnPluginStatus_t status, std::string message)
        : std::runtime_error(std::move(message)), _status(status) {}

    hipdnnPluginStatus_t status() const noexcept { return _status; }

private:
    hipdnnPluginStatus_t _status;
};

/// The enumerator name of a plugin status, e.g. "HIPDNN_PLUGIN_STATUS_BAD_PARAM";
/// "HIPDNN_PLUGIN_STATUS_UNKNOWN" for a value that is no enumerator (a plugin may return any
/// int). The one table of these names: the backend uses it too.
inline const char* pluginStatusName(hipdnnPluginStatus_t status) noexcept {
    switch (status) {
        case HIPDNN_PLUGIN_STATUS_SUCCESS:
            return "HIPDNN_PLUGIN_STATUS_SUCCESS";
        case HIPDNN_PLUGIN_STATUS_BAD_PARAM:
            return "HIPDNN_PLUGIN_STATUS_BAD_PARAM";
        case HIPDNN_PLUGIN_STATUS_INVALID_VALUE:
            return "HIPDNN_PLUGIN_STATUS_INVALID_VALUE";
        case HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR:
            return "HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR";
        case HIPDNN_PLUGIN_STATUS_ALLOC_FAILED:
            return "HIPDNN_PLUGIN_STATUS_ALLOC_FAILED";
        case HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE:
            return "HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE";
        case HIPDNN_PLUGIN_STATUS_NOT_INITIALIZED:
            return "HIPDNN_PLUGIN_STATUS_NOT_INITIALIZED";
    }
    return "HIPDNN_PLUGIN_STATUS_UNKNOWN";
}

}  // namespace hipdnn_plugin_sdk
