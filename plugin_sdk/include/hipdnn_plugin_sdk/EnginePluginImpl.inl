// Generates every exported function of PluginApi.h and EnginePluginApi.h for one plugin.
//
// Include this file from exactly one source file of the plugin, after defining:
//   HIPDNN_PLUGIN_NAME            string literal, the plugin's name
//   HIPDNN_PLUGIN_VERSION         string literal, the plugin's own version "MAJOR.MINOR.PATCH"
//   HIPDNN_PLUGIN_CONTAINER_TYPE  a class with `using Handle = ...;` (derived from
//                                 hipdnn_plugin_sdk::PluginHandleBase, default-constructible)
//                                 and `static hipdnn_plugin_sdk::EngineManager<Handle>&
//                                 getEngineManager();`
// and optionally:
//   HIPDNN_PLUGIN_DEVICE_TYPE     HIPDNN_DEVICE_TYPE_CPU_EXT or HIPDNN_DEVICE_TYPE_GPU_EXT (default)
//   HIPDNN_PLUGIN_API_VERSION     string literal reported by hipdnnPluginGetApiVersion (default
//                                 HIPDNN_ENGINE_API_VERSION_STRING)
// and the container type may have `static std::string libraryVersions();`, what
// hipdnnEnginePluginGetLibraryVersions_ext reports (asked once; without it, "").
//
// Every entry point checks its pointer parameters, turns exceptions into status codes
// (PluginError: its status; std::bad_alloc: ALLOC_FAILED; anything else: INTERNAL_ERROR), stores
// the message in the calling thread's last error and clears it on success. The one exception is
// hipdnnEnginePluginGetApplicableEngineIds, which on success leaves one line
// "<engine name>: <reason>" per declining engine.

#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_data_sdk/logging/CallbackLogger.hpp>
#include <hipdnn_flatbuffers_sdk/Builders.hpp>
#include <hipdnn_flatbuffers_sdk/EngineConfigWrapper.hpp>
#include <hipdnn_flatbuffers_sdk/FlatbufferError.hpp>
#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>
#include <hipdnn_flatbuffers_sdk/SerializedPlan.hpp>
#include <hipdnn_plugin_sdk/DeviceBuffers.hpp>
#include <hipdnn_plugin_sdk/EngineManager.hpp>
#include <hipdnn_plugin_sdk/IExecutionContext.hpp>
#include <hipdnn_plugin_sdk/KnobValidation.hpp>
#include <hipdnn_plugin_sdk/PluginError.hpp>
#include <hipdnn_plugin_sdk/PluginHandleBase.hpp>
#include <hipdnn_plugin_sdk/PluginLastError.hpp>

#include <flatbuffers/flatbuffers.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#ifndef HIPDNN_PLUGIN_NAME
#error "Define HIPDNN_PLUGIN_NAME before including hipdnn_plugin_sdk/EnginePluginImpl.inl"
#endif
#ifndef HIPDNN_PLUGIN_VERSION
#error "Define HIPDNN_PLUGIN_VERSION before including hipdnn_plugin_sdk/EnginePluginImpl.inl"
#endif
#ifndef HIPDNN_PLUGIN_CONTAINER_TYPE
#error "Define HIPDNN_PLUGIN_CONTAINER_TYPE before including hipdnn_plugin_sdk/EnginePluginImpl.inl"
#endif
#ifndef HIPDNN_PLUGIN_DEVICE_TYPE
#define HIPDNN_PLUGIN_DEVICE_TYPE HIPDNN_DEVICE_TYPE_GPU_EXT
#endif
#ifndef HIPDNN_PLUGIN_API_VERSION
#define HIPDNN_PLUGIN_API_VERSION HIPDNN_ENGINE_API_VERSION_STRING
#endif

