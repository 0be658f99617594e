// One configurable fake engine plugin written against the raw C ABI (no SDK scaffolding) so that
// each build can misbehave in exactly one way. CMake compiles it once per test case with
// FAKE_* definitions (see CMakeLists.txt):
//   FAKE_PLUGIN_NAME, FAKE_ENGINE_NAMES (comma-separated string literals), FAKE_API_VERSION
//   (omit: no hipdnnPluginGetApiVersion export), FAKE_PLUGIN_TYPE, FAKE_DEVICE_CPU,
//   FAKE_CREATE_BEHAVIOR (0 ok, 1 fail, 2 throw, 3 null, 4 shared handle from a dependency),
//   FAKE_OMIT_EXECUTE, FAKE_ZERO_ENGINES, FAKE_DUPLICATE_IDS, FAKE_LYING_NAME, FAKE_DECLINE_ALL,
//   FAKE_FOREIGN_IDS, FAKE_MALFORMED_DETAILS, FAKE_KNOBS, FAKE_EXECUTE_FAILS, FAKE_SERIALIZATION,
//   FAKE_SERIALIZATION_NOT_SUPPORTED (exports the serialization trio but answers NOT_APPLICABLE, as
//   the plugin SDK does for engines without plan serialization), FAKE_USES_MISSING_DEPENDENCY,
//   FAKE_OVERRIDE_EXECUTE (exports hipdnnEnginePluginExecuteOpGraphWithOverrides, which computes
//   only the elements of the input's override shape), FAKE_ESTIMATE_SECONDS (exports
//   hipdnnEnginePluginEstimateExecutionTime_ext answering that value for every engine; a negative
//   value answers INTERNAL_ERROR instead), FAKE_COMMUNICATOR (exports
//   hipdnnEnginePluginSetCommunicator_ext, which keeps the value in the handle and logs
//   "communicator set to <pointer>").
// The engine applies to graphs made of one float pointwise RELU_FWD or IDENTITY node and computes
// it on host memory (scaled by the "fake.scale" knob when FAKE_KNOBS is set; "fake.tile.size",
// one of 1, 2, 4, ..., 64, sets the workspace to 4 bytes per tile; "fake.variant", "a" or "b",
// changes nothing).
#include <hipdnn_flatbuffers_sdk/data_objects/engine_config_generated.h>
#include <hipdnn_flatbuffers_sdk/data_objects/engine_details_generated.h>
#include <hipdnn_flatbuffers_sdk/data_objects/graph_generated.h>
#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef FAKE_PLUGIN_TYPE
#define FAKE_PLUGIN_TYPE HIPDNN_PLUGIN_TYPE_ENGINE
#endif
#ifndef FAKE_CREATE_BEHAVIOR
#define FAKE_CREATE_BEHAVIOR 0
#endif

#if FAKE_CREATE_BEHAVIOR == 4
extern "C" void* fakeSharedHandleObject();
#endif
#ifdef FAKE_USES_MISSING_DEPENDENCY
extern "C" int fakeMissingDependencyValue();
#endif

