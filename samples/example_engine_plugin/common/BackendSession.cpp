#include "BackendSession.hpp"

#include <cstddef>

namespace example_plugin {

using hipdnn_test_sdk::checkBackend;

void setEnginePluginPaths(const std::vector<std::string>& paths, hipdnnPluginLoadingMode_ext_t mode) {
    std::vector<const char*> pointers;
    pointers.reserve(paths.size());
    for (const std::string& path : paths) {
        pointers.push_back(path.c_str());
    }
    checkBackend(hipdnnSetEnginePluginPaths_ext(pointers.size(), pointers.data(), mode),
                 "hipdnnSetEnginePluginPaths_ext");
}

std::vector<std::string> CpuHandle::loadedPluginPaths() const {
    // The plugin guide's two-call pattern: first the count and the longest length, then the paths.
    size_t numPlugins = 0;
    size_t maxLength = 0;
    checkBackend(hipdnnGetLoadedEnginePluginPaths_ext(get(), &numPlugins, nullptr, &maxLength),
                 "hipdnnGetLoadedEnginePluginPaths_ext (count)");
    std::vector<std::vector<char>> buffers(numPlugins, std::vector<char>(maxLength));
    std::vector<char*> pointers;
    pointers.reserve(numPlugins);
    for (size_t i = 0; i < numPlugins; ++i) {
        pointers.push_back(buffers[i].data());
    }
    checkBackend(hipdnnGetLoadedEnginePluginPaths_ext(get(), &numPlugins, pointers.data(), &maxLength),
                 "hipdnnGetLoadedEnginePluginPaths_ext (paths)");
    std::vector<std::string> paths;
    for (size_t i = 0; i < numPlugins; ++i) {
        paths.emplace_back(buffers[i].data());
    }
    return paths;
}

bool CpuHandle::hasEngine(const std::string& engineName) const {
    int64_t id = 0;
    const hipdnnStatus_t status = hipdnnGetEngineIdByName_ext(get(), engineName.c_str(), &id);
    if (status == HIPDNN_STATUS_NOT_SUPPORTED) {
        return false;
    }
    checkBackend(status, "hipdnnGetEngineIdByName_ext");
    return true;
}

std::string CpuHandle::declineReasons(const std::vector<uint8_t>& serializedGraph) const {
    return hipdnn_test_sdk::BackendHeuristics(get(), serializedGraph).declined();
}

void CpuHandle::execute(const std::vector<uint8_t>& serializedGraph, int64_t engineId,
                        const std::map<int64_t, void*>& buffers) const {
    const hipdnn_test_sdk::BackendPlan plan(hipdnn_test_sdk::BackendGraph(get(), serializedGraph), engineId);
    // A CPU handle: the workspace, like every buffer of the variant pack, is host memory.
    std::vector<std::byte> workspace;
    plan.execute(buffers, [&](size_t bytes) {
        workspace.resize(bytes);
        return static_cast<void*>(workspace.data());
    });
}

}  // namespace example_plugin
