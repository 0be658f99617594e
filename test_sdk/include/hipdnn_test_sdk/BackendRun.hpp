// Runs serialized graphs through the backend C API: deserialize and finalize the graph, ask the
// heuristics (or name an engine by id), build the engine config and the execution plan, bind the
// buffers in a variant pack, execute. The integration tests, the benchmark programs and the
// example plugin all drive the backend through this one header.
//
//   BackendHandle handle(HIPDNN_DEVICE_TYPE_CPU_EXT);
//   BackendPlan plan{BackendHeuristics{handle.get(), serializedGraph}};  // the heuristics' first
//   // or: BackendPlan plan{BackendGraph{handle.get(), serializedGraph}, engineId};
//   std::vector<std::byte> workspace(static_cast<size_t>(plan.workspaceSize()));
//   const BackendVariantPack pack({{xUid, x}, {yUid, y}}, workspace.data());
//   plan.execute(pack);  // exactly one hipdnnBackendExecute: loop over it to time an engine
//
// Each step is one object and makes only the calls its constructor documents (the workspace
// size is queried on demand), so a benchmark of one step measures the backend, not this file.
// Every failing call throws BackendError naming the call, its status and the backend's last
// error. The backend keeps what a descriptor refers to alive: a graph or heuristics may be
// destroyed once the plan is built.
//
// Header-only so that the test SDK library itself does not depend on the backend: include it
// from a target that links hipdnn_backend.
#pragma once

#include <hipdnn_backend.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hipdnn_test_sdk {

/// A failed backend call: "<call> failed (<status>: <description>): <the backend's last error>".
class BackendError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

namespace backend_run_detail {

[[noreturn]] inline void throwBackendError(hipdnnStatus_t status, std::string_view call) {
    char message[HIPDNN_ERROR_STRING_MAX_LENGTH] = {};
    hipdnnGetLastErrorString(message, sizeof(message));
    std::string text = std::string(call) + " failed (" + hipdnnGetErrorString(status) + ")";
    if (message[0] != '\0') {
        text += std::string(": ") + message;
    }
    throw BackendError(text);
}

}  // namespace backend_run_detail

/// Throws BackendError unless `status` is HIPDNN_STATUS_SUCCESS; costs one comparison otherwise.
inline void checkBackend(hipdnnStatus_t status, std::string_view call) {
    if (status != HIPDNN_STATUS_SUCCESS) [[unlikely]] {
        backend_run_detail::throwBackendError(status, call);
    }
}

namespace backend_run_detail {

/// Owns one backend descriptor.
class Descriptor {
public:
    Descriptor() = default;  // for a descriptor a deserializer creates (see out())
    Descriptor(hipdnnBackendDescriptorType_t type, std::string_view call) {
        checkBackend(hipdnnBackendCreateDescriptor(type, &_handle), call);
    }
    ~Descriptor() { reset(); }
    Descriptor(Descriptor&& other) noexcept : _handle(std::exchange(other._handle, nullptr)) {}
    Descriptor& operator=(Descriptor&& other) noexcept {
        if (this != &other) {
            reset();
            _handle = std::exchange(other._handle, nullptr);
        }
        return *this;
    }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;

    hipdnnBackendDescriptor_t get() const noexcept { return _handle; }
    hipdnnBackendDescriptor_t* out() noexcept { return &_handle; }

    /// One element of `value`'s type.
    template <class T>
    void set(hipdnnBackendAttributeName_t name, hipdnnBackendAttributeType_t type, const T& value,
             std::string_view call) {
        checkBackend(hipdnnBackendSetAttribute(_handle, name, type, 1, &value), call);
    }
    void finalize(std::string_view call) { checkBackend(hipdnnBackendFinalize(_handle), call); }

private:
    void reset() noexcept {
        if (_handle != nullptr) {
            hipdnnBackendDestroyDescriptor(_handle);
            _handle = nullptr;
        }
    }

    hipdnnBackendDescriptor_t _handle = nullptr;
};

}  // namespace backend_run_detail

/// A backend handle bound to one device (hipdnnCreateForDevice_ext); destroyed with it.
class BackendHandle {
public:
    explicit BackendHandle(hipdnnDeviceType_ext_t device, int ordinal = 0) {
        checkBackend(hipdnnCreateForDevice_ext(&_handle, device, ordinal), "hipdnnCreateForDevice_ext");
    }
    ~BackendHandle() {
        if (_handle != nullptr) {
            hipdnnDestroy(_handle);
        }
    }
    BackendHandle(BackendHandle&& other) noexcept : _handle(std::exchange(other._handle, nullptr)) {}
    BackendHandle& operator=(BackendHandle&&) = delete;
    BackendHandle(const BackendHandle&) = delete;
    BackendHandle& operator=(const BackendHandle&) = delete;

