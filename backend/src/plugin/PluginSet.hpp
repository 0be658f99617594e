// The plugins loaded for one search configuration, in load order. Handles created under the
// same configuration share one set; the libraries unload when the set is destroyed.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "plugin/EnginePlugin.hpp"
#include "plugin/PluginPaths.hpp"

namespace hipdnn_backend::plugin {

class PluginSet {
public:
    // Loads every file found, in order. A file that fails to load or validate is logged and
    // skipped; an engine id already provided by an earlier plugin is dropped from the later one.
    explicit PluginSet(PluginSearch search);
    ~PluginSet();
    PluginSet(const PluginSet&) = delete;
    PluginSet& operator=(const PluginSet&) = delete;

    // Every plugin that loaded, whatever device it serves.
    const std::vector<std::shared_ptr<const EnginePlugin>>& plugins() const noexcept { return _plugins; }

    // Every path searched and what came of it, for messages read with logging off, e.g.
    // "searched /a (does not exist), /b (liba.so: a, cpu; libb.so failed to load: <reason>)".
    std::string describeSearch() const;

private:
    PluginSearch _search;
    std::vector<std::shared_ptr<const EnginePlugin>> _plugins;
    // Why each file that was found but did not load was rejected.
    std::map<std::filesystem::path, std::string> _rejected;
};

}  // namespace hipdnn_backend::plugin