// An anonymous namespace keeps every helper (and the templates it instantiates) out of the
// plugin's dynamic symbol table.
namespace {

using PluginHandle = typename HIPDNN_PLUGIN_CONTAINER_TYPE::Handle;

static_assert(std::is_base_of_v<hipdnn_plugin_sdk::PluginHandleBase, PluginHandle>,
              "HIPDNN_PLUGIN_CONTAINER_TYPE::Handle must derive from hipdnn_plugin_sdk::PluginHandleBase");
static_assert(std::is_default_constructible_v<PluginHandle>,
              "HIPDNN_PLUGIN_CONTAINER_TYPE::Handle must be default-constructible");

// The container's libraryVersions(), or "" when it has none (a template, so that the check is a
// substitution and not an error).
template <class Container>
std::string libraryVersionsOf() {
    if constexpr (requires { Container::libraryVersions(); }) {
        return std::string(Container::libraryVersions());
    } else {
        return {};
    }
}

// What a hipdnnEnginePluginExecutionContext_t points to. The engine id routes serialization
// back to the engine that built the context.
struct ExecutionContextHolder {
    int64_t engineId;
    std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> context;
};

hipdnn_plugin_sdk::EngineManager<PluginHandle>& engineManager() {
    return HIPDNN_PLUGIN_CONTAINER_TYPE::getEngineManager();
}

// Runs `body` and maps its outcome to a status; `function` prefixes failure messages.
// On success the last error is cleared unless `body` returns true ("I set it myself").
template <class Body>
hipdnnPluginStatus_t guardedCall(const char* function, Body&& body) noexcept {
    const std::string_view prefix = function;
    try {
        if constexpr (std::is_same_v<std::invoke_result_t<Body>, bool>) {
            if (!body()) {
                hipdnn_plugin_sdk::PluginLastError::clear();
            }
        } else {
            body();
            hipdnn_plugin_sdk::PluginLastError::clear();
        }
        return HIPDNN_PLUGIN_STATUS_SUCCESS;
    } catch (const hipdnn_plugin_sdk::PluginError& error) {
        hipdnn_plugin_sdk::PluginLastError::set({prefix, error.what()});
        return error.status() == HIPDNN_PLUGIN_STATUS_SUCCESS ? HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR
                                                              : error.status();
    } catch (const std::bad_alloc& error) {
        hipdnn_plugin_sdk::PluginLastError::set({prefix, "out of memory: ", error.what()});
        return HIPDNN_PLUGIN_STATUS_ALLOC_FAILED;
    } catch (const std::exception& error) {
        hipdnn_plugin_sdk::PluginLastError::set({prefix, error.what()});
        return HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR;
    } catch (...) {
        hipdnn_plugin_sdk::PluginLastError::set(
            {prefix, "unknown exception (not derived from std::exception)"});
        return HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR;
    }
}

void requireNotNull(const void* pointer, const char* parameter) {
    if (pointer == nullptr) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                                             std::string(parameter) + " is null");
    }
}

PluginHandle& handleFrom(hipdnnEnginePluginHandle_t handle) {
    requireNotNull(handle, "handle");
    return *reinterpret_cast<PluginHandle*>(handle);
}

ExecutionContextHolder& contextFrom(hipdnnEnginePluginExecutionContext_t context) {
    requireNotNull(context, "execution_context");
    return *reinterpret_cast<ExecutionContextHolder*>(context);
}

const hipdnnPluginConstData_t& bufferFrom(const hipdnnPluginConstData_t* data, const char* parameter) {
    requireNotNull(data, parameter);
    if (data->ptr == nullptr) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                                             std::string(parameter) + "->ptr is null");
    }
    if (data->size == 0) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                                             std::string(parameter) + "->size is 0");
    }
    return *data;
}

// Verification failures of host buffers are the caller's fault: BAD_PARAM with the wrapper's text.
hipdnn_flatbuffers_sdk::GraphWrapper parseGraph(const hipdnnPluginConstData_t* opGraph) {
    const hipdnnPluginConstData_t& buffer = bufferFrom(opGraph, "op_graph");
    try {
        return hipdnn_flatbuffers_sdk::GraphWrapper(buffer.ptr, buffer.size);
    } catch (const hipdnn_flatbuffers_sdk::FlatbufferError& error) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                                             std::string("op_graph: ") + error.what());
    }
}