    hipdnnHandle_t get() const noexcept { return _handle; }

private:
    hipdnnHandle_t _handle = nullptr;
};

/// A finalized OPERATIONGRAPH: deserialize, set the handle, finalize.
class BackendGraph {
public:
    BackendGraph(hipdnnHandle_t handle, const std::vector<uint8_t>& serializedGraph) : _handle(handle) {
        checkBackend(hipdnnBackendCreateAndDeserializeGraph_ext(_graph.out(), serializedGraph.data(),
                                                                serializedGraph.size()),
                     "hipdnnBackendCreateAndDeserializeGraph_ext");
        _graph.set(HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, handle,
                   "set OPERATIONGRAPH_HANDLE");
        _graph.finalize("finalize OPERATIONGRAPH");
    }

    hipdnnHandle_t handle() const noexcept { return _handle; }
    hipdnnBackendDescriptor_t descriptor() const noexcept { return _graph.get(); }

private:
    hipdnnHandle_t _handle;
    backend_run_detail::Descriptor _graph;
};

/// A finalized ENGINEHEUR over a graph: create, set the graph and the mode, finalize. Nothing
/// else is asked until a method is called.
class BackendHeuristics {
public:
    explicit BackendHeuristics(const BackendGraph& graph,
                               hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK)
        : _handle(graph.handle()), _heuristics(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, "create ENGINEHEUR") {
        const hipdnnBackendDescriptor_t operationGraph = graph.descriptor();
        _heuristics.set(HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR,
                        operationGraph, "set ENGINEHEUR_OPERATION_GRAPH");
        _heuristics.set(HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, mode, "set ENGINEHEUR_MODE");
        _heuristics.finalize("finalize ENGINEHEUR");
    }
    /// BackendHeuristics(BackendGraph(handle, serializedGraph), mode).
    BackendHeuristics(hipdnnHandle_t handle, const std::vector<uint8_t>& serializedGraph,
                      hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK)
        : BackendHeuristics(BackendGraph(handle, serializedGraph), mode) {}

    /// How many engine configurations the heuristics returned.
    int64_t resultCount() const {
        int64_t count = 0;
        checkBackend(hipdnnBackendGetAttribute(_heuristics.get(), HIPDNN_ATTR_ENGINEHEUR_RESULTS,
                                               HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, nullptr),
                     "get ENGINEHEUR_RESULTS count");
        return count;
    }

    /// The engine ids of the results, in the heuristics' order.
    std::vector<int64_t> engineIds() const {
        const int64_t count = resultCount();
        std::vector<backend_run_detail::Descriptor> configs;
        std::vector<hipdnnBackendDescriptor_t> targets;
        for (int64_t i = 0; i < count; ++i) {
            targets.push_back(
                configs.emplace_back(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, "create ENGINECFG").get());
        }
        int64_t filled = 0;
        if (count > 0) {
            checkBackend(
                hipdnnBackendGetAttribute(_heuristics.get(), HIPDNN_ATTR_ENGINEHEUR_RESULTS,
                                          HIPDNN_TYPE_BACKEND_DESCRIPTOR, count, &filled, targets.data()),
                "get ENGINEHEUR_RESULTS");
        }
        std::vector<int64_t> ids;
        for (int64_t i = 0; i < filled; ++i) {
            configs[static_cast<size_t>(i)].finalize("finalize ENGINECFG");
            backend_run_detail::Descriptor engine(HIPDNN_BACKEND_ENGINE_DESCRIPTOR, "create ENGINE");
            hipdnnBackendDescriptor_t engineTarget = engine.get();
            int64_t one = 0;
            checkBackend(
                hipdnnBackendGetAttribute(targets[static_cast<size_t>(i)], HIPDNN_ATTR_ENGINECFG_ENGINE,
                                          HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &one, &engineTarget),
                "get ENGINECFG_ENGINE");
            int64_t id = 0;
            checkBackend(hipdnnBackendGetAttribute(engineTarget, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX,
                                                   HIPDNN_TYPE_INT64, 1, &one, &id),
                         "get ENGINE_GLOBAL_INDEX");
            ids.push_back(id);
        }
        return ids;
    }

