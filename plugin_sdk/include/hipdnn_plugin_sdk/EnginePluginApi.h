// The engine plugin ABI: the functions an engine plugin exports and the backend calls.
//
// Call order used by the backend:
//   dlopen -> hipdnnPluginGetName / GetVersion / GetType / GetApiVersion -> SetLoggingCallback
//   -> hipdnnEnginePluginGetDeviceType_ext -> GetAllEngineIds -> GetEngineName (per id)
//   -> per backend handle: Create -> SetStream -> { GetApplicableEngineIds -> GetEngineDetails /
//      DestroyEngineDetails -> GetWorkspaceSize -> CreateExecutionContext ->
//      GetWorkspaceSizeFromExecutionContext -> ExecuteOpGraph ... -> DestroyExecutionContext }
//   -> Destroy -> dlclose.
// Graphs and engine configurations cross as FlatBuffers (hipdnn_flatbuffers_sdk schemas).
// Buffers a plugin returns stay owned by the plugin until the paired Destroy call.
#ifndef HIPDNN_PLUGIN_SDK_ENGINE_PLUGIN_API_H
#define HIPDNN_PLUGIN_SDK_ENGINE_PLUGIN_API_H

#include <hipdnn_data_sdk/DeviceTypes.h>
#include <hipdnn_plugin_sdk/EnginePluginApiVersion.h>
#include <hipdnn_plugin_sdk/PluginApi.h>
#include <hipdnn_plugin_sdk/engine_api_version.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Required. Every engine id the plugin provides; needs no handle. With max_engines == 0 only
/// *num_engines is written (the total).
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnEnginePluginGetAllEngineIds(int64_t* engine_ids, uint32_t max_engines, uint32_t* num_engines);

/// Required. Creates the plugin's per-backend-handle state. May fail (for example, no device).
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnEnginePluginCreate(hipdnnEnginePluginHandle_t* handle);

/// Required.
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnEnginePluginDestroy(hipdnnEnginePluginHandle_t handle);

/// Required. Work submitted through this handle goes to `stream` from now on.
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnEnginePluginSetStream(hipdnnEnginePluginHandle_t handle, hipdnnPluginStream_t stream);

/// Required. The subset of the plugin's engines that can run `op_graph` (a serialized Graph).
/// When none applies the plugin returns SUCCESS with *num_engines == 0 and leaves the reasons in
/// its last error string.
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetApplicableEngineIds(
    hipdnnEnginePluginHandle_t handle, const hipdnnPluginConstData_t* op_graph, int64_t* engine_ids,
    uint32_t max_engines, uint32_t* num_engines);

/// Required. Serialized EngineDetails for `engine_id` on `op_graph`; owned by the plugin until
/// hipdnnEnginePluginDestroyEngineDetails.
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetEngineDetails(
    hipdnnEnginePluginHandle_t handle, int64_t engine_id, const hipdnnPluginConstData_t* op_graph,
    hipdnnPluginConstData_t* engine_details);

/// Required.
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroyEngineDetails(
    hipdnnEnginePluginHandle_t handle, hipdnnPluginConstData_t* engine_details);

/// Required. Workspace bytes an engine configuration (serialized EngineConfig) needs for a graph.
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetWorkspaceSize(
    hipdnnEnginePluginHandle_t handle, const hipdnnPluginConstData_t* engine_config,
    const hipdnnPluginConstData_t* op_graph, size_t* workspace_size);

/// Required. Builds everything needed to execute; the context does not reference the inputs.
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreateExecutionContext(
    hipdnnEnginePluginHandle_t handle, const hipdnnPluginConstData_t* engine_config,
    const hipdnnPluginConstData_t* op_graph, hipdnnEnginePluginExecutionContext_t* execution_context);

/// Required.
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroyExecutionContext(
    hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t execution_context);

/// Required. Authoritative workspace size of a built context.
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext(hipdnnEnginePluginHandle_t handle,
                                                       hipdnnEnginePluginExecutionContext_t execution_context,
                                                       size_t* workspace_size);