hipdnn_flatbuffers_sdk::EngineConfigWrapper parseEngineConfig(const hipdnnPluginConstData_t* engineConfig) {
    const hipdnnPluginConstData_t& buffer = bufferFrom(engineConfig, "engine_config");
    try {
        return hipdnn_flatbuffers_sdk::EngineConfigWrapper(buffer.ptr, buffer.size);
    } catch (const hipdnn_flatbuffers_sdk::FlatbufferError& error) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                                             std::string("engine_config: ") + error.what());
    }
}

// Copies bytes into a plugin-owned buffer released by releaseOwnedBuffer. operator new[] aligns
// to at least 16 bytes, so FlatBuffers in it verify with alignment checks on.
void publishOwnedBuffer(std::span<const uint8_t> bytes, hipdnnPluginConstData_t& out) {
    auto* copy = new uint8_t[bytes.size()];
    std::copy(bytes.begin(), bytes.end(), copy);
    out.ptr = copy;
    out.size = bytes.size();
}

void releaseOwnedBuffer(hipdnnPluginConstData_t& data) {
    delete[] static_cast<const uint8_t*>(data.ptr);
    data.ptr = nullptr;
    data.size = 0;
}

// Resolves the engine a configuration names and checks that it can run the graph with the
// configuration's knob settings.
const hipdnn_plugin_sdk::IEngine<PluginHandle>& checkedEngineFor(
    PluginHandle& handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
    const hipdnn_flatbuffers_sdk::GraphWrapper& graph) {
    const hipdnn_plugin_sdk::IEngine<PluginHandle>& engine = engineManager().engine(config.engineId());
    std::string reason;
    if (!engine.isApplicable(handle, graph, reason)) {
        throw hipdnn_plugin_sdk::PluginError(
            HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
            "engine " + engineManager().engineName(engine.id()) + " cannot run this graph: " + reason);
    }
    hipdnn_plugin_sdk::validateKnobSettings(config, engine.knobs(handle, graph));
    return engine;
}

// global.workspace_size_limit (when >= 0) caps what any engine may ask for.
void enforceWorkspaceLimit(const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config, int64_t engineId,
                           std::size_t workspaceSize) {
    const std::optional<int64_t> limit = config.intKnob(hipdnn_plugin_sdk::kGlobalWorkspaceSizeLimitKnob);
    if (limit && *limit >= 0 && workspaceSize > static_cast<uint64_t>(*limit)) {
        throw hipdnn_plugin_sdk::PluginError(
            HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
            "engine " + engineManager().engineName(engineId) + " needs " + std::to_string(workspaceSize) +
                " bytes of workspace, more than global.workspace_size_limit " + std::to_string(*limit));
    }
}

}  // namespace

