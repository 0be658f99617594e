// A plugin's handle created for one hipdnn handle, and every per-handle plugin call, each made with
// the handle's GPU current. A failing call throws HipdnnException(PLUGIN_ERROR, "Failed to <action>.
// Status: <name>(<n>), Error: <plugin last error>").
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "platform/DeviceContext.hpp"
#include "plugin/EnginePlugin.hpp"
#include "plugin/ShapeOverrides.hpp"

namespace hipdnn_backend::plugin {

struct ApplicableEngines {
    std::vector<int64_t> engineIds;
    // The plugin's last-error text after the query: "<engine>: <reason>" lines for declines.
    std::string declineText;
};

class PluginInstance {
public:
    // `device`: the GPU made current around every call into the plugin; null for the CPU.
    PluginInstance(std::shared_ptr<const EnginePlugin> plugin, hipdnnEnginePluginHandle_t handle,
                   std::shared_ptr<const platform::DeviceContext> device);
    ~PluginInstance();
    PluginInstance(const PluginInstance&) = delete;
    PluginInstance& operator=(const PluginInstance&) = delete;

    const EnginePlugin& plugin() const noexcept { return *_plugin; }
    hipdnnEnginePluginHandle_t handle() const noexcept { return _handle; }

    void setStream(void* stream) const;
    // Hands the plugin the handle's NCCL communicator (hipdnnEnginePluginSetCommunicator_ext; null
    // detaches). False, and nothing done, when the plugin does not export it.
    bool setCommunicator(void* communicator) const;
    // Fails with PLUGIN_ERROR when the plugin answers an id it does not provide.
    ApplicableEngines applicableEngines(const hipdnnPluginConstData_t& graph) const;
    // The engine's estimated seconds for `graph` (hipdnnEnginePluginEstimateExecutionTime_ext);
    // nothing when the plugin does not export it, gives no estimate (NOT_APPLICABLE), fails, or
    // answers a value that is not a finite non-negative number (the last two are logged).
    std::optional<double> estimatedSeconds(int64_t engineId, const hipdnnPluginConstData_t& graph) const;
    // A verified copy of the plugin's EngineDetails FlatBuffer for `engineId`.
    std::vector<uint8_t> engineDetails(int64_t engineId, const hipdnnPluginConstData_t& graph) const;
    size_t workspaceSize(const hipdnnPluginConstData_t& engineConfig,
                         const hipdnnPluginConstData_t& graph) const;
    hipdnnEnginePluginExecutionContext_t createExecutionContext(const hipdnnPluginConstData_t& engineConfig,
                                                                const hipdnnPluginConstData_t& graph) const;
    // NOT_SUPPORTED (with the plugin's reason) when the plugin answers NOT_APPLICABLE: its engine
    // `engineId` does not implement plan serialization.
    hipdnnEnginePluginExecutionContext_t createExecutionContextFromSerialized(
        int64_t engineId, const hipdnnPluginConstData_t& serialized) const;
    void destroyExecutionContext(hipdnnEnginePluginExecutionContext_t context) const noexcept;
    size_t workspaceSize(hipdnnEnginePluginExecutionContext_t context) const;
    // NOT_SUPPORTED (with the plugin's reason) when the plugin answers NOT_APPLICABLE.
    std::vector<uint8_t> serializeExecutionContext(int64_t engineId,
                                                   hipdnnEnginePluginExecutionContext_t context) const;
    void execute(hipdnnEnginePluginExecutionContext_t context, void* workspace,
                 const hipdnnPluginDeviceBuffer_t* buffers, uint32_t bufferCount) const;
    // Through hipdnnEnginePluginExecuteOpGraphWithOverrides; NOT_SUPPORTED naming the plugin when
    // it does not export it.
    void executeWithOverrides(hipdnnEnginePluginExecutionContext_t context, void* workspace,
                              const hipdnnPluginDeviceBuffer_t* buffers, uint32_t bufferCount,
                              const ShapeOverrides& overrides) const;

private:
    // The handle's GPU current for the scope; INTERNAL_ERROR naming the GPU when it cannot be made so.
    platform::CurrentDevice onDevice() const;
    // As onDevice, for the release of plugin state: a failure is logged, never thrown.
    std::optional<platform::CurrentDevice> onDeviceForCleanup() const noexcept;
    void check(hipdnnPluginStatus_t status, const char* action) const;
    // NOT_SUPPORTED naming the plugin, `what` and the plugin's reason when `status` is
    // NOT_APPLICABLE (the plugin SDK's answer for an engine without plan serialization).
    void checkSerialization(hipdnnPluginStatus_t status, int64_t engineId, const char* what,
                            const char* action) const;

    std::shared_ptr<const EnginePlugin> _plugin;
    hipdnnEnginePluginHandle_t _handle;
    std::shared_ptr<const platform::DeviceContext> _device;
};

}  // namespace hipdnn_backend::plugin
