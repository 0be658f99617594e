// Talks to an engine plugin the way an application does: through the hipDNN backend C API only.
// Shared by the integration tests and example_plugin_loader.
#pragma once

#include <hipdnn_backend.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace example_plugin {

/// A failed backend call: the function, the status and the backend's last error message.
class BackendError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Throws BackendError unless `status` is HIPDNN_STATUS_SUCCESS.
void checkStatus(hipdnnStatus_t status, const std::string& call);

/// hipdnnSetEnginePluginPaths_ext: takes effect at the next handle creation.
void setEnginePluginPaths(const std::vector<std::string>& paths, hipdnnPluginLoadingMode_ext_t mode);

/// A backend handle bound to the CPU (the example engine is a CPU engine).
class CpuHandle {
public:
    CpuHandle();
    ~CpuHandle();
    CpuHandle(const CpuHandle&) = delete;
    CpuHandle& operator=(const CpuHandle&) = delete;

    hipdnnHandle_t get() const noexcept { return _handle; }

    /// The plugin files this handle loaded (hipdnnGetLoadedEnginePluginPaths_ext, two-call).
    std::vector<std::string> loadedPluginPaths() const;

    /// True when a plugin serving this handle provides an engine of that name.
    bool hasEngine(const std::string& engineName) const;

    /// The "<engine>\t<plugin>\t<reason>" lines of the engines that decline the graph.
    std::string declineReasons(const std::vector<uint8_t>& serializedGraph) const;

    /// Builds a plan for `serializedGraph` on engine `engineId` and executes it with `buffers`
    /// (uid -> host memory laid out by the tensor's strides); allocates the plan's workspace.
    void execute(const std::vector<uint8_t>& serializedGraph, int64_t engineId,
                 const std::unordered_map<int64_t, void*>& buffers) const;

private:
    hipdnnHandle_t _handle = nullptr;
};

}  // namespace example_plugin
