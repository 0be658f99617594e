// Troubleshooting case "missing dependency": the plugin needs libexample_missing_runtime.so at
// run time (its handle initializes that runtime). The library is not installed, so loading the
// installed plugin fails and the backend logs "Error loading plugin from [<path>]: ...".
#include "DecliningEngine.hpp"
#include "MissingRuntime.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_plugin_sdk/EngineManager.hpp>
#include <hipdnn_plugin_sdk/PluginError.hpp>
#include <hipdnn_plugin_sdk/PluginHandleBase.hpp>

#include <memory>

namespace example_troubleshooting {

HIPDNN_REGISTER_ENGINE(EXAMPLE_MISSING_DEPENDENCY_ENGINE)

class RuntimeHandle : public hipdnn_plugin_sdk::PluginHandleBase {
public:
    RuntimeHandle() {
        if (example_missing_runtime::initialize() < 1) {
            throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_NOT_INITIALIZED,
                                                 "the runtime found no device");
        }
    }
};

class MissingDependencyContainer {
public:
    using Handle = RuntimeHandle;

    static hipdnn_plugin_sdk::EngineManager<Handle>& getEngineManager() {
        static hipdnn_plugin_sdk::EngineManager<Handle> manager = [] {
            hipdnn_plugin_sdk::EngineManager<Handle> engines;
            engines.addEngine(
                std::make_unique<DecliningEngine<Handle>>(EXAMPLE_MISSING_DEPENDENCY_ENGINE_ID));
            return engines;
        }();
        return manager;
    }
};

}  // namespace example_troubleshooting

#define HIPDNN_PLUGIN_NAME "example_missing_dependency_plugin"
#define HIPDNN_PLUGIN_VERSION "1.0.0"
#define HIPDNN_PLUGIN_CONTAINER_TYPE example_troubleshooting::MissingDependencyContainer
#define HIPDNN_PLUGIN_DEVICE_TYPE HIPDNN_DEVICE_TYPE_CPU_EXT
#include <hipdnn_plugin_sdk/EnginePluginImpl.inl>
