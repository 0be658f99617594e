// Entry point of the cpu_reference plugin: the plugin SDK generates every exported function
// from the definitions below.
#include "CpuReferenceEngine.hpp"

#include <hipdnn_plugin_sdk/EngineManager.hpp>

namespace cpu_reference_plugin {

struct CpuReferenceContainer {
    using Handle = CpuReferenceHandle;

    static hipdnn_plugin_sdk::EngineManager<Handle>& getEngineManager() {
        static hipdnn_plugin_sdk::EngineManager<Handle> manager = [] {
            hipdnn_plugin_sdk::EngineManager<Handle> engines;
            engines.addEngine(std::make_unique<CpuReferenceEngine>());
            return engines;
        }();
        return manager;
    }
};

}  // namespace cpu_reference_plugin

#define HIPDNN_PLUGIN_NAME "cpu_reference"
#define HIPDNN_PLUGIN_VERSION "0.1.0"
#define HIPDNN_PLUGIN_CONTAINER_TYPE cpu_reference_plugin::CpuReferenceContainer
#define HIPDNN_PLUGIN_DEVICE_TYPE HIPDNN_DEVICE_TYPE_CPU_EXT
#include <hipdnn_plugin_sdk/EnginePluginImpl.inl>
