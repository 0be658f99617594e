// What the example's programs ask of a backend handle beyond running graphs: which plugins it
// loaded and which engines it offers. Running a graph — heuristics or an engine by id, plan,
// variant pack, execute — is the test SDK's hipdnn_test_sdk/BackendRun.hpp, which a plugin's
// tests and tools can use the same way (it needs hipdnn_backend::hipdnn_backend linked).
// Shared by the integration tests and example_plugin_loader.
#pragma once

#include <hipdnn_backend.h>
#include <hipdnn_test_sdk/BackendRun.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace example_plugin {

/// hipdnnSetEnginePluginPaths_ext: takes effect at the next handle creation.
void setEnginePluginPaths(const std::vector<std::string>& paths, hipdnnPluginLoadingMode_ext_t mode);

/// A backend handle bound to the CPU (the example engine is a CPU engine).
class CpuHandle {
public:
    CpuHandle() = default;

    hipdnnHandle_t get() const noexcept { return _handle.get(); }

    /// The plugin files this handle loaded (hipdnnGetLoadedEnginePluginPaths_ext, two-call).
    std::vector<std::string> loadedPluginPaths() const;

    /// True when a plugin serving this handle provides an engine of that name.
    bool hasEngine(const std::string& engineName) const;

    /// The "<engine>\t<plugin>\t<reason>" lines of the engines that decline the graph.
    std::string declineReasons(const std::vector<uint8_t>& serializedGraph) const;

    /// Plans `serializedGraph` on engine `engineId` and executes it once with `buffers`
    /// (uid -> host memory laid out by the tensor's strides) and a host workspace.
    void execute(const std::vector<uint8_t>& serializedGraph, int64_t engineId,
                 const std::map<int64_t, void*>& buffers) const;

private:
    hipdnn_test_sdk::BackendHandle _handle{HIPDNN_DEVICE_TYPE_CPU_EXT};
};

}  // namespace example_plugin
