// What an engine builds for one (engine config, graph) pair and the backend executes.
#pragma once

#include <hipdnn_plugin_sdk/DeviceBuffers.hpp>
#include <hipdnn_plugin_sdk/PluginError.hpp>
#include <hipdnn_plugin_sdk/PluginHandleBase.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hipdnn_plugin_sdk {

/// Self-contained once built: it must not keep pointers into the graph or config buffers it
/// was created from.
class IExecutionContext {
public:
    virtual ~IExecutionContext() = default;

    /// Bytes of workspace execute() needs; the backend allocates it on the handle's device.
    virtual std::size_t workspaceSize() const = 0;

    /// Runs the graph with the tensors in `buffers`: asynchronously on handle.stream() for GPU
    /// engines, synchronously for CPU engines. `workspace` is null when workspaceSize() is 0.
    /// The handle is the plugin's own handle type (downcast it when needed).
    virtual void execute(PluginHandleBase& handle, void* workspace, const DeviceBuffers& buffers) = 0;

    /// Bytes from which the engine's deserializeExecutionContext rebuilds this context. The
    /// default says the engine does not support plan serialization.
    virtual std::vector<uint8_t> serialize() const {
        throw PluginError(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
                          "this execution context does not support serialization");
    }
};

}  // namespace hipdnn_plugin_sdk
