// Runs a serialized graph through the backend C API the way an integration test needs it: the
// heuristics' first configuration (mode FALLBACK), one plan, one execute. Header-only so that the
// test SDK library itself does not depend on the backend; include it from a target that links
// hipdnn_backend.
#pragma once

#include <hipdnn_backend.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace hipdnn_test_sdk {

/// Throws std::runtime_error("<call> failed: <the backend's last error>") unless `status` is
/// HIPDNN_STATUS_SUCCESS.
inline void checkBackend(hipdnnStatus_t status, const std::string& call) {
    if (status != HIPDNN_STATUS_SUCCESS) {
        char message[HIPDNN_ERROR_STRING_MAX_LENGTH] = {};
        hipdnnGetLastErrorString(message, sizeof(message));
        throw std::runtime_error(call + " failed: " + message);
    }
}

namespace backend_run_detail {

/// Owns one backend descriptor.
struct Descriptor {
    explicit Descriptor(hipdnnBackendDescriptorType_t type) {
        checkBackend(hipdnnBackendCreateDescriptor(type, &handle), "hipdnnBackendCreateDescriptor");
    }
    Descriptor() = default;  // for descriptors a deserializer creates
    ~Descriptor() {
        if (handle != nullptr) {
            hipdnnBackendDestroyDescriptor(handle);
        }
    }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    hipdnnBackendDescriptor_t handle = nullptr;
};

}  // namespace backend_run_detail

/// A finalized operation graph and its finalized heuristics (mode FALLBACK) on a handle.
class BackendHeuristics {
public:
    BackendHeuristics(hipdnnHandle_t handle, const std::vector<uint8_t>& graph) {
        checkBackend(
            hipdnnBackendCreateAndDeserializeGraph_ext(&_operationGraph.handle, graph.data(), graph.size()),
            "hipdnnBackendCreateAndDeserializeGraph_ext");
        checkBackend(hipdnnBackendSetAttribute(_operationGraph.handle, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE,
                                               HIPDNN_TYPE_HANDLE, 1, &handle),
                     "set OPERATIONGRAPH_HANDLE");
        checkBackend(hipdnnBackendFinalize(_operationGraph.handle), "finalize OPERATIONGRAPH");
        checkBackend(hipdnnBackendSetAttribute(_heuristics.handle, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH,
                                               HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &_operationGraph.handle),
                     "set ENGINEHEUR_OPERATION_GRAPH");
        const hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
        checkBackend(hipdnnBackendSetAttribute(_heuristics.handle, HIPDNN_ATTR_ENGINEHEUR_MODE,
                                               HIPDNN_TYPE_HEUR_MODE, 1, &mode),
                     "set ENGINEHEUR_MODE");
        checkBackend(hipdnnBackendFinalize(_heuristics.handle), "finalize ENGINEHEUR");
        checkBackend(hipdnnBackendGetAttribute(_heuristics.handle, HIPDNN_ATTR_ENGINEHEUR_RESULTS,
                                               HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &_resultCount, nullptr),
                     "get ENGINEHEUR_RESULTS count");
    }

    /// How many engine configurations the heuristics returned.
    int64_t resultCount() const { return _resultCount; }

    /// The declined engines, one "<engine>\t<plugin>\t<reason>" line each.
    std::string declined() const {
        int64_t length = 0;
        checkBackend(hipdnnBackendGetAttribute(_heuristics.handle, HIPDNN_ATTR_ENGINEHEUR_DECLINED_EXT,
                                               HIPDNN_TYPE_CHAR, 0, &length, nullptr),
                     "get ENGINEHEUR_DECLINED_EXT length");
        std::string text(static_cast<size_t>(length), '\0');
        checkBackend(hipdnnBackendGetAttribute(_heuristics.handle, HIPDNN_ATTR_ENGINEHEUR_DECLINED_EXT,
                                               HIPDNN_TYPE_CHAR, length, &length, text.data()),
                     "get ENGINEHEUR_DECLINED_EXT");
        return text.substr(0, text.find('\0'));
    }

    /// Plans the first ranked configuration and executes it once on `pointers` (uid -> buffer
    /// on the handle's device); `workspace` returns a buffer of the requested bytes (called only
    /// when the plan needs one). Throws std::runtime_error naming the failing call and the
    /// backend's last error, or "no engine accepted the graph; declined:\n..." when the
    /// heuristics returned nothing.
    void execute(hipdnnHandle_t handle, const std::map<int64_t, void*>& pointers,
                 const std::function<void*(size_t)>& workspace) const {
        using backend_run_detail::Descriptor;
        if (_resultCount == 0) {
            throw std::runtime_error("no engine accepted the graph; declined:\n" + declined());
        }
        Descriptor config(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
        int64_t filled = 0;
        checkBackend(hipdnnBackendGetAttribute(_heuristics.handle, HIPDNN_ATTR_ENGINEHEUR_RESULTS,
                                               HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &filled, &config.handle),
                     "get ENGINEHEUR_RESULTS");
        checkBackend(hipdnnBackendFinalize(config.handle), "finalize ENGINECFG");
        Descriptor plan(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
        checkBackend(hipdnnBackendSetAttribute(plan.handle, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG,
                                               HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &config.handle),
                     "set EXECUTION_PLAN_ENGINE_CONFIG");
        checkBackend(hipdnnBackendFinalize(plan.handle), "finalize EXECUTION_PLAN");
        int64_t workspaceSize = 0;
        checkBackend(hipdnnBackendGetAttribute(plan.handle, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE,
                                               HIPDNN_TYPE_INT64, 1, &filled, &workspaceSize),
                     "get EXECUTION_PLAN_WORKSPACE_SIZE");
        void* workspacePointer = workspaceSize > 0 ? workspace(static_cast<size_t>(workspaceSize)) : nullptr;
        std::vector<int64_t> uids;
        std::vector<void*> data;
        for (const auto& [uid, pointer] : pointers) {
            uids.push_back(uid);
            data.push_back(pointer);
        }
        Descriptor pack(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
        checkBackend(
            hipdnnBackendSetAttribute(pack.handle, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64,
                                      static_cast<int64_t>(uids.size()), uids.data()),
            "set VARIANT_PACK_UNIQUE_IDS");
        checkBackend(
            hipdnnBackendSetAttribute(pack.handle, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS,
                                      HIPDNN_TYPE_VOID_PTR, static_cast<int64_t>(data.size()), data.data()),
            "set VARIANT_PACK_DATA_POINTERS");
        checkBackend(hipdnnBackendSetAttribute(pack.handle, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE,
                                               HIPDNN_TYPE_VOID_PTR, 1, &workspacePointer),
                     "set VARIANT_PACK_WORKSPACE");
        checkBackend(hipdnnBackendFinalize(pack.handle), "finalize VARIANT_PACK");
        checkBackend(hipdnnBackendExecute(handle, plan.handle, pack.handle), "hipdnnBackendExecute");
    }

private:
    backend_run_detail::Descriptor _operationGraph;
    backend_run_detail::Descriptor _heuristics{HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR};
    int64_t _resultCount = 0;
};

/// BackendHeuristics(handle, graph).execute(...) with every failure as the returned message
/// ("" on success).
inline std::string runThroughBackend(hipdnnHandle_t handle, const std::vector<uint8_t>& graph,
                                     const std::map<int64_t, void*>& pointers,
                                     const std::function<void*(size_t)>& workspace) {
    try {
        BackendHeuristics(handle, graph).execute(handle, pointers, workspace);
    } catch (const std::exception& error) {
        return error.what();
    }
    return {};
}

}  // namespace hipdnn_test_sdk