namespace {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

const char* const kEngineNames[] = {FAKE_ENGINE_NAMES};
constexpr size_t kEngineCount = sizeof(kEngineNames) / sizeof(kEngineNames[0]);

// A trivially destructible buffer: a thread_local std::string would register a thread-exit
// destructor, which makes glibc keep the library mapped after dlclose (and the unload tests
// observe unmapping).
thread_local char t_lastError[HIPDNN_PLUGIN_ERROR_STRING_MAX_LENGTH];

void setLastError(const std::string& message) {
    const size_t length = std::min(message.size(), sizeof(t_lastError) - 1);
    std::memcpy(t_lastError, message.data(), length);
    t_lastError[length] = '\0';
}

[[maybe_unused]] void appendLastError(const std::string& message) {
    setLastError(std::string(t_lastError) + message);
}
hipdnnCallback_t g_logCallback = nullptr;

struct FakeHandle {
    void* stream = nullptr;
    void* communicator = nullptr;
};

// Everything execute needs; also the serialized form of a context.
struct FakeContext {
    int32_t relu;
    int64_t inputUid;
    int64_t outputUid;
    int64_t elementCount;
    double scale;
    uint64_t workspaceSize;
};

hipdnnPluginStatus_t fail(hipdnnPluginStatus_t status, std::string message) {
    setLastError(message);
    return status;
}

[[maybe_unused]] void log(hipdnnSeverity_t severity, const std::string& message) {
    if (g_logCallback != nullptr) {
        g_logCallback(severity, ("[" FAKE_PLUGIN_NAME "] " + message).c_str());
    }
}

std::vector<int64_t> engineIds() {
    std::vector<int64_t> ids;
    for (const char* name : kEngineNames) {
        ids.push_back(hipdnn_data_sdk::utilities::engineNameToId(name));
    }
#ifdef FAKE_DUPLICATE_IDS
    ids.push_back(ids.front());
#endif
    return ids;
}

const fb::Graph* readGraph(const hipdnnPluginConstData_t* graph) {
    if (graph == nullptr || graph->ptr == nullptr) {
        return nullptr;
    }
    flatbuffers::Verifier verifier(static_cast<const uint8_t*>(graph->ptr), graph->size);
    return fb::VerifyGraphBuffer(verifier) ? fb::GetGraph(graph->ptr) : nullptr;
}

// Fills `context` when the graph is one float RELU_FWD/IDENTITY pointwise node.
bool supports(const fb::Graph* graph, FakeContext& context, std::string& reason) {
    if (graph == nullptr || graph->nodes() == nullptr || graph->nodes()->size() != 1) {
        reason = "only single-node graphs are supported";
        return false;
    }
    const fb::PointwiseAttributes* pointwise = graph->nodes()->Get(0)->attributes_as_PointwiseAttributes();
    if (pointwise == nullptr || (pointwise->operation() != fb::PointwiseMode::RELU_FWD &&
                                 pointwise->operation() != fb::PointwiseMode::IDENTITY)) {
        reason = "only pointwise RELU_FWD and IDENTITY are supported";
        return false;
    }
    context = {pointwise->operation() == fb::PointwiseMode::RELU_FWD,
               pointwise->in_0_tensor_uid(),
               pointwise->out_0_tensor_uid(),
               1,
               1.0,
               0};
    for (const fb::TensorAttributes* tensor : *graph->tensors()) {
        if (tensor->uid() == context.inputUid) {
            for (int64_t dim : *tensor->dims()) {
                context.elementCount *= dim;
            }
        }
    }
    return true;
}

}  // namespace

