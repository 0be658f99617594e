// Entry point of the cuDNN engine plugin: the engines and the generated plugin API.
#include "CudnnEngine.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_plugin_sdk/EngineManager.hpp>
#include <hipdnn_plugin_sdk/LibraryVersions.hpp>

#include <cudnn.h>

#include <string>

namespace hipdnn_cudnn_plugin {

struct CudnnPluginContainer {
    using Handle = CudnnHandle;

    static hipdnn_plugin_sdk::EngineManager<Handle>& getEngineManager() {
        static hipdnn_plugin_sdk::EngineManager<Handle> manager = [] {
            hipdnn_plugin_sdk::EngineManager<Handle> engines;
            engines.addEngine(
                std::make_unique<CudnnEngine>(hipdnn_data_sdk::utilities::CUDNN_ENGINE_ID, false));
            engines.addEngine(std::make_unique<CudnnEngine>(
                hipdnn_data_sdk::utilities::CUDNN_ENGINE_DETERMINISTIC_ID, true));
            return engines;
        }();
        return manager;
    }

    // The cuDNN this process loaded, which decides the engines' configurations and speed.
    static std::string libraryVersions() {
        return "cudnn " + hipdnn_plugin_sdk::decimalVersion(cudnnGetVersion());
    }
};

}  // namespace hipdnn_cudnn_plugin

#define HIPDNN_PLUGIN_NAME "cudnn"
#define HIPDNN_PLUGIN_VERSION "0.1.0"
#define HIPDNN_PLUGIN_CONTAINER_TYPE hipdnn_cudnn_plugin::CudnnPluginContainer
#define HIPDNN_PLUGIN_DEVICE_TYPE HIPDNN_DEVICE_TYPE_GPU_EXT
#include <hipdnn_plugin_sdk/EnginePluginImpl.inl>
