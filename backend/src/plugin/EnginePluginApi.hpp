// Function pointers resolved from one engine plugin library. Optional entries are null when
// the plugin does not export them.
#pragma once

#include <hipdnn_plugin_sdk/EnginePluginApi.h>

namespace hipdnn_backend::plugin {

struct EnginePluginApi {
    // Common, required.
    decltype(&hipdnnPluginGetName) getName = nullptr;
    decltype(&hipdnnPluginGetVersion) getVersion = nullptr;
    decltype(&hipdnnPluginGetType) getType = nullptr;
    decltype(&hipdnnPluginGetLastErrorString) getLastErrorString = nullptr;
    // Engine, required.
    decltype(&hipdnnEnginePluginGetAllEngineIds) getAllEngineIds = nullptr;
    decltype(&hipdnnEnginePluginCreate) create = nullptr;
    decltype(&hipdnnEnginePluginDestroy) destroy = nullptr;
    decltype(&hipdnnEnginePluginSetStream) setStream = nullptr;
    decltype(&hipdnnEnginePluginGetApplicableEngineIds) getApplicableEngineIds = nullptr;
    decltype(&hipdnnEnginePluginGetEngineDetails) getEngineDetails = nullptr;
    decltype(&hipdnnEnginePluginDestroyEngineDetails) destroyEngineDetails = nullptr;
    decltype(&hipdnnEnginePluginGetWorkspaceSize) getWorkspaceSize = nullptr;
    decltype(&hipdnnEnginePluginCreateExecutionContext) createExecutionContext = nullptr;
    decltype(&hipdnnEnginePluginDestroyExecutionContext) destroyExecutionContext = nullptr;
    decltype(&hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext) getWorkspaceSizeFromExecutionContext =
        nullptr;
    decltype(&hipdnnEnginePluginExecuteOpGraph) executeOpGraph = nullptr;
    // Optional.
    decltype(&hipdnnPluginSetLoggingCallback) setLoggingCallback = nullptr;
    decltype(&hipdnnPluginGetApiVersion) getApiVersion = nullptr;
    decltype(&hipdnnPluginSetLogLevel) setLogLevel = nullptr;
    decltype(&hipdnnEnginePluginGetEngineName) getEngineName = nullptr;
    decltype(&hipdnnEnginePluginGetDeviceType_ext) getDeviceType = nullptr;
    decltype(&hipdnnEnginePluginSerializeExecutionContext) serializeExecutionContext = nullptr;
    decltype(&hipdnnEnginePluginDestroySerializedExecutionContext) destroySerializedExecutionContext =
        nullptr;
    decltype(&hipdnnEnginePluginCreateExecutionContextFromSerialized) createExecutionContextFromSerialized =
        nullptr;
    decltype(&hipdnnEnginePluginExecuteOpGraphWithOverrides) executeOpGraphWithOverrides = nullptr;
    decltype(&hipdnnEnginePluginEstimateExecutionTime_ext) estimateExecutionTime = nullptr;
    decltype(&hipdnnEnginePluginGetLibraryVersions_ext) getLibraryVersions = nullptr;
    decltype(&hipdnnEnginePluginSetCommunicator_ext) setCommunicator = nullptr;
};

}  // namespace hipdnn_backend::plugin
