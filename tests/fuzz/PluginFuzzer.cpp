// libFuzzer target for one engine plugin's graph intake through its C ABI, as the backend drives
// it: the plugin is opened with dlopen (its path is HIPDNN_FUZZ_PLUGIN_PATH) and every graph goes
// through GetApplicableEngineIds; each applicable engine's details, workspace size and execution
// context are asked for, and small graphs are executed on zeroed buffers. The first input byte
// picks the payload's form: even, a binary Graph FlatBuffer (passed as is, unverified); odd, JSON
// converted by the FlatBuffers SDK. Every call must return a status; a crash, a sanitizer report
// or a leak is a finding.
#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>
#include <hipdnn_flatbuffers_sdk/Builders.hpp>
#include <hipdnn_flatbuffers_sdk/GraphJson.hpp>
#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include <dlfcn.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace {

// Graphs with more stored elements than this are built but not executed, so that one input
// cannot take seconds.
constexpr int64_t kMaxExecutedElements = 2048;
constexpr uint32_t kMaxEngines = 16;

struct Plugin {
    decltype(&hipdnnEnginePluginCreate) create;
    decltype(&hipdnnEnginePluginGetApplicableEngineIds) applicable;
    decltype(&hipdnnEnginePluginGetEngineDetails) details;
    decltype(&hipdnnEnginePluginDestroyEngineDetails) destroyDetails;
    decltype(&hipdnnEnginePluginGetWorkspaceSize) workspaceSize;
    decltype(&hipdnnEnginePluginCreateExecutionContext) createContext;
    decltype(&hipdnnEnginePluginDestroyExecutionContext) destroyContext;
    decltype(&hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext) contextWorkspaceSize;
    decltype(&hipdnnEnginePluginExecuteOpGraph) execute;
    hipdnnEnginePluginHandle_t handle = nullptr;
};

template <class F>
void resolve(void* library, const char* name, F& slot) {
    slot = reinterpret_cast<F>(dlsym(library, name));
    if (slot == nullptr) {
        std::fprintf(stderr, "%s lacks %s\n", HIPDNN_FUZZ_PLUGIN_PATH, name);
        std::abort();
    }
}