/// Required. Runs the graph: asynchronously on the handle's stream for GPU plugins,
/// synchronously for CPU plugins. `device_buffers` hold one pointer per non-virtual tensor.
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginExecuteOpGraph(
    hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t execution_context,
    void* workspace, const hipdnnPluginDeviceBuffer_t* device_buffers, uint32_t num_device_buffers);

/// Optional. ExecuteOpGraph with run-time shapes: the backend calls it instead of ExecuteOpGraph
/// when an execution supplies override shapes (num_overrides > 0) and the plugin exports it;
/// without the export such an execution fails in the backend. override_unique_ids[i] names a
/// tensor of device_buffers; override_shapes[i] and override_strides[i] point to
/// override_lengths[i] values each (its rank). Every pointer is valid only during the call.
/// A plugin that cannot run a graph with overrides declines the graph as not applicable.
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnEnginePluginExecuteOpGraphWithOverrides(
    hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t execution_context,
    void* workspace, const hipdnnPluginDeviceBuffer_t* device_buffers, uint32_t num_device_buffers,
    uint32_t num_overrides, const int64_t* override_unique_ids, const uint32_t* override_lengths,
    const int64_t* const* override_shapes, const int64_t* const* override_strides);

/// Optional (since 1.4). Name of one of the plugin's engines; needs no handle. The string is
/// owned by the plugin. NOT_APPLICABLE: the engine has no name; BAD_PARAM: unknown id.
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnEnginePluginGetEngineName(int64_t engine_id, const char** name);

/// Optional plan serialization. The serialized bytes are plugin-owned until
/// hipdnnEnginePluginDestroySerializedExecutionContext.
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginSerializeExecutionContext(
    hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t execution_context,
    hipdnnPluginConstData_t* serialized);

HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnEnginePluginDestroySerializedExecutionContext(hipdnnEnginePluginHandle_t handle,
                                                    hipdnnPluginConstData_t* serialized);

HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnEnginePluginCreateExecutionContextFromSerialized(
    hipdnnEnginePluginHandle_t handle, const hipdnnPluginConstData_t* serialized,
    hipdnnEnginePluginExecutionContext_t* execution_context);

/// Optional extension. The device kind the plugin's engines run on. Absent means GPU.
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnEnginePluginGetDeviceType_ext(hipdnnDeviceType_ext_t* device_type);

/// Optional extension. The device libraries the plugin's engines run on, as loaded in this process,
/// "<library> <version>" separated by "; " (e.g. "cudnn 9.19.0"), or "" when timings depend on none.
/// A tuning record measured with other libraries is not trusted. The string lives as long as the
/// plugin stays loaded. BAD_PARAM: a null pointer.
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnEnginePluginGetLibraryVersions_ext(const char** versions);

/// Optional extension. The engine's estimated execution time for op_graph, in seconds: a roofline
/// estimate (the graph's bytes and flops against the device's ceilings, each scaled by the fraction
/// the engine reaches on such graphs; hipdnn_plugin_sdk/Roofline.hpp). The backend ranks a device's
/// applicable engines by it where no tuning record decides. kind HIPDNN_ENGINE_PREDICTION_ENGINE
/// asks for the engine's ordinary execution. NOT_APPLICABLE: the engine gives no estimate for this
/// graph or kind; BAD_PARAM: a null pointer, an engine id the plugin does not have, or a kind
/// outside hipdnnEnginePredictionKind_t.
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginEstimateExecutionTime_ext(
    hipdnnEnginePluginHandle_t handle, int64_t engine_id, const hipdnnPluginConstData_t* op_graph,
    hipdnnEnginePredictionKind_t kind, double* seconds);

/// Optional extension. The NCCL communicator (an ncclComm_t whose device is the handle's GPU; null
/// detaches it) through which the handle's engines combine statistics across GPUs: batch norm
/// nodes with peer_stats. The plugin does not own it and stops using it when a later call replaces
/// it or the handle is destroyed. BAD_PARAM: a null handle.
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnEnginePluginSetCommunicator_ext(hipdnnEnginePluginHandle_t handle, void* communicator);

#ifdef __cplusplus
}
#endif

#endif
