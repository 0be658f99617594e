#include "plugin/PluginSet.hpp"

#include <map>

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

#include "logging/Logger.hpp"

namespace hipdnn_backend::plugin {

PluginSet::PluginSet(const std::vector<std::filesystem::path>& files) {
    std::map<int64_t, const EnginePlugin*> owners;
    for (const std::filesystem::path& file : files) {
        std::shared_ptr<EnginePlugin> plugin;
        try {
            plugin = std::make_shared<EnginePlugin>(file);
        } catch (const std::exception& error) {
            HIPDNN_LOG_ERROR("Error loading plugin from [{}]: {}", file.string(), error.what());
            continue;
        }
        const std::vector<int64_t> reported = plugin->engineIds();
        for (int64_t id : reported) {
            auto [owner, inserted] = owners.emplace(id, plugin.get());
            if (!inserted) {
                HIPDNN_LOG_ERROR(
                    "Engine {} ({}) of plugin '{}' ([{}]) is already provided by plugin '{}' ([{}]); "
                    "dropping it "
                    "from '{}'",
                    plugin->engineName(id), hipdnn_data_sdk::utilities::formatEngineIdHex(id), plugin->name(),
                    file.string(), owner->second->name(), owner->second->path().string(), plugin->name());
                plugin->dropEngine(id);
            }
        }
        HIPDNN_LOG_INFO("Loaded engine plugin '{}' version {} (API {}, {} device, {} engines) from [{}]",
                        plugin->name(), plugin->version(), plugin->apiVersion().toString(),
                        plugin->deviceType() == HIPDNN_DEVICE_TYPE_CPU_EXT ? "CPU" : "GPU",
                        plugin->engineIds().size(), file.string());
        _plugins.push_back(std::move(plugin));
    }
}

PluginSet::~PluginSet() {
    for (const auto& plugin : _plugins) {
        HIPDNN_LOG_INFO("Unloading engine plugin '{}' from [{}]", plugin->name(), plugin->path().string());
    }
}

}  // namespace hipdnn_backend::plugin