// Opened once and never closed: libFuzzer keeps the coverage counters of the loaded module.
Plugin& plugin() {
    static Plugin loaded = [] {
        void* library = dlopen(HIPDNN_FUZZ_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
        if (library == nullptr) {
            std::fprintf(stderr, "cannot open %s: %s\n", HIPDNN_FUZZ_PLUGIN_PATH, dlerror());
            std::abort();
        }
        Plugin p{};
        resolve(library, "hipdnnEnginePluginCreate", p.create);
        resolve(library, "hipdnnEnginePluginGetApplicableEngineIds", p.applicable);
        resolve(library, "hipdnnEnginePluginGetEngineDetails", p.details);
        resolve(library, "hipdnnEnginePluginDestroyEngineDetails", p.destroyDetails);
        resolve(library, "hipdnnEnginePluginGetWorkspaceSize", p.workspaceSize);
        resolve(library, "hipdnnEnginePluginCreateExecutionContext", p.createContext);
        resolve(library, "hipdnnEnginePluginDestroyExecutionContext", p.destroyContext);
        resolve(library, "hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext", p.contextWorkspaceSize);
        resolve(library, "hipdnnEnginePluginExecuteOpGraph", p.execute);
        if (p.create(&p.handle) != HIPDNN_PLUGIN_STATUS_SUCCESS) {
            std::fprintf(stderr, "%s: hipdnnEnginePluginCreate failed\n", HIPDNN_FUZZ_PLUGIN_PATH);
            std::abort();
        }
        return p;
    }();
    return loaded;
}

// One zeroed buffer per non-virtual tensor of a verified graph, or nullopt when the graph is
// too large to execute here.
std::optional<std::vector<std::vector<double>>> zeroedBuffers(
    const std::vector<uint8_t>& graph, std::vector<hipdnnPluginDeviceBuffer_t>& bindings) {
    std::string error;
    const auto wrapper = hipdnn_flatbuffers_sdk::GraphWrapper::tryCreate(graph.data(), graph.size(), error);
    if (!wrapper || wrapper->graph().tensors() == nullptr) {
        return std::nullopt;
    }
    std::vector<std::vector<double>> storage;
    int64_t total = 0;
    // Virtual tensors count too: the CPU reference engine allocates them while executing.
    for (const auto* tensor : *wrapper->graph().tensors()) {
        if (tensor->dims() == nullptr || tensor->strides() == nullptr) {
            continue;
        }
        int64_t count = 0;
        try {
            count = hipdnn_data_sdk::utilities::storageElementCount(
                {tensor->dims()->begin(), tensor->dims()->end()},
                {tensor->strides()->begin(), tensor->strides()->end()});
        } catch (const std::exception&) {
            return std::nullopt;
        }
        total += count;
        if (total > kMaxExecutedElements) {
            return std::nullopt;
        }
        if (tensor->virtual_()) {
            continue;
        }
        // Doubles: room and alignment for any element type.
        storage.emplace_back(static_cast<size_t>(count), 0.0);
        bindings.push_back({tensor->uid(), storage.back().data()});
    }
    return storage;
}

void driveEngine(Plugin& p, int64_t engineId, const std::vector<uint8_t>& graph) {
    const hipdnnPluginConstData_t graphData{graph.data(), graph.size()};
    hipdnnPluginConstData_t details{};
    if (p.details(p.handle, engineId, &graphData, &details) == HIPDNN_PLUGIN_STATUS_SUCCESS) {
        (void)p.destroyDetails(p.handle, &details);
    }
    const std::vector<uint8_t> config = hipdnn_flatbuffers_sdk::makeEngineConfig(engineId, {});
    const hipdnnPluginConstData_t configData{config.data(), config.size()};
    size_t workspaceBytes = 0;
    (void)p.workspaceSize(p.handle, &configData, &graphData, &workspaceBytes);
    hipdnnEnginePluginExecutionContext_t context = nullptr;
    if (p.createContext(p.handle, &configData, &graphData, &context) != HIPDNN_PLUGIN_STATUS_SUCCESS) {
        return;
    }
    if (p.contextWorkspaceSize(p.handle, context, &workspaceBytes) == HIPDNN_PLUGIN_STATUS_SUCCESS &&
        workspaceBytes <= (size_t{64} << 20)) {
        std::vector<hipdnnPluginDeviceBuffer_t> bindings;
        if (auto storage = zeroedBuffers(graph, bindings)) {
            std::vector<double> workspace((workspaceBytes + sizeof(double) - 1) / sizeof(double));
            (void)p.execute(p.handle, context, workspace.empty() ? nullptr : workspace.data(),
                            bindings.data(), static_cast<uint32_t>(bindings.size()));
        }
    }
    (void)p.destroyContext(p.handle, context);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) {
        return 0;
    }
    std::vector<uint8_t> graph;
    if (data[0] % 2 == 0) {
        graph.assign(data + 1, data + size);
    } else {
        try {
            graph = hipdnn_flatbuffers_sdk::graphFromJson(
                std::string_view(reinterpret_cast<const char*>(data + 1), size - 1));
        } catch (const std::exception&) {
            return 0;
        }
    }
    Plugin& p = plugin();
    const hipdnnPluginConstData_t graphData{graph.data(), graph.size()};
    int64_t engines[kMaxEngines] = {};
    uint32_t count = 0;
    if (p.applicable(p.handle, &graphData, engines, kMaxEngines, &count) != HIPDNN_PLUGIN_STATUS_SUCCESS) {
        return 0;
    }
    for (uint32_t i = 0; i < count && i < kMaxEngines; ++i) {
        driveEngine(p, engines[i], graph);
    }
    return 0;
}