    /// The declined engines, one "<engine>\t<plugin>\t<reason>\n" line each.
    std::string declined() const {
        int64_t length = 0;
        checkBackend(hipdnnBackendGetAttribute(_heuristics.get(), HIPDNN_ATTR_ENGINEHEUR_DECLINED_EXT,
                                               HIPDNN_TYPE_CHAR, 0, &length, nullptr),
                     "get ENGINEHEUR_DECLINED_EXT length");
        std::string text(static_cast<size_t>(length), '\0');
        checkBackend(hipdnnBackendGetAttribute(_heuristics.get(), HIPDNN_ATTR_ENGINEHEUR_DECLINED_EXT,
                                               HIPDNN_TYPE_CHAR, length, &length, text.data()),
                     "get ENGINEHEUR_DECLINED_EXT");
        return text.substr(0, text.find('\0'));  // the length counts the terminating NUL
    }

    hipdnnHandle_t handle() const noexcept { return _handle; }
    hipdnnBackendDescriptor_t descriptor() const noexcept { return _heuristics.get(); }

private:
    hipdnnHandle_t _handle;
    backend_run_detail::Descriptor _heuristics;
};

/// A finalized VARIANT_PACK: the buffers of one execution (uid -> memory on the handle's device)
/// and the workspace (null when the plan needs none).
class BackendVariantPack {
public:
    BackendVariantPack(const std::map<int64_t, void*>& pointers, void* workspace)
        : _pack(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, "create VARIANT_PACK") {
        std::vector<int64_t> uids;
        std::vector<void*> data;
        for (const auto& [uid, pointer] : pointers) {
            uids.push_back(uid);
            data.push_back(pointer);
        }
        checkBackend(
            hipdnnBackendSetAttribute(_pack.get(), HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64,
                                      static_cast<int64_t>(uids.size()), uids.data()),
            "set VARIANT_PACK_UNIQUE_IDS");
        checkBackend(
            hipdnnBackendSetAttribute(_pack.get(), HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS,
                                      HIPDNN_TYPE_VOID_PTR, static_cast<int64_t>(data.size()), data.data()),
            "set VARIANT_PACK_DATA_POINTERS");
        _pack.set(HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, workspace,
                  "set VARIANT_PACK_WORKSPACE");
        _pack.finalize("finalize VARIANT_PACK");
    }

    hipdnnBackendDescriptor_t descriptor() const noexcept { return _pack.get(); }

private:
    backend_run_detail::Descriptor _pack;
};

/// A finalized EXECUTION_PLAN, built once and executed as often as wanted.
class BackendPlan {
public:
    /// The heuristics' first configuration: create an ENGINECFG, get ENGINEHEUR_RESULTS into it,
    /// finalize it, then plan it. Throws BackendError("no engine accepted the graph; declined:\n
    /// <declined()>") when the heuristics returned nothing.
    explicit BackendPlan(const BackendHeuristics& heuristics) : _handle(heuristics.handle()) {
        backend_run_detail::Descriptor config(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, "create ENGINECFG");
        hipdnnBackendDescriptor_t target = config.get();
        int64_t filled = 0;
        checkBackend(hipdnnBackendGetAttribute(heuristics.descriptor(), HIPDNN_ATTR_ENGINEHEUR_RESULTS,
                                               HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &filled, &target),
                     "get ENGINEHEUR_RESULTS");
        if (filled == 0) {
            throw BackendError("no engine accepted the graph; declined:\n" + heuristics.declined());
        }
        config.finalize("finalize ENGINECFG");
        plan(config);
    }

    /// Engine `engineId` on `graph`, heuristics bypassed: an ENGINE (graph, global index), an
    /// ENGINECFG with one KNOB_CHOICE per entry of `intKnobs` (knob id -> value; other knobs keep
    /// their defaults), then the plan.
    BackendPlan(const BackendGraph& graph, int64_t engineId,
                const std::map<std::string, int64_t>& intKnobs = {})
        : _handle(graph.handle()) {
        backend_run_detail::Descriptor engine(HIPDNN_BACKEND_ENGINE_DESCRIPTOR, "create ENGINE");
        engine.set(HIPDNN_ATTR_ENGINE_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, graph.descriptor(),
                   "set ENGINE_OPERATION_GRAPH");
        engine.set(HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, engineId, "set ENGINE_GLOBAL_INDEX");
        engine.finalize("finalize ENGINE");
        backend_run_detail::Descriptor config(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, "create ENGINECFG");
        config.set(HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, engine.get(),
                   "set ENGINECFG_ENGINE");
        std::vector<backend_run_detail::Descriptor> choices;
        std::vector<hipdnnBackendDescriptor_t> handles;
        for (const auto& [id, value] : intKnobs) {
            backend_run_detail::Descriptor& choice =
                choices.emplace_back(HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR, "create KNOB_CHOICE");
            checkBackend(
                hipdnnBackendSetAttribute(choice.get(), HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE, HIPDNN_TYPE_CHAR,
                                          static_cast<int64_t>(id.size()), id.data()),
                "set KNOB_CHOICE_KNOB_TYPE");
            choice.set(HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, HIPDNN_TYPE_INT64, value,
                       "set KNOB_CHOICE_KNOB_VALUE");
            choice.finalize("finalize KNOB_CHOICE");
            handles.push_back(choice.get());
        }
        if (!handles.empty()) {
            checkBackend(hipdnnBackendSetAttribute(config.get(), HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES,
                                                   HIPDNN_TYPE_BACKEND_DESCRIPTOR,
                                                   static_cast<int64_t>(handles.size()), handles.data()),
                         "set ENGINECFG_KNOB_CHOICES");
        }
        config.finalize("finalize ENGINECFG");
        plan(config);
    }

