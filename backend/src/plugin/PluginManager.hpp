// Process-wide plugin configuration and the cache of loaded plugin sets.
//
// Unload policy: the set for the current configuration is shared by every handle created under
// it. LAZY (default): the manager also keeps it, so it stays loaded while the configuration is
// unchanged, even with no handle; a path change releases it. EAGER: only handles keep it, so it
// unloads with its last handle; switching to EAGER releases the manager's reference at once.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "hipdnn_backend.h"
#include "plugin/PluginPaths.hpp"
#include "plugin/PluginSet.hpp"

namespace hipdnn_backend::plugin {

class PluginManager {
public:
    static PluginManager& instance();

    void setCustomPaths(std::vector<std::string> paths, hipdnnPluginLoadingMode_ext_t mode);
    void setUnloadMode(hipdnnPluginUnloadingMode_ext_t mode);
    // The plugin set for the current configuration (HIPDNN_PLUGIN_DIR is read now), loading it
    // when needed.
    std::shared_ptr<PluginSet> acquirePluginSet();
    // Calls `visit` for every plugin of every set still alive.
    void forEachLoadedPlugin(const std::function<void(const EnginePlugin&)>& visit);

private:
    PluginManager();

    struct ConfigurationKey {
        PluginSearchConfig search;
        std::optional<std::string> environmentDirectory;
        bool operator==(const ConfigurationKey&) const = default;
    };

    std::mutex _mutex;
    PluginSearchConfig _config;
    hipdnnPluginUnloadingMode_ext_t _unloadMode = HIPDNN_PLUGIN_UNLOAD_LAZY;
    std::optional<ConfigurationKey> _currentKey;
    std::weak_ptr<PluginSet> _currentSet;
    // Holds the current set in LAZY mode.
    std::shared_ptr<PluginSet> _lazyHold;
    std::vector<std::weak_ptr<PluginSet>> _allSets;
};

}  // namespace hipdnn_backend::plugin
