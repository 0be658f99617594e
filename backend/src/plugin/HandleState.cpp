#include "plugin/HandleState.hpp"

#include <algorithm>

#include <hipdnn_plugin_sdk/PluginError.hpp>

#include "core/HipdnnException.hpp"
#include "logging/Logger.hpp"
#include "plugin/PluginManager.hpp"
#include "tuning/DeviceFingerprint.hpp"
#include "tuning/TuningRegistry.hpp"

namespace hipdnn_backend::plugin {

using hipdnn_plugin_sdk::pluginStatusName;

namespace {

// Calls the plugin's create. Returns null after logging when the plugin fails or throws.
hipdnnEnginePluginHandle_t createPluginHandle(const EnginePlugin& plugin, bool& succeeded) {
    succeeded = false;
    hipdnnEnginePluginHandle_t handle = nullptr;
    try {
        const hipdnnPluginStatus_t status = plugin.api().create(&handle);
        if (status != HIPDNN_PLUGIN_STATUS_SUCCESS) {
            HIPDNN_LOG_ERROR("Failed to create handle for plugin '{}'. Status: {}({}), Error: {}",
                             plugin.name(), pluginStatusName(status), static_cast<int>(status),
                             plugin.lastError());
            return nullptr;
        }
    } catch (const std::exception& error) {
        HIPDNN_LOG_ERROR("Failed to create handle for plugin '{}'. Exception: {}", plugin.name(),
                         error.what());
        return nullptr;
    } catch (...) {
        HIPDNN_LOG_ERROR("Failed to create handle for plugin '{}'. Unknown exception", plugin.name());
        return nullptr;
    }
    succeeded = true;
    return handle;
}

std::shared_ptr<const platform::DeviceContext> deviceContextFor(hipdnnDeviceType_ext_t device, int ordinal) {
    if (device == HIPDNN_DEVICE_TYPE_CPU_EXT) {
        return nullptr;
    }
    try {
        return std::make_shared<const platform::DeviceContext>(ordinal);
    } catch (const platform::CudaDriverError& error) {
        throw HipdnnException(HIPDNN_STATUS_INTERNAL_ERROR,
                              "Cannot use GPU " + std::to_string(ordinal) + ": " + error.what());
    }
}

}  // namespace

HandleState::HandleState(hipdnnDeviceType_ext_t device, int ordinal)
    : _device(device),
      _ordinal(ordinal),
      _deviceContext(deviceContextFor(device, ordinal)),
      _pluginSet(PluginManager::instance().acquirePluginSet()),
      _tuningDatabase(tuning::databaseFromEnvironment()),
      _deviceFingerprint(tuning::deviceFingerprint(device, ordinal)) {
    createPluginHandles();
}

void HandleState::createPluginHandles() {
    for (const auto& plugin : _pluginSet->plugins()) {
        if (plugin->deviceType() != _device) {
            continue;
        }
        bool succeeded = false;
        hipdnnEnginePluginHandle_t handle = nullptr;
        {
            const platform::CurrentDevice current(_deviceContext.get());
            handle = createPluginHandle(*plugin, succeeded);
        }
        if (!succeeded) {
            _skipped.push_back(plugin->name());
            continue;
        }
        if (handle == nullptr) {
            HIPDNN_LOG_ERROR("Plugin '{}' returned null handle", plugin->name());
            _skipped.push_back(plugin->name());
            continue;
        }
        const bool collides =
            std::any_of(_instances.begin(), _instances.end(),
                        [handle](const auto& instance) { return instance->handle() == handle; });
        if (collides) {
            HIPDNN_LOG_ERROR(
                "Plugin '{}' returned a handle that collides with another plugin.\n"
                "        This may indicate a symbol collision between plugins.\n"
                "        Ensure all plugins are built with -fvisibility=hidden.",
                plugin->name());
            const platform::CurrentDevice current(_deviceContext.get());
            plugin->api().destroy(handle);
            _skipped.push_back(plugin->name());
            continue;
        }
        auto instance = std::make_unique<PluginInstance>(plugin, handle, _deviceContext);
        try {
            instance->setStream(_stream);
        } catch (const std::exception& error) {
            HIPDNN_LOG_ERROR("Skipping plugin '{}': {}", plugin->name(), error.what());
            _skipped.push_back(plugin->name());
            continue;
        }
        for (int64_t id : plugin->engineIds()) {
            _engineOwners.emplace(id, instance.get());
        }
        _instances.push_back(std::move(instance));
    }
}

void HandleState::setStream(hipdnnStream_t stream) {
    for (const auto& instance : _instances) {
        instance->setStream(stream);
    }
    _stream = stream;
}

void HandleState::setCommunicator(void* communicator) {
    attachCommunicator(communicator);
    if (communicator != _ownedCommunicator.get()) {
        _ownedCommunicator.reset();
    }
}

void HandleState::adoptCommunicator(platform::NcclCommunicator communicator) {
    attachCommunicator(communicator.get());
    _ownedCommunicator = std::move(communicator);
}

void HandleState::attachCommunicator(void* communicator) {
    for (size_t index = 0; index < _instances.size(); ++index) {
        try {
            if (!_instances[index]->setCommunicator(communicator)) {
                HIPDNN_LOG_INFO(
                    "Plugin '{}' takes no communicator (no hipdnnEnginePluginSetCommunicator_ext)",
                    _instances[index]->plugin().name());
            }
        } catch (...) {
            // The caller may destroy a communicator it is told was not attached: no plugin may keep it.
            for (size_t attached = 0; attached < index; ++attached) {
                try {
                    _instances[attached]->setCommunicator(_communicator);
                } catch (const std::exception& error) {
                    HIPDNN_LOG_ERROR("Cannot give plugin '{}' its previous communicator back: {}",
                                     _instances[attached]->plugin().name(), error.what());
                }
            }
            throw;
        }
    }
    _communicator = communicator;
}

std::string HandleState::describePlugins() const {
    const std::string device =
        _device == HIPDNN_DEVICE_TYPE_CPU_EXT ? std::string("cpu") : "gpu:" + std::to_string(_ordinal);
    std::string text = _pluginSet->describeSearch() + "; ";
    if (_instances.empty()) {
        text += "no plugin serves device " + device;
    } else {
        text += "plugins serving device " + device + ": ";
        for (size_t index = 0; index < _instances.size(); ++index) {
            text += (index > 0 ? ", " : "") + _instances[index]->plugin().name();
        }
    }
    for (const std::string& name : _skipped) {
        text += "; plugin '" + name + "' was skipped: its handle could not be created";
    }
    return text;
}

const PluginInstance* HandleState::instanceForEngine(int64_t engineId) const noexcept {
    auto owner = _engineOwners.find(engineId);
    return owner != _engineOwners.end() ? owner->second : nullptr;
}

}  // namespace hipdnn_backend::plugin