extern "C" {

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetName(const char** name) {
    *name = FAKE_PLUGIN_NAME;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetVersion(const char** version) {
    *version = "0.0.1";
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetType(hipdnnPluginType_t* type) {
    *type = FAKE_PLUGIN_TYPE;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT void hipdnnPluginGetLastErrorString(const char** error) {
    *error = t_lastError;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginSetLoggingCallback(hipdnnCallback_t callback) {
    g_logCallback = callback;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

#ifdef FAKE_API_VERSION
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetApiVersion(const char** version) {
    *version = FAKE_API_VERSION;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}
#endif

#ifdef FAKE_DEVICE_CPU
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnEnginePluginGetDeviceType_ext(hipdnnDeviceType_ext_t* device) {
    *device = HIPDNN_DEVICE_TYPE_CPU_EXT;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}
#endif

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetAllEngineIds(int64_t* ids, uint32_t max,
                                                                            uint32_t* count) {
#ifdef FAKE_ZERO_ENGINES
    (void)ids;
    (void)max;
    *count = 0;
#else
    const std::vector<int64_t> all = engineIds();
    *count = static_cast<uint32_t>(all.size());
    if (max > 0) {
        *count = std::min<uint32_t>(max, *count);
        std::copy_n(all.begin(), *count, ids);
    }
#endif
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetEngineName(int64_t id, const char** name) {
    for (size_t index = 0; index < kEngineCount; ++index) {
        if (hipdnn_data_sdk::utilities::engineNameToId(kEngineNames[index]) == id) {
#ifdef FAKE_LYING_NAME
            // The last engine claims a name whose hash is not its id.
            *name =
                index + 1 == kEngineCount ? "FAKE_NAME_THAT_DOES_NOT_HASH_TO_THE_ID" : kEngineNames[index];
#else
            *name = kEngineNames[index];
#endif
            return HIPDNN_PLUGIN_STATUS_SUCCESS;
        }
    }
    return fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "unknown engine id");
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreate(hipdnnEnginePluginHandle_t* handle) {
#ifdef FAKE_USES_MISSING_DEPENDENCY
    (void)fakeMissingDependencyValue();
#endif
#if FAKE_CREATE_BEHAVIOR == 1
    (void)handle;
    return fail(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR, "no compatible device found (fake)");
#elif FAKE_CREATE_BEHAVIOR == 2
    (void)handle;
    throw std::runtime_error("fake plugin create throws");
#elif FAKE_CREATE_BEHAVIOR == 3
    *handle = nullptr;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
#elif FAKE_CREATE_BEHAVIOR == 4
    *handle = static_cast<hipdnnEnginePluginHandle_t>(fakeSharedHandleObject());
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
#else
    *handle = reinterpret_cast<hipdnnEnginePluginHandle_t>(new FakeHandle());
    log(HIPDNN_SEV_INFO, "created a handle");
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
#endif
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroy(hipdnnEnginePluginHandle_t handle) {
#if FAKE_CREATE_BEHAVIOR == 0
    delete reinterpret_cast<FakeHandle*>(handle);
#else
    (void)handle;  // shared or never created: nothing owned
#endif
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginSetStream(hipdnnEnginePluginHandle_t handle,
                                                                      hipdnnPluginStream_t stream) {
#if FAKE_CREATE_BEHAVIOR == 0
    reinterpret_cast<FakeHandle*>(handle)->stream = stream;
#else
    (void)handle;
    (void)stream;
#endif
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnEnginePluginGetApplicableEngineIds(hipdnnEnginePluginHandle_t, const hipdnnPluginConstData_t* graph,
                                         int64_t* ids, uint32_t max, uint32_t* count) {
    setLastError("");
    *count = 0;
#ifdef FAKE_FOREIGN_IDS
    (void)graph;
    (void)max;
    ids[0] = hipdnn_data_sdk::utilities::engineNameToId("SOME_OTHER_PLUGINS_ENGINE");
    *count = 1;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
#else
    FakeContext context{};
    std::string reason;
#ifdef FAKE_DECLINE_ALL
    (void)context;
    (void)graph;
    reason = "declines every graph on purpose";
    const bool applies = false;
#else
    const bool applies = supports(readGraph(graph), context, reason);
#endif
    const std::vector<int64_t> all = engineIds();
    for (size_t index = 0; index < kEngineCount; ++index) {
        if (applies && *count < max) {
            ids[(*count)++] = all[index];
        } else if (!applies) {
            appendLastError(std::string(kEngineNames[index]) + ": " + reason + "\n");
        }
    }
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
#endif
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnEnginePluginGetEngineDetails(hipdnnEnginePluginHandle_t, int64_t id, const hipdnnPluginConstData_t*,
                                   hipdnnPluginConstData_t* details) {
#ifdef FAKE_MALFORMED_DETAILS
    (void)id;
    static const uint8_t garbage[] = {1, 2, 3};
    details->ptr = garbage;
    details->size = sizeof(garbage);
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
#else
    flatbuffers::FlatBufferBuilder builder;
    std::vector<flatbuffers::Offset<fb::Knob> > knobs;
#ifdef FAKE_KNOBS
    static const std::vector<int64_t> kTileSizes{1, 2, 4, 8, 16, 32, 64};
    knobs.push_back(fb::CreateKnobDirect(
        builder, "fake.tile.size", "Workspace tiles (4 bytes each)", fb::KnobValue::IntValue,
        fb::CreateIntValue(builder, 8).Union(), fb::KnobConstraint::IntConstraint,
        fb::CreateIntConstraintDirect(builder, 1, 64, 1, &kTileSizes).Union(), false,
        fb::KnobValueType::INT64));
    knobs.push_back(fb::CreateKnobDirect(
        builder, "fake.scale", "Output scale", fb::KnobValue::FloatValue,
        fb::CreateFloatValue(builder, 1.0).Union(), fb::KnobConstraint::FloatConstraint,
        fb::CreateFloatConstraint(builder, 0.0, 10.0).Union(), false, fb::KnobValueType::FLOAT64));
    const std::vector<flatbuffers::Offset<flatbuffers::String> > variants{builder.CreateString("a"),
                                                                          builder.CreateString("b")};
    knobs.push_back(fb::CreateKnobDirect(
        builder, "fake.variant", "A choice with no effect", fb::KnobValue::StringValue,
        fb::CreateStringValueDirect(builder, "a").Union(), fb::KnobConstraint::StringConstraint,
        fb::CreateStringConstraintDirect(builder, 0, &variants).Union(), false, fb::KnobValueType::STRING));
#endif
    const std::vector<fb::BehaviorNote> notes = {fb::BehaviorNote::DETERMINISTIC};
    builder.Finish(fb::CreateEngineDetailsDirect(builder, id, &knobs, &notes, nullptr));
    auto* copy = new uint8_t[builder.GetSize()];
    std::memcpy(copy, builder.GetBufferPointer(), builder.GetSize());
    details->ptr = copy;
    details->size = builder.GetSize();
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
#endif
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnEnginePluginDestroyEngineDetails(hipdnnEnginePluginHandle_t, hipdnnPluginConstData_t* details) {
#ifndef FAKE_MALFORMED_DETAILS
    delete[] static_cast<const uint8_t*>(details->ptr);
#endif
    details->ptr = nullptr;
    details->size = 0;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

namespace {

// Reads the knobs of a serialized EngineConfig into the context.
hipdnnPluginStatus_t applyConfig(const hipdnnPluginConstData_t* config, FakeContext& context) {
    flatbuffers::Verifier verifier(static_cast<const uint8_t*>(config->ptr), config->size);
    if (!fb::VerifyEngineConfigBuffer(verifier)) {
        return fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "engine config fails verification");
    }
    context.workspaceSize = 0;
#ifdef FAKE_KNOBS
    context.workspaceSize = 8 * 4;
    const fb::EngineConfig* parsed = fb::GetEngineConfig(config->ptr);
    if (parsed->knobs() != nullptr) {
        for (const fb::KnobSetting* knob : *parsed->knobs()) {
            if (knob->knob_id()->str() == "fake.tile.size" && knob->value_as_IntValue() != nullptr) {
                const int64_t tiles = knob->value_as_IntValue()->value();
                if (tiles < 1 || tiles > 64) {
                    return fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                                "fake.tile.size " + std::to_string(tiles) + " is outside [1, 64]");
                }
                context.workspaceSize = static_cast<uint64_t>(tiles) * 4;
            } else if (knob->knob_id()->str() == "fake.scale" && knob->value_as_FloatValue() != nullptr) {
                context.scale = knob->value_as_FloatValue()->value();
            }
        }
    }
#endif
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

}  // namespace

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnEnginePluginGetWorkspaceSize(hipdnnEnginePluginHandle_t, const hipdnnPluginConstData_t* config,
                                   const hipdnnPluginConstData_t* graph, size_t* size) {
    FakeContext context{};
    std::string reason;
    if (!supports(readGraph(graph), context, reason)) {
        return fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, reason);
    }
    const hipdnnPluginStatus_t status = applyConfig(config, context);
    *size = context.workspaceSize;
    return status;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreateExecutionContext(
    hipdnnEnginePluginHandle_t, const hipdnnPluginConstData_t* config, const hipdnnPluginConstData_t* graph,
    hipdnnEnginePluginExecutionContext_t* context) {
    FakeContext built{};
    std::string reason;
    if (!supports(readGraph(graph), built, reason)) {
        return fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, reason);
    }
    const hipdnnPluginStatus_t status = applyConfig(config, built);
    if (status != HIPDNN_PLUGIN_STATUS_SUCCESS) {
        return status;
    }
    *context = reinterpret_cast<hipdnnEnginePluginExecutionContext_t>(new FakeContext(built));
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroyExecutionContext(
    hipdnnEnginePluginHandle_t, hipdnnEnginePluginExecutionContext_t context) {
    delete reinterpret_cast<FakeContext*>(context);
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext(
    hipdnnEnginePluginHandle_t, hipdnnEnginePluginExecutionContext_t context, size_t* size) {
    *size = reinterpret_cast<FakeContext*>(context)->workspaceSize;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

#ifndef FAKE_OMIT_EXECUTE
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnEnginePluginExecuteOpGraph(hipdnnEnginePluginHandle_t, hipdnnEnginePluginExecutionContext_t context,
                                 void* workspace, const hipdnnPluginDeviceBuffer_t* buffers, uint32_t count) {
#ifdef FAKE_EXECUTE_FAILS
    (void)context;
    (void)workspace;
    (void)buffers;
    (void)count;
    return fail(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR, "fake kernel launch failed");
#else
    const auto& plan = *reinterpret_cast<const FakeContext*>(context);
    if (plan.workspaceSize > 0 && workspace == nullptr) {
        return fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "workspace is null");
    }
    const float* input = nullptr;
    float* output = nullptr;
    for (uint32_t index = 0; index < count; ++index) {
        if (buffers[index].uid == plan.inputUid) {
            input = static_cast<const float*>(buffers[index].ptr);
        } else if (buffers[index].uid == plan.outputUid) {
            output = static_cast<float*>(buffers[index].ptr);
        }
    }
    if (input == nullptr || output == nullptr) {
        return fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "missing input or output buffer");
    }
    for (int64_t index = 0; index < plan.elementCount; ++index) {
        const float value = plan.relu ? std::max(input[index], 0.0f) : input[index];
        output[index] = static_cast<float>(value * plan.scale);
    }
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
#endif
}
#endif

#ifdef FAKE_OVERRIDE_EXECUTE
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginExecuteOpGraphWithOverrides(
    hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t context, void* workspace,
    const hipdnnPluginDeviceBuffer_t* buffers, uint32_t count, uint32_t overrideCount,
    const int64_t* overrideUids, const uint32_t* overrideLengths, const int64_t* const* overrideShapes,
    const int64_t* const*) {
    FakeContext plan = *reinterpret_cast<const FakeContext*>(context);
    for (uint32_t index = 0; index < overrideCount; ++index) {
        if (overrideUids[index] == plan.inputUid) {
            plan.elementCount = 1;
            for (uint32_t dim = 0; dim < overrideLengths[index]; ++dim) {
                plan.elementCount *= overrideShapes[index][dim];
            }
        }
    }
    return hipdnnEnginePluginExecuteOpGraph(
        handle, reinterpret_cast<hipdnnEnginePluginExecutionContext_t>(&plan), workspace, buffers, count);
}
#endif

#ifdef FAKE_ESTIMATE_SECONDS
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginEstimateExecutionTime_ext(
    hipdnnEnginePluginHandle_t, int64_t, const hipdnnPluginConstData_t*, hipdnnEnginePredictionKind_t,
    double* seconds) {
    const double estimate = FAKE_ESTIMATE_SECONDS;
    if (estimate < 0.0) {
        setLastError("estimate failed on purpose");
        return HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR;
    }
    *seconds = estimate;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}
#endif

#ifdef FAKE_COMMUNICATOR
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
hipdnnEnginePluginSetCommunicator_ext(hipdnnEnginePluginHandle_t handle, void* communicator) {
    if (handle == nullptr) {
        return fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "handle is null");
    }
    auto& fakeHandle = *reinterpret_cast<FakeHandle*>(handle);
    fakeHandle.communicator = communicator;
    char pointer[32];
    std::snprintf(pointer, sizeof(pointer), "%p", fakeHandle.communicator);
    log(HIPDNN_SEV_INFO, std::string("communicator set to ") + pointer);
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}
#endif

#ifdef FAKE_SERIALIZATION
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginSerializeExecutionContext(
    hipdnnEnginePluginHandle_t, hipdnnEnginePluginExecutionContext_t context,
    hipdnnPluginConstData_t* serialized) {
    auto* copy = new FakeContext(*reinterpret_cast<const FakeContext*>(context));
    serialized->ptr = copy;
    serialized->size = sizeof(FakeContext);
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroySerializedExecutionContext(
    hipdnnEnginePluginHandle_t, hipdnnPluginConstData_t* serialized) {
    delete static_cast<const FakeContext*>(serialized->ptr);
    serialized->ptr = nullptr;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreateExecutionContextFromSerialized(
    hipdnnEnginePluginHandle_t, const hipdnnPluginConstData_t* serialized,
    hipdnnEnginePluginExecutionContext_t* context) {
    if (serialized->size != sizeof(FakeContext)) {
        return fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "serialized context has the wrong size");
    }
    FakeContext restored;
    std::memcpy(&restored, serialized->ptr, sizeof(FakeContext));
    *context = reinterpret_cast<hipdnnEnginePluginExecutionContext_t>(new FakeContext(restored));
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}
#endif

#ifdef FAKE_SERIALIZATION_NOT_SUPPORTED
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginSerializeExecutionContext(
    hipdnnEnginePluginHandle_t, hipdnnEnginePluginExecutionContext_t, hipdnnPluginConstData_t* serialized) {
    serialized->ptr = nullptr;
    serialized->size = 0;
    return fail(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE, "this execution context does not support serialization");
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroySerializedExecutionContext(
    hipdnnEnginePluginHandle_t, hipdnnPluginConstData_t* serialized) {
    serialized->ptr = nullptr;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreateExecutionContextFromSerialized(
    hipdnnEnginePluginHandle_t, const hipdnnPluginConstData_t*, hipdnnEnginePluginExecutionContext_t*) {
    return fail(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
                "engine FAKE_NO_SERIALIZATION_ENGINE does not support execution context deserialization");
}
#endif

}  // extern "C"
