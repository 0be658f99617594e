// The plugins loaded for one search configuration, in load order. Handles created under the
// same configuration share one set; the libraries unload when the set is destroyed.
#pragma once

#include <filesystem>
#include <memory>
#include <vector>

#include "plugin/EnginePlugin.hpp"

namespace hipdnn_backend::plugin {

class PluginSet {
public:
    // Loads every file in order. A file that fails to load or validate is logged and skipped;
    // an engine id already provided by an earlier plugin is dropped from the later one.
    explicit PluginSet(const std::vector<std::filesystem::path>& files);
    ~PluginSet();
    PluginSet(const PluginSet&) = delete;
    PluginSet& operator=(const PluginSet&) = delete;

    // Every plugin that loaded, whatever device it serves.
    const std::vector<std::shared_ptr<const EnginePlugin>>& plugins() const noexcept { return _plugins; }

private:
    std::vector<std::shared_ptr<const EnginePlugin>> _plugins;
};

}  // namespace hipdnn_backend::plugin
