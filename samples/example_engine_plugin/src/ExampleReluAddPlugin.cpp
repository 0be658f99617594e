// The plugin's entry file: a container that owns the engines, and the plugin SDK's generated
// implementation of every function of the plugin API (EnginePluginApi.h). Only those functions
// are exported; hipdnn_plugin_sdk_configure_plugin() hides everything else.
#include "ExampleEngineName.hpp"
#include "ReluAddEngine.hpp"

#include <hipdnn_plugin_sdk/EngineManager.hpp>

#include <memory>

namespace example_plugin {

class ExamplePluginContainer {
public:
    using Handle = ExampleHandle;

    // Engines are shared by every handle of the plugin; they are created on first use.
    static hipdnn_plugin_sdk::EngineManager<Handle>& getEngineManager() {
        static hipdnn_plugin_sdk::EngineManager<Handle> manager = [] {
            hipdnn_plugin_sdk::EngineManager<Handle> engines;
            engines.addEngine(std::make_unique<ReluAddEngine>(EXAMPLE_RELU_ADD_ENGINE_ID));
            return engines;
        }();
        return manager;
    }
};

}  // namespace example_plugin

#define HIPDNN_PLUGIN_NAME "example_relu_add_plugin"
#define HIPDNN_PLUGIN_VERSION "1.0.0"
#define HIPDNN_PLUGIN_CONTAINER_TYPE example_plugin::ExamplePluginContainer
// A CPU engine: the backend asks this plugin only on handles bound to the CPU.
#define HIPDNN_PLUGIN_DEVICE_TYPE HIPDNN_DEVICE_TYPE_CPU_EXT
#include <hipdnn_plugin_sdk/EnginePluginImpl.inl>
