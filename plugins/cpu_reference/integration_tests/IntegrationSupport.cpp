#include "IntegrationSupport.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>

namespace cpu_reference_integration {

namespace {

std::string lastError(const std::string& call) {
    char message[HIPDNN_ERROR_STRING_MAX_LENGTH] = {};
    hipdnnGetLastErrorString(message, sizeof(message));
    return call + " failed: " + message;
}

// Owns one backend descriptor.
struct Descriptor {
    explicit Descriptor(hipdnnBackendDescriptorType_t type) {
        if (hipdnnBackendCreateDescriptor(type, &handle) != HIPDNN_STATUS_SUCCESS) {
            throw std::runtime_error(lastError("hipdnnBackendCreateDescriptor"));
        }
    }
    Descriptor() = default;
    ~Descriptor() {
        if (handle != nullptr) {
            hipdnnBackendDestroyDescriptor(handle);
        }
    }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    hipdnnBackendDescriptor_t handle = nullptr;
};

void check(hipdnnStatus_t status, const std::string& call) {
    if (status != HIPDNN_STATUS_SUCCESS) {
        throw std::runtime_error(lastError(call));
    }
}

// A finalized operation graph and heuristics descriptor for `graph` on `handle`.
struct Planned {
    Descriptor operationGraph;
    Descriptor heuristics{HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR};
    int64_t resultCount = 0;

    Planned(hipdnnHandle_t handle, const std::vector<uint8_t>& graph) {
        check(hipdnnBackendCreateAndDeserializeGraph_ext(&operationGraph.handle, graph.data(), graph.size()),
              "hipdnnBackendCreateAndDeserializeGraph_ext");
        check(hipdnnBackendSetAttribute(operationGraph.handle, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE,
                                        HIPDNN_TYPE_HANDLE, 1, &handle),
              "set OPERATIONGRAPH_HANDLE");
        check(hipdnnBackendFinalize(operationGraph.handle), "finalize OPERATIONGRAPH");
        check(hipdnnBackendSetAttribute(heuristics.handle, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH,
                                        HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &operationGraph.handle),
              "set ENGINEHEUR_OPERATION_GRAPH");
        const hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
        check(hipdnnBackendSetAttribute(heuristics.handle, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE,
                                        1, &mode),
              "set ENGINEHEUR_MODE");
        check(hipdnnBackendFinalize(heuristics.handle), "finalize ENGINEHEUR");
        check(hipdnnBackendGetAttribute(heuristics.handle, HIPDNN_ATTR_ENGINEHEUR_RESULTS,
                                        HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &resultCount, nullptr),
              "get ENGINEHEUR_RESULTS count");
    }

    std::string declined() const {
        int64_t length = 0;
        check(hipdnnBackendGetAttribute(heuristics.handle, HIPDNN_ATTR_ENGINEHEUR_DECLINED_EXT,
                                        HIPDNN_TYPE_CHAR, 0, &length, nullptr),
              "get ENGINEHEUR_DECLINED_EXT length");
        std::string text(static_cast<size_t>(length), '\0');
        check(hipdnnBackendGetAttribute(heuristics.handle, HIPDNN_ATTR_ENGINEHEUR_DECLINED_EXT,
                                        HIPDNN_TYPE_CHAR, length, &length, text.data()),
              "get ENGINEHEUR_DECLINED_EXT");
        text.resize(text.find('\0') == std::string::npos ? text.size() : text.find('\0'));
        return text;
    }

    // The first ranked engine configuration, finalized.
    std::unique_ptr<Descriptor> firstConfig() const {
        if (resultCount == 0) {
            throw std::runtime_error("no engine accepted the graph; declined:\n" + declined());
        }
        auto config = std::make_unique<Descriptor>(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
        int64_t filled = 0;
        check(hipdnnBackendGetAttribute(heuristics.handle, HIPDNN_ATTR_ENGINEHEUR_RESULTS,
                                        HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &filled, &config->handle),
              "get ENGINEHEUR_RESULTS");
        check(hipdnnBackendFinalize(config->handle), "finalize ENGINECFG");
        return config;
    }
};

}  // namespace

CpuReferenceSession::CpuReferenceSession() {
    // The plugin file itself, so that other plugins built next to it are not loaded.
    const char* paths[] = {CPU_REFERENCE_PLUGIN_PATH};
    check(hipdnnSetEnginePluginPaths_ext(1, paths, HIPDNN_PLUGIN_LOADING_ABSOLUTE),
          "hipdnnSetEnginePluginPaths_ext");
    check(hipdnnCreateForDevice_ext(&_handle, HIPDNN_DEVICE_TYPE_CPU_EXT, 0),
          "hipdnnCreateForDevice_ext(CPU)");
}

CpuReferenceSession::~CpuReferenceSession() {
    if (_handle != nullptr) {
        hipdnnDestroy(_handle);
    }
}

std::string CpuReferenceSession::run(const std::vector<uint8_t>& graph,
                                     std::map<int64_t, HostTensor>& tensors) {
    try {
        const Planned planned(_handle, graph);
        const auto config = planned.firstConfig();
        Descriptor plan(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
        check(hipdnnBackendSetAttribute(plan.handle, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG,
                                        HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &config->handle),
              "set EXECUTION_PLAN_ENGINE_CONFIG");
        check(hipdnnBackendFinalize(plan.handle), "finalize EXECUTION_PLAN");

        std::vector<int64_t> uids;
        std::vector<void*> pointers;
        for (auto& [uid, tensor] : tensors) {
            uids.push_back(uid);
            pointers.push_back(tensor.data());
        }
        Descriptor variantPack(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
        check(hipdnnBackendSetAttribute(variantPack.handle, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS,
                                        HIPDNN_TYPE_INT64, static_cast<int64_t>(uids.size()), uids.data()),
              "set VARIANT_PACK_UNIQUE_IDS");
        check(hipdnnBackendSetAttribute(variantPack.handle, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS,
                                        HIPDNN_TYPE_VOID_PTR, static_cast<int64_t>(pointers.size()),
                                        pointers.data()),
              "set VARIANT_PACK_DATA_POINTERS");
        void* workspace = nullptr;
        check(hipdnnBackendSetAttribute(variantPack.handle, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE,
                                        HIPDNN_TYPE_VOID_PTR, 1, &workspace),
              "set VARIANT_PACK_WORKSPACE");
        check(hipdnnBackendFinalize(variantPack.handle), "finalize VARIANT_PACK");
        check(hipdnnBackendExecute(_handle, plan.handle, variantPack.handle), "hipdnnBackendExecute");
    } catch (const std::exception& error) {
        return error.what();
    }
    return {};
}

std::pair<int64_t, std::string> CpuReferenceSession::heuristics(const std::vector<uint8_t>& graph) {
    const Planned planned(_handle, graph);
    return {planned.resultCount, planned.declined()};
}

}  // namespace cpu_reference_integration