extern "C" {

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetName(const char** name) {
    return guardedCall("hipdnnPluginGetName: ", [&] {
        requireNotNull(name, "name");
        *name = HIPDNN_PLUGIN_NAME;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetVersion(const char** version) {
    return guardedCall("hipdnnPluginGetVersion: ", [&] {
        requireNotNull(version, "version");
        *version = HIPDNN_PLUGIN_VERSION;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetType(hipdnnPluginType_t* type) {
    return guardedCall("hipdnnPluginGetType: ", [&] {
        requireNotNull(type, "type");
        *type = HIPDNN_PLUGIN_TYPE_ENGINE;
    });
}

HIPDNN_PLUGIN_EXPORT void hipdnnPluginGetLastErrorString(const char** error_str) {
    if (error_str != nullptr) {
        *error_str = hipdnn_plugin_sdk::PluginLastError::get();
    }
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginSetLoggingCallback(hipdnnCallback_t callback) {
    // A null callback is accepted: it stops forwarding log messages.
    return guardedCall("hipdnnPluginSetLoggingCallback: ",
                       [&] { hipdnn_data_sdk::logging::setLogCallback(callback); });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetApiVersion(const char** version) {
    return guardedCall("hipdnnPluginGetApiVersion: ", [&] {
        requireNotNull(version, "version");
        *version = HIPDNN_PLUGIN_API_VERSION;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginSetLogLevel(hipdnnSeverity_t level) {
    return guardedCall("hipdnnPluginSetLogLevel: ", [&] {
        if (level < HIPDNN_SEV_INFO || level > HIPDNN_SEV_OFF) {
            throw hipdnn_plugin_sdk::PluginError(
                HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                "level " + std::to_string(static_cast<int>(level)) + " is not a hipdnnSeverity_t value");
        }
        hipdnn_data_sdk::logging::setLogLevel(level);
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetAllEngineIds(int64_t* engine_ids,
                                                                            uint32_t max_engines,
                                                                            uint32_t* num_engines) {
    return guardedCall("hipdnnEnginePluginGetAllEngineIds: ", [&] {
        requireNotNull(num_engines, "num_engines");
        if (max_engines > 0) {
            requireNotNull(engine_ids, "engine_ids");
        }
        const std::vector<int64_t> ids = engineManager().engineIds();
        if (max_engines == 0) {
            *num_engines = static_cast<uint32_t>(ids.size());
            return;
        }
        const std::size_t count = std::min<std::size_t>(max_engines, ids.size());
        std::copy_n(ids.begin(), count, engine_ids);
        *num_engines = static_cast<uint32_t>(count);
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreate(hipdnnEnginePluginHandle_t* handle) {
    return guardedCall("hipdnnEnginePluginCreate: ", [&] {
        requireNotNull(handle, "handle");
        *handle = nullptr;
        auto created = std::make_unique<PluginHandle>();
        *handle = reinterpret_cast<hipdnnEnginePluginHandle_t>(created.release());
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroy(hipdnnEnginePluginHandle_t handle) {
    return guardedCall("hipdnnEnginePluginDestroy: ", [&] { delete &handleFrom(handle); });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginSetStream(hipdnnEnginePluginHandle_t handle,
                                                                      hipdnnPluginStream_t stream) {
    return guardedCall("hipdnnEnginePluginSetStream: ", [&] { handleFrom(handle).setStream(stream); });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnEnginePluginSetCommunicator_ext(hipdnnEnginePluginHandle_t handle, void* communicator) {
    return guardedCall("hipdnnEnginePluginSetCommunicator_ext: ",
                       [&] { handleFrom(handle).setCommunicator(communicator); });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetApplicableEngineIds(
    hipdnnEnginePluginHandle_t handle, const hipdnnPluginConstData_t* op_graph, int64_t* engine_ids,
    uint32_t max_engines, uint32_t* num_engines) {
    return guardedCall("hipdnnEnginePluginGetApplicableEngineIds: ", [&] {
        PluginHandle& pluginHandle = handleFrom(handle);
        requireNotNull(num_engines, "num_engines");
        if (max_engines > 0) {
            requireNotNull(engine_ids, "engine_ids");
        }
        const hipdnn_flatbuffers_sdk::GraphWrapper graph = parseGraph(op_graph);
        std::vector<std::string> declineReasons;
        const std::vector<int64_t> ids =
            engineManager().applicableEngineIds(pluginHandle, graph, declineReasons);
        if (max_engines == 0) {
            *num_engines = static_cast<uint32_t>(ids.size());
        } else {
            const std::size_t count = std::min<std::size_t>(max_engines, ids.size());
            std::copy_n(ids.begin(), count, engine_ids);
            *num_engines = static_cast<uint32_t>(count);
        }
        std::string reasons;
        for (const std::string& line : declineReasons) {
            if (!reasons.empty()) {
                reasons += '\n';
            }
            reasons += line;
        }
        hipdnn_plugin_sdk::PluginLastError::set(reasons);
        return true;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetEngineDetails(
    hipdnnEnginePluginHandle_t handle, int64_t engine_id, const hipdnnPluginConstData_t* op_graph,
    hipdnnPluginConstData_t* engine_details) {
    return guardedCall("hipdnnEnginePluginGetEngineDetails: ", [&] {
        PluginHandle& pluginHandle = handleFrom(handle);
        requireNotNull(engine_details, "engine_details");
        engine_details->ptr = nullptr;
        engine_details->size = 0;
        const hipdnn_plugin_sdk::IEngine<PluginHandle>& engine = engineManager().engine(engine_id);
        const hipdnn_flatbuffers_sdk::GraphWrapper graph = parseGraph(op_graph);
        const std::vector<uint8_t> details = hipdnn_flatbuffers_sdk::makeEngineDetails(
            engine_id, engineManager().engineName(engine_id), engine.knobs(pluginHandle, graph),
            engine.behaviorNotes());
        publishOwnedBuffer(details, *engine_details);
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroyEngineDetails(
    hipdnnEnginePluginHandle_t handle, hipdnnPluginConstData_t* engine_details) {
    return guardedCall("hipdnnEnginePluginDestroyEngineDetails: ", [&] {
        handleFrom(handle);
        requireNotNull(engine_details, "engine_details");
        releaseOwnedBuffer(*engine_details);
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetWorkspaceSize(
    hipdnnEnginePluginHandle_t handle, const hipdnnPluginConstData_t* engine_config,
    const hipdnnPluginConstData_t* op_graph, size_t* workspace_size) {
    return guardedCall("hipdnnEnginePluginGetWorkspaceSize: ", [&] {
        PluginHandle& pluginHandle = handleFrom(handle);
        requireNotNull(workspace_size, "workspace_size");
        const hipdnn_flatbuffers_sdk::EngineConfigWrapper config = parseEngineConfig(engine_config);
        const hipdnn_flatbuffers_sdk::GraphWrapper graph = parseGraph(op_graph);
        const hipdnn_plugin_sdk::IEngine<PluginHandle>& engine =
            checkedEngineFor(pluginHandle, config, graph);
        const std::size_t size = engine.workspaceSize(pluginHandle, config, graph);
        enforceWorkspaceLimit(config, engine.id(), size);
        *workspace_size = size;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreateExecutionContext(
    hipdnnEnginePluginHandle_t handle, const hipdnnPluginConstData_t* engine_config,
    const hipdnnPluginConstData_t* op_graph, hipdnnEnginePluginExecutionContext_t* execution_context) {
    return guardedCall("hipdnnEnginePluginCreateExecutionContext: ", [&] {
        PluginHandle& pluginHandle = handleFrom(handle);
        requireNotNull(execution_context, "execution_context");
        *execution_context = nullptr;
        const hipdnn_flatbuffers_sdk::EngineConfigWrapper config = parseEngineConfig(engine_config);
        const hipdnn_flatbuffers_sdk::GraphWrapper graph = parseGraph(op_graph);
        const hipdnn_plugin_sdk::IEngine<PluginHandle>& engine =
            checkedEngineFor(pluginHandle, config, graph);
        auto holder = std::make_unique<ExecutionContextHolder>(
            ExecutionContextHolder{engine.id(), engine.createExecutionContext(pluginHandle, config, graph)});
        if (holder->context == nullptr) {
            throw hipdnn_plugin_sdk::PluginError(
                HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
                "engine " + engineManager().engineName(engine.id()) + " returned a null execution context");
        }
        enforceWorkspaceLimit(config, engine.id(), holder->context->workspaceSize());
        *execution_context = reinterpret_cast<hipdnnEnginePluginExecutionContext_t>(holder.release());
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroyExecutionContext(
    hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t execution_context) {
    return guardedCall("hipdnnEnginePluginDestroyExecutionContext: ", [&] {
        handleFrom(handle);
        delete &contextFrom(execution_context);
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext(
    hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t execution_context,
    size_t* workspace_size) {
    return guardedCall("hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext: ", [&] {
        handleFrom(handle);
        ExecutionContextHolder& holder = contextFrom(execution_context);
        requireNotNull(workspace_size, "workspace_size");
        *workspace_size = holder.context->workspaceSize();
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginExecuteOpGraph(
    hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t execution_context,
    void* workspace, const hipdnnPluginDeviceBuffer_t* device_buffers, uint32_t num_device_buffers) {
    return guardedCall("hipdnnEnginePluginExecuteOpGraph: ", [&] {
        PluginHandle& pluginHandle = handleFrom(handle);
        ExecutionContextHolder& holder = contextFrom(execution_context);
        const std::size_t workspaceSize = holder.context->workspaceSize();
        if (workspace == nullptr && workspaceSize > 0) {
            throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                                                 "workspace is null but the execution context needs " +
                                                     std::to_string(workspaceSize) + " bytes");
        }
        const hipdnn_plugin_sdk::DeviceBuffers buffers(device_buffers, num_device_buffers);
        holder.context->execute(pluginHandle, workspace, buffers);
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetEngineName(int64_t engine_id,
                                                                          const char** name) {
    return guardedCall("hipdnnEnginePluginGetEngineName: ", [&] {
        requireNotNull(name, "name");
        const std::string& engineName = engineManager().engineName(engine_id);
        if (engineName.empty()) {
            throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
                                                 "engine " + std::to_string(engine_id) + " has no name");
        }
        *name = engineName.c_str();
    });
}

// The estimate is the engine's; the graph is not checked for applicability again (the backend asks
// only about engines that found the graph applicable).
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginEstimateExecutionTime_ext(
    hipdnnEnginePluginHandle_t handle, int64_t engine_id, const hipdnnPluginConstData_t* op_graph,
    hipdnnEnginePredictionKind_t kind, double* seconds) {
    return guardedCall("hipdnnEnginePluginEstimateExecutionTime_ext: ", [&] {
        PluginHandle& pluginHandle = handleFrom(handle);
        requireNotNull(seconds, "seconds");
        const int kindValue = static_cast<int>(kind);
        if (kindValue != HIPDNN_ENGINE_PREDICTION_ENGINE &&
            kindValue != HIPDNN_ENGINE_PREDICTION_CONFIGURATION) {
            throw hipdnn_plugin_sdk::PluginError(
                HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                "kind " + std::to_string(kindValue) + " is not a hipdnnEnginePredictionKind_t value");
        }
        const hipdnn_plugin_sdk::IEngine<PluginHandle>& engine = engineManager().engine(engine_id);
        const hipdnn_flatbuffers_sdk::GraphWrapper graph = parseGraph(op_graph);
        const std::optional<double> estimate = kindValue == HIPDNN_ENGINE_PREDICTION_ENGINE
                                                   ? engine.estimatedSeconds(pluginHandle, graph)
                                                   : std::nullopt;
        if (!estimate) {
            throw hipdnn_plugin_sdk::PluginError(
                HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
                "engine " + engineManager().engineName(engine_id) +
                    (kindValue == HIPDNN_ENGINE_PREDICTION_ENGINE ? " gives no time estimate for this graph"
                                                                  : " predicts no single configuration"));
        }
        *seconds = *estimate;
    });
}

// The serialized form is a SerializedExecutionPlan FlatBuffer holding only the layout version, the
// engine id and the engine's own bytes (plugin_payload); the engine id routes deserialization back
// to the engine.
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginSerializeExecutionContext(
    hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t execution_context,
    hipdnnPluginConstData_t* serialized) {
    return guardedCall("hipdnnEnginePluginSerializeExecutionContext: ", [&] {
        handleFrom(handle);
        ExecutionContextHolder& holder = contextFrom(execution_context);
        requireNotNull(serialized, "serialized");
        serialized->ptr = nullptr;
        serialized->size = 0;
        const std::vector<uint8_t> contextBytes = holder.context->serialize();
        flatbuffers::FlatBufferBuilder builder(contextBytes.size() + 64);
        const auto pluginContext = builder.CreateVector(contextBytes);
        hipdnn_flatbuffers_sdk::data_objects::SerializedExecutionPlanBuilder plan(builder);
        plan.add_version(hipdnn_flatbuffers_sdk::kSerializedExecutionPlanVersion);
        plan.add_engine_id(holder.engineId);
        plan.add_plugin_payload(pluginContext);
        builder.Finish(plan.Finish());
        publishOwnedBuffer(std::span<const uint8_t>(builder.GetBufferPointer(), builder.GetSize()),
                           *serialized);
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroySerializedExecutionContext(
    hipdnnEnginePluginHandle_t handle, hipdnnPluginConstData_t* serialized) {
    return guardedCall("hipdnnEnginePluginDestroySerializedExecutionContext: ", [&] {
        handleFrom(handle);
        requireNotNull(serialized, "serialized");
        releaseOwnedBuffer(*serialized);
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreateExecutionContextFromSerialized(
    hipdnnEnginePluginHandle_t handle, const hipdnnPluginConstData_t* serialized,
    hipdnnEnginePluginExecutionContext_t* execution_context) {
    return guardedCall("hipdnnEnginePluginCreateExecutionContextFromSerialized: ", [&] {
        PluginHandle& pluginHandle = handleFrom(handle);
        requireNotNull(execution_context, "execution_context");
        *execution_context = nullptr;
        const hipdnnPluginConstData_t& buffer = bufferFrom(serialized, "serialized");
        // Copied so that the verifier's alignment checks hold whatever the host's buffer alignment.
        const auto* bytes = static_cast<const uint8_t*>(buffer.ptr);
        const std::vector<uint8_t> copy(bytes, bytes + buffer.size);
        flatbuffers::Verifier verifier(copy.data(), copy.size());
        if (!hipdnn_flatbuffers_sdk::data_objects::VerifySerializedExecutionPlanBuffer(verifier)) {
            throw hipdnn_plugin_sdk::PluginError(
                HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                "serialized: buffer of " + std::to_string(buffer.size) +
                    " bytes is not a serialized execution context (FlatBuffers verification failed)");
        }
        const auto* plan = hipdnn_flatbuffers_sdk::data_objects::GetSerializedExecutionPlan(copy.data());
        if (plan->version() != hipdnn_flatbuffers_sdk::kSerializedExecutionPlanVersion) {
            throw hipdnn_plugin_sdk::PluginError(
                HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                "serialized: execution context of layout version " + std::to_string(plan->version()) +
                    "; this plugin reads version " +
                    std::to_string(hipdnn_flatbuffers_sdk::kSerializedExecutionPlanVersion));
        }
        const hipdnn_plugin_sdk::IEngine<PluginHandle>& engine = engineManager().engine(plan->engine_id());
        std::span<const uint8_t> contextBytes;
        if (plan->plugin_payload() != nullptr) {
            contextBytes =
                std::span<const uint8_t>(plan->plugin_payload()->data(), plan->plugin_payload()->size());
        }
        auto holder = std::make_unique<ExecutionContextHolder>(ExecutionContextHolder{
            engine.id(), engine.deserializeExecutionContext(pluginHandle, contextBytes)});
        if (holder->context == nullptr) {
            throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
                                                 "engine " + engineManager().engineName(engine.id()) +
                                                     " returned a null deserialized execution context");
        }
        *execution_context = reinterpret_cast<hipdnnEnginePluginExecutionContext_t>(holder.release());
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetLibraryVersions_ext(const char** versions) {
    return guardedCall("hipdnnEnginePluginGetLibraryVersions_ext: ", [&] {
        requireNotNull(versions, "versions");
        static const std::string reported = libraryVersionsOf<HIPDNN_PLUGIN_CONTAINER_TYPE>();
        *versions = reported.c_str();
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnEnginePluginGetDeviceType_ext(hipdnnDeviceType_ext_t* device_type) {
    return guardedCall("hipdnnEnginePluginGetDeviceType_ext: ", [&] {
        requireNotNull(device_type, "device_type");
        *device_type = HIPDNN_PLUGIN_DEVICE_TYPE;
    });
}

}  // extern "C"
