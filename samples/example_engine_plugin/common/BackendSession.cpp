#include "BackendSession.hpp"

#include <cstddef>
#include <utility>

namespace example_plugin {

namespace {

// Owns a backend descriptor for the duration of one call sequence.
class Descriptor {
public:
    explicit Descriptor(hipdnnBackendDescriptorType_t type) {
        checkStatus(hipdnnBackendCreateDescriptor(type, &_descriptor), "hipdnnBackendCreateDescriptor");
    }
    explicit Descriptor(hipdnnBackendDescriptor_t adopted) : _descriptor(adopted) {}
    Descriptor(Descriptor&& other) noexcept : _descriptor(std::exchange(other._descriptor, nullptr)) {}
    ~Descriptor() {
        if (_descriptor != nullptr) {
            hipdnnBackendDestroyDescriptor(_descriptor);
        }
    }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;

    hipdnnBackendDescriptor_t get() const noexcept { return _descriptor; }

    template <class T>
    void set(hipdnnBackendAttributeName_t name, hipdnnBackendAttributeType_t type, const T& value) {
        checkStatus(hipdnnBackendSetAttribute(_descriptor, name, type, 1, &value),
                    "hipdnnBackendSetAttribute");
    }

    void finalize() { checkStatus(hipdnnBackendFinalize(_descriptor), "hipdnnBackendFinalize"); }

private:
    hipdnnBackendDescriptor_t _descriptor = nullptr;
};

Descriptor finalizedGraph(hipdnnHandle_t handle, const std::vector<uint8_t>& serializedGraph) {
    hipdnnBackendDescriptor_t created = nullptr;
    checkStatus(
        hipdnnBackendCreateAndDeserializeGraph_ext(&created, serializedGraph.data(), serializedGraph.size()),
        "hipdnnBackendCreateAndDeserializeGraph_ext");
    Descriptor graph(created);
    graph.set(HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, handle);
    graph.finalize();
    return graph;
}

}  // namespace

void checkStatus(hipdnnStatus_t status, const std::string& call) {
    if (status == HIPDNN_STATUS_SUCCESS) {
        return;
    }
    char message[HIPDNN_ERROR_STRING_MAX_LENGTH] = {};
    hipdnnGetLastErrorString(message, sizeof(message));
    throw BackendError(call + " failed with " + hipdnnGetErrorString(status) + ": " + message);
}

void setEnginePluginPaths(const std::vector<std::string>& paths, hipdnnPluginLoadingMode_ext_t mode) {
    std::vector<const char*> pointers;
    pointers.reserve(paths.size());
    for (const std::string& path : paths) {
        pointers.push_back(path.c_str());
    }
    checkStatus(hipdnnSetEnginePluginPaths_ext(pointers.size(), pointers.data(), mode),
                "hipdnnSetEnginePluginPaths_ext");
}

CpuHandle::CpuHandle() {
    checkStatus(hipdnnCreateForDevice_ext(&_handle, HIPDNN_DEVICE_TYPE_CPU_EXT, 0),
                "hipdnnCreateForDevice_ext");
}

CpuHandle::~CpuHandle() {
    hipdnnDestroy(_handle);
}

std::vector<std::string> CpuHandle::loadedPluginPaths() const {
    // The plugin guide's two-call pattern: first the count and the longest length, then the paths.
    size_t numPlugins = 0;
    size_t maxLength = 0;
    checkStatus(hipdnnGetLoadedEnginePluginPaths_ext(_handle, &numPlugins, nullptr, &maxLength),
                "hipdnnGetLoadedEnginePluginPaths_ext (count)");
    std::vector<std::vector<char>> buffers(numPlugins, std::vector<char>(maxLength));
    std::vector<char*> pointers;
    pointers.reserve(numPlugins);
    for (size_t i = 0; i < numPlugins; ++i) {
        pointers.push_back(buffers[i].data());
    }
    checkStatus(hipdnnGetLoadedEnginePluginPaths_ext(_handle, &numPlugins, pointers.data(), &maxLength),
                "hipdnnGetLoadedEnginePluginPaths_ext (paths)");
    std::vector<std::string> paths;
    for (size_t i = 0; i < numPlugins; ++i) {
        paths.emplace_back(buffers[i].data());
    }
    return paths;
}

bool CpuHandle::hasEngine(const std::string& engineName) const {
    int64_t id = 0;
    const hipdnnStatus_t status = hipdnnGetEngineIdByName_ext(_handle, engineName.c_str(), &id);
    if (status == HIPDNN_STATUS_NOT_SUPPORTED) {
        return false;
    }
    checkStatus(status, "hipdnnGetEngineIdByName_ext");
    return true;
}

std::string CpuHandle::declineReasons(const std::vector<uint8_t>& serializedGraph) const {
    Descriptor graph = finalizedGraph(_handle, serializedGraph);
    Descriptor heuristic(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
    heuristic.set(HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, graph.get());
    heuristic.set(HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, HIPDNN_HEUR_MODE_FALLBACK);
    heuristic.finalize();
    int64_t length = 0;
    checkStatus(hipdnnBackendGetAttribute(heuristic.get(), HIPDNN_ATTR_ENGINEHEUR_DECLINED_EXT,
                                          HIPDNN_TYPE_CHAR, 0, &length, nullptr),
                "hipdnnBackendGetAttribute(ENGINEHEUR_DECLINED_EXT, count)");
    std::string reasons(static_cast<size_t>(length), '\0');
    checkStatus(hipdnnBackendGetAttribute(heuristic.get(), HIPDNN_ATTR_ENGINEHEUR_DECLINED_EXT,
                                          HIPDNN_TYPE_CHAR, length, &length, reasons.data()),
                "hipdnnBackendGetAttribute(ENGINEHEUR_DECLINED_EXT)");
    // The attribute counts the terminating NUL.
    while (!reasons.empty() && reasons.back() == '\0') {
        reasons.pop_back();
    }
    return reasons;
}

void CpuHandle::execute(const std::vector<uint8_t>& serializedGraph, int64_t engineId,
                        const std::unordered_map<int64_t, void*>& buffers) const {
    Descriptor graph = finalizedGraph(_handle, serializedGraph);
    Descriptor engine(HIPDNN_BACKEND_ENGINE_DESCRIPTOR);
    engine.set(HIPDNN_ATTR_ENGINE_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, graph.get());
    engine.set(HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, engineId);
    engine.finalize();
    Descriptor config(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    config.set(HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, engine.get());
    config.finalize();
    Descriptor plan(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
    plan.set(HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, config.get());
    plan.finalize();

    int64_t workspaceSize = 0;
    int64_t count = 0;
    checkStatus(hipdnnBackendGetAttribute(plan.get(), HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE,
                                          HIPDNN_TYPE_INT64, 1, &count, &workspaceSize),
                "hipdnnBackendGetAttribute(EXECUTION_PLAN_WORKSPACE_SIZE)");
    // A CPU handle: the workspace, like every buffer of the variant pack, is host memory.
    std::vector<std::byte> workspace(static_cast<size_t>(workspaceSize));
    void* workspacePointer = workspace.empty() ? nullptr : workspace.data();

    std::vector<int64_t> uids;
    std::vector<void*> pointers;
    for (const auto& [uid, pointer] : buffers) {
        uids.push_back(uid);
        pointers.push_back(pointer);
    }
    Descriptor pack(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
    checkStatus(hipdnnBackendSetAttribute(pack.get(), HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64,
                                          static_cast<int64_t>(uids.size()), uids.data()),
                "hipdnnBackendSetAttribute(VARIANT_PACK_UNIQUE_IDS)");
    checkStatus(
        hipdnnBackendSetAttribute(pack.get(), HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR,
                                  static_cast<int64_t>(pointers.size()), pointers.data()),
        "hipdnnBackendSetAttribute(VARIANT_PACK_DATA_POINTERS)");
    pack.set(HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, workspacePointer);
    pack.finalize();
    checkStatus(hipdnnBackendExecute(_handle, plan.get(), pack.get()), "hipdnnBackendExecute");
}

}  // namespace example_plugin
