// Functions every hipDNN plugin exports, whatever its type.
#ifndef HIPDNN_PLUGIN_SDK_PLUGIN_API_H
#define HIPDNN_PLUGIN_SDK_PLUGIN_API_H

#include <hipdnn_data_sdk/logging/CallbackTypes.h>
#include <hipdnn_plugin_sdk/PluginApiDataTypes.h>
#include <hipdnn_plugin_sdk/PluginExport.h>

/// Status results must be looked at (C++ callers only; C has no such attribute before C23).
#ifdef __cplusplus
#define HIPDNN_PLUGIN_NODISCARD [[nodiscard]]
#else
#define HIPDNN_PLUGIN_NODISCARD
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// Required. The plugin's name; a static string owned by the plugin.
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetName(const char** name);

/// Required. The plugin's own version ("MAJOR.MINOR.PATCH"); a static string.
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnPluginGetVersion(const char** version);

/// Required. The plugin type; engine plugins answer HIPDNN_PLUGIN_TYPE_ENGINE.
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnPluginGetType(hipdnnPluginType_t* type);

/// Required. The calling thread's last error message. Read it right after a failing call;
/// the pointer stays valid only until the thread's next plugin call.
HIPDNN_PLUGIN_EXPORT void hipdnnPluginGetLastErrorString(const char** error_str);

/// Optional. The host hands its log sink to the plugin once, after loading it.
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnPluginSetLoggingCallback(hipdnnCallback_t callback);

/// Optional. The engine plugin API version the plugin was built against ("MAJOR.MINOR.PATCH").
/// Absent means "1.0.0".
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnPluginGetApiVersion(const char** version);

/// Optional. The least severity the plugin should forward to its logging callback.
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnPluginSetLogLevel(hipdnnSeverity_t level);

#ifdef __cplusplus
}
#endif

#endif
