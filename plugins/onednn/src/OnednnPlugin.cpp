// Entry file of the onednn plugin: the SDK scaffolding generates every exported function.
#include "OnednnEngine.hpp"

#include <hipdnn_plugin_sdk/EngineManager.hpp>

#include <oneapi/dnnl/dnnl.h>

#include <memory>
#include <string>

namespace {

struct OnednnPluginContainer {
    using Handle = hipdnn_onednn::OnednnHandle;

    static hipdnn_plugin_sdk::EngineManager<Handle>& getEngineManager() {
        static hipdnn_plugin_sdk::EngineManager<Handle> manager = [] {
            hipdnn_plugin_sdk::EngineManager<Handle> engines;
            engines.addEngine(std::make_unique<hipdnn_onednn::OnednnEngine>());
            return engines;
        }();
        return manager;
    }

    // The oneDNN this process loaded: its kernels are the engine's speed.
    static std::string libraryVersions() {
        const dnnl_version_t* version = dnnl_version();
        return "onednn " + std::to_string(version->major) + "." + std::to_string(version->minor) + "." +
               std::to_string(version->patch);
    }
};

}  // namespace

#define HIPDNN_PLUGIN_NAME "onednn"
#define HIPDNN_PLUGIN_VERSION "0.1.0"
#define HIPDNN_PLUGIN_CONTAINER_TYPE OnednnPluginContainer
#define HIPDNN_PLUGIN_DEVICE_TYPE HIPDNN_DEVICE_TYPE_CPU_EXT
#include <hipdnn_plugin_sdk/EnginePluginImpl.inl>
