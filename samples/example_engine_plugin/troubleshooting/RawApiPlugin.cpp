// A plugin written against the C plugin API directly, without the SDK scaffolding (whose
// hipdnnEnginePluginCreate always returns a fresh handle). Built several times:
//
//  - EXAMPLE_RAW_CREATE_RETURNS_NULL: troubleshooting case "null handle returned":
//    hipdnnEnginePluginCreate reports SUCCESS but hands back a null handle.
//  - otherwise every handle of the plugin is one process-wide state object. Two copies built
//    WITHOUT hidden visibility (the collision case) share that object: GCC emits the
//    function-local static below as a STB_GNU_UNIQUE symbol, and the dynamic linker binds every
//    library defining the same unique symbol to the first definition loaded, RTLD_LOCAL or not.
//    The second plugin then returns the first one's handle and the backend logs "Plugin '...'
//    returned a handle that collides with another plugin". The same two copies built with hidden
//    visibility and the SDK's export map (the isolated case) each keep their own object.
//
// EXAMPLE_RAW_PLUGIN_NAME and EXAMPLE_RAW_ENGINE_NAME name the copy. Its one engine declines every
// graph: these plugins reproduce loading behaviour, not computation.
#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_plugin_sdk/EnginePluginApiVersion.h>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

#include <cstdint>

#ifndef EXAMPLE_RAW_PLUGIN_NAME
#error "Define EXAMPLE_RAW_PLUGIN_NAME"
#endif
#ifndef EXAMPLE_RAW_ENGINE_NAME
#error "Define EXAMPLE_RAW_ENGINE_NAME"
#endif

namespace example_troubleshooting {

// Deliberately not in an anonymous namespace: the symbol must be able to collide. In the collision
// case the shared object still names the plugin that defined it first.
struct ProcessWideState {
    const char* ownerPluginName = EXAMPLE_RAW_PLUGIN_NAME;
};

inline ProcessWideState& processWideState() {
    static ProcessWideState state;
    return state;
}

}  // namespace example_troubleshooting

namespace {

constexpr int64_t kEngineId = hipdnn_data_sdk::utilities::engineNameToId(EXAMPLE_RAW_ENGINE_NAME);

thread_local const char* lastError = "";

hipdnnPluginStatus_t fail(hipdnnPluginStatus_t status, const char* message) {
    lastError = message;
    return status;
}

hipdnnPluginStatus_t notApplicable() {
    return fail(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE, EXAMPLE_RAW_PLUGIN_NAME " runs no graph");
}

}  // namespace

extern "C" {

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetName(const char** name) {
    *name = EXAMPLE_RAW_PLUGIN_NAME;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetVersion(const char** version) {
    *version = "1.0.0";
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetType(hipdnnPluginType_t* type) {
    *type = HIPDNN_PLUGIN_TYPE_ENGINE;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT void hipdnnPluginGetLastErrorString(const char** error_str) {
    *error_str = lastError;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetApiVersion(const char** version) {
    *version = HIPDNN_ENGINE_API_VERSION_STRING;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

// Without it the backend would take the plugin for a GPU plugin and never create a handle on a
// CPU handle.
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnEnginePluginGetDeviceType_ext(hipdnnDeviceType_ext_t* device_type) {
    *device_type = HIPDNN_DEVICE_TYPE_CPU_EXT;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetAllEngineIds(int64_t* engine_ids,
                                                                            uint32_t max_engines,
                                                                            uint32_t* num_engines) {
    if (max_engines > 0) {
        engine_ids[0] = kEngineId;
    }
    *num_engines = 1;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetEngineName(int64_t engine_id,
                                                                          const char** name) {
    if (engine_id != kEngineId) {
        return fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "unknown engine id");
    }
    *name = EXAMPLE_RAW_ENGINE_NAME;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreate(hipdnnEnginePluginHandle_t* handle) {
#if defined(EXAMPLE_RAW_CREATE_RETURNS_NULL)
    *handle = nullptr;
#else
    *handle = reinterpret_cast<hipdnnEnginePluginHandle_t>(&example_troubleshooting::processWideState());
#endif
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

// The process-wide state outlives every handle: nothing to release.
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroy(hipdnnEnginePluginHandle_t /*handle*/) {
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginSetStream(hipdnnEnginePluginHandle_t /*handle*/,
                                                                      hipdnnPluginStream_t /*stream*/) {
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetApplicableEngineIds(
    hipdnnEnginePluginHandle_t /*handle*/, const hipdnnPluginConstData_t* /*op_graph*/,
    int64_t* /*engine_ids*/, uint32_t /*max_engines*/, uint32_t* num_engines) {
    *num_engines = 0;
    lastError = EXAMPLE_RAW_ENGINE_NAME ": runs no graph";
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetEngineDetails(
    hipdnnEnginePluginHandle_t /*handle*/, int64_t /*engine_id*/, const hipdnnPluginConstData_t* /*op_graph*/,
    hipdnnPluginConstData_t* /*engine_details*/) {
    return notApplicable();
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroyEngineDetails(
    hipdnnEnginePluginHandle_t /*handle*/, hipdnnPluginConstData_t* /*engine_details*/) {
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetWorkspaceSize(
    hipdnnEnginePluginHandle_t /*handle*/, const hipdnnPluginConstData_t* /*engine_config*/,
    const hipdnnPluginConstData_t* /*op_graph*/, size_t* /*workspace_size*/) {
    return notApplicable();
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreateExecutionContext(
    hipdnnEnginePluginHandle_t /*handle*/, const hipdnnPluginConstData_t* /*engine_config*/,
    const hipdnnPluginConstData_t* /*op_graph*/,
    hipdnnEnginePluginExecutionContext_t* /*execution_context*/) {
    return notApplicable();
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroyExecutionContext(
    hipdnnEnginePluginHandle_t /*handle*/, hipdnnEnginePluginExecutionContext_t /*execution_context*/) {
    return notApplicable();
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext(
    hipdnnEnginePluginHandle_t /*handle*/, hipdnnEnginePluginExecutionContext_t /*execution_context*/,
    size_t* /*workspace_size*/) {
    return notApplicable();
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginExecuteOpGraph(
    hipdnnEnginePluginHandle_t /*handle*/, hipdnnEnginePluginExecutionContext_t /*execution_context*/,
    void* /*workspace*/, const hipdnnPluginDeviceBuffer_t* /*device_buffers*/,
    uint32_t /*num_device_buffers*/) {
    return notApplicable();
}

}  // extern "C"
