// Troubleshooting case "plugin handle creation fails": the handle's constructor opens a device
// runtime that this machine does not have and throws. The SDK's hipdnnEnginePluginCreate turns
// the exception into a status and a last-error message; the backend logs
// "Failed to create handle for plugin 'example_throwing_handle_plugin'. ..." and skips the plugin.
#include "DecliningEngine.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_plugin_sdk/EngineManager.hpp>
#include <hipdnn_plugin_sdk/PluginHandleBase.hpp>

#include <dlfcn.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace example_troubleshooting {

HIPDNN_REGISTER_ENGINE(EXAMPLE_THROWING_HANDLE_ENGINE)

// Stands for a GPU plugin that loads its vendor runtime when a handle is created.
constexpr const char* kDeviceRuntime = "libexample_device_runtime_that_is_not_installed.so.1";

class DeviceHandle : public hipdnn_plugin_sdk::PluginHandleBase {
public:
    DeviceHandle() : _runtime(dlopen(kDeviceRuntime, RTLD_NOW | RTLD_LOCAL)) {
        if (_runtime == nullptr) {
            const char* error = dlerror();
            throw std::runtime_error(std::string("cannot initialize the device runtime: ") +
                                     (error != nullptr ? error : kDeviceRuntime));
        }
    }
    ~DeviceHandle() override { dlclose(_runtime); }

private:
    void* _runtime;
};

class ThrowingHandleContainer {
public:
    using Handle = DeviceHandle;

    static hipdnn_plugin_sdk::EngineManager<Handle>& getEngineManager() {
        static hipdnn_plugin_sdk::EngineManager<Handle> manager = [] {
            hipdnn_plugin_sdk::EngineManager<Handle> engines;
            engines.addEngine(std::make_unique<DecliningEngine<Handle>>(EXAMPLE_THROWING_HANDLE_ENGINE_ID));
            return engines;
        }();
        return manager;
    }
};

}  // namespace example_troubleshooting

#define HIPDNN_PLUGIN_NAME "example_throwing_handle_plugin"
#define HIPDNN_PLUGIN_VERSION "1.0.0"
#define HIPDNN_PLUGIN_CONTAINER_TYPE example_troubleshooting::ThrowingHandleContainer
#define HIPDNN_PLUGIN_DEVICE_TYPE HIPDNN_DEVICE_TYPE_CPU_EXT
#include <hipdnn_plugin_sdk/EnginePluginImpl.inl>
