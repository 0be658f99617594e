// Everything a hipdnn handle owns: its device, its stream, its NCCL communicator when the backend
// made it, the plugin set it was created with, one plugin handle per plugin serving its device and
// the tuning database in force when it was created. Shared (shared_ptr) with the descriptors
// built on the handle so that plans outlive a destroyed handle safely.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "hipdnn_backend.h"
#include "platform/DeviceContext.hpp"
#include "platform/Nccl.hpp"
#include "plugin/PluginInstance.hpp"
#include "plugin/PluginSet.hpp"

namespace hipdnn_backend::tuning {
class TuningDatabase;
}

namespace hipdnn_backend::plugin {

class HandleState {
public:
    // Acquires the plugin set and creates the plugin handles, with the GPU current for a GPU handle;
    // plugins whose creation fails, returns null or collides are logged and skipped. Throws
    // INTERNAL_ERROR naming the GPU when its context cannot be retained.
    HandleState(hipdnnDeviceType_ext_t device, int ordinal);

    hipdnnDeviceType_ext_t device() const noexcept { return _device; }
    int ordinal() const noexcept { return _ordinal; }
    hipdnnStream_t stream() const noexcept { return _stream; }
    // Forwards the stream to every plugin handle; the first failure throws PLUGIN_ERROR.
    void setStream(hipdnnStream_t stream);
    // Gives `communicator` (the caller's; null detaches) to every plugin handle that takes one. When
    // a plugin fails, those already given it go back to the previous communicator and PLUGIN_ERROR
    // is thrown. A communicator the handle owned is destroyed once replaced.
    void setCommunicator(void* communicator);
    // As setCommunicator, and the handle owns `communicator` from then on.
    void adoptCommunicator(platform::NcclCommunicator communicator);

    const PluginSet& pluginSet() const noexcept { return *_pluginSet; }
    // Plugins serving the handle's device whose handle creation succeeded, in load order.
    const std::vector<std::unique_ptr<PluginInstance>>& instances() const noexcept { return _instances; }
    // The instance providing `engineId`, or null.
    const PluginInstance* instanceForEngine(int64_t engineId) const noexcept;

    // Null when HIPDNN_DISABLE_CACHE was set, or no directory was given, at handle creation.
    const std::shared_ptr<tuning::TuningDatabase>& tuningDatabase() const noexcept { return _tuningDatabase; }
    // tuning::deviceFingerprint of the handle's device.
    const std::string& deviceFingerprint() const noexcept { return _deviceFingerprint; }

    // The paths searched, what was found there and which plugins serve this handle's device,
    // e.g. "searched /opt/plugins (does not exist); no plugin serves device cpu".
    std::string describePlugins() const;

private:
    void createPluginHandles();
    // setCommunicator without the change of ownership.
    void attachCommunicator(void* communicator);

    hipdnnDeviceType_ext_t _device;
    int _ordinal;
    // Null for the CPU. Declared before the instances, which use it until they are destroyed.
    std::shared_ptr<const platform::DeviceContext> _deviceContext;
    hipdnnStream_t _stream = nullptr;
    // The NCCL communicator the plugin handles were given; null when none.
    void* _communicator = nullptr;
    // Declared before the instances: the plugin handles let go of it before it is destroyed.
    platform::NcclCommunicator _ownedCommunicator;
    // Declared before the instances: plugin handles are destroyed before their libraries unload.
    std::shared_ptr<PluginSet> _pluginSet;
    std::vector<std::unique_ptr<PluginInstance>> _instances;
    std::unordered_map<int64_t, const PluginInstance*> _engineOwners;
    // Plugins serving the device that were skipped at handle creation.
    std::vector<std::string> _skipped;
    std::shared_ptr<tuning::TuningDatabase> _tuningDatabase;
    std::string _deviceFingerprint;
};

}  // namespace hipdnn_backend::plugin