    /// The workspace the plan needs, in bytes (one query per call).
    int64_t workspaceSize() const {
        int64_t bytes = 0;
        int64_t count = 0;
        checkBackend(hipdnnBackendGetAttribute(_plan.get(), HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE,
                                               HIPDNN_TYPE_INT64, 1, &count, &bytes),
                     "get EXECUTION_PLAN_WORKSPACE_SIZE");
        return bytes;
    }

    /// One hipdnnBackendExecute on a pack built once: what a timing loop repeats.
    void execute(const BackendVariantPack& pack) const {
        checkBackend(hipdnnBackendExecute(_handle, _plan.get(), pack.descriptor()), "hipdnnBackendExecute");
    }

    /// Executes once on `pointers` (uid -> buffer on the handle's device); `workspace` returns a
    /// buffer of the requested bytes and is called only when the plan needs one.
    void execute(const std::map<int64_t, void*>& pointers,
                 const std::function<void*(size_t)>& workspace) const {
        const int64_t bytes = workspaceSize();
        execute(BackendVariantPack(pointers, bytes > 0 ? workspace(static_cast<size_t>(bytes)) : nullptr));
    }

    /// Replaces the plan with the one rebuilt from its serialized bytes
    /// (hipdnnBackendGetSerializedExecutionPlan_ext, then ...CreateAndDeserializeExecutionPlan_ext).
    void reloadFromSerialized() {
        size_t size = 0;
        checkBackend(hipdnnBackendGetSerializedExecutionPlan_ext(_plan.get(), 0, &size, nullptr),
                     "hipdnnBackendGetSerializedExecutionPlan_ext (size)");
        std::vector<uint8_t> bytes(size);
        checkBackend(
            hipdnnBackendGetSerializedExecutionPlan_ext(_plan.get(), bytes.size(), &size, bytes.data()),
            "hipdnnBackendGetSerializedExecutionPlan_ext");
        backend_run_detail::Descriptor reloaded;
        checkBackend(
            hipdnnBackendCreateAndDeserializeExecutionPlan_ext(_handle, reloaded.out(), bytes.data(), size),
            "hipdnnBackendCreateAndDeserializeExecutionPlan_ext");
        _plan = std::move(reloaded);
    }

    hipdnnHandle_t handle() const noexcept { return _handle; }
    hipdnnBackendDescriptor_t descriptor() const noexcept { return _plan.get(); }

private:
    void plan(const backend_run_detail::Descriptor& config) {
        _plan =
            backend_run_detail::Descriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, "create EXECUTION_PLAN");
        _plan.set(HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, config.get(),
                  "set EXECUTION_PLAN_ENGINE_CONFIG");
        _plan.finalize("finalize EXECUTION_PLAN");
    }

    hipdnnHandle_t _handle;
    backend_run_detail::Descriptor _plan;
};

/// The heuristics' first configuration (mode FALLBACK) planned and executed once, every failure
/// as the returned message ("" on success): BackendPlan{BackendHeuristics{handle, graph}}
/// .execute(pointers, workspace).
inline std::string runThroughBackend(hipdnnHandle_t handle, const std::vector<uint8_t>& graph,
                                     const std::map<int64_t, void*>& pointers,
                                     const std::function<void*(size_t)>& workspace) {
    try {
        BackendPlan{BackendHeuristics{handle, graph}}.execute(pointers, workspace);
    } catch (const std::exception& error) {
        return error.what();
    }
    return {};
}

}  // namespace hipdnn_test_sdk
