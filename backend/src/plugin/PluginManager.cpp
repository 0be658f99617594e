#include "plugin/PluginManager.hpp"

#include <algorithm>
#include <cstdlib>

#include "logging/Logger.hpp"

namespace hipdnn_backend::plugin {

namespace {

std::optional<std::string> environmentPluginDirectory() {
    const char* value = std::getenv("HIPDNN_PLUGIN_DIR");
    if (value == nullptr || *value == '\0') {
        return std::nullopt;
    }
    return std::string(value);
}

}  // namespace

PluginManager::PluginManager() {
    // The logger must outlive the manager: plugin sets log while unloading at exit.
    (void)logging::globalLevel();
}

PluginManager& PluginManager::instance() {
    static PluginManager manager;
    return manager;
}

void PluginManager::setCustomPaths(std::vector<std::string> paths, hipdnnPluginLoadingMode_ext_t mode) {
    std::shared_ptr<PluginSet> released;  // unloads after the lock is dropped
    std::lock_guard lock(_mutex);
    PluginSearchConfig updated = _config;
    if (mode == HIPDNN_PLUGIN_LOADING_ABSOLUTE) {
        updated.includeBaseDirectory = false;
        updated.customPaths = std::move(paths);
    } else {
        updated.customPaths.insert(updated.customPaths.end(), paths.begin(), paths.end());
    }
    if (updated == _config) {
        return;
    }
    _config = std::move(updated);
    released = std::move(_lazyHold);
}

void PluginManager::setUnloadMode(hipdnnPluginUnloadingMode_ext_t mode) {
    std::shared_ptr<PluginSet> released;
    std::lock_guard lock(_mutex);
    _unloadMode = mode;
    if (mode == HIPDNN_PLUGIN_UNLOAD_EAGER) {
        released = std::move(_lazyHold);
    } else {
        _lazyHold = _currentSet.lock();
    }
}

std::shared_ptr<PluginSet> PluginManager::acquirePluginSet() {
    std::shared_ptr<PluginSet> released;
    std::lock_guard lock(_mutex);
    ConfigurationKey key{_config, environmentPluginDirectory()};
    if (_currentKey == key) {
        if (std::shared_ptr<PluginSet> existing = _currentSet.lock()) {
            return existing;
        }
    }
    auto set = std::make_shared<PluginSet>(resolvePluginFiles(key.search, key.environmentDirectory));
    _currentKey = std::move(key);
    _currentSet = set;
    released = std::move(_lazyHold);
    if (_unloadMode == HIPDNN_PLUGIN_UNLOAD_LAZY) {
        _lazyHold = set;
    }
    std::erase_if(_allSets, [](const std::weak_ptr<PluginSet>& entry) { return entry.expired(); });
    _allSets.push_back(set);
    return set;
}

void PluginManager::forEachLoadedPlugin(const std::function<void(const EnginePlugin&)>& visit) {
    std::vector<std::shared_ptr<PluginSet>> alive;
    {
        std::lock_guard lock(_mutex);
        for (const auto& entry : _allSets) {
            if (auto set = entry.lock()) {
                alive.push_back(std::move(set));
            }
        }
    }
    for (const auto& set : alive) {
        for (const auto& plugin : set->plugins()) {
            visit(*plugin);
        }
    }
}

}  // namespace hipdnn_backend::plugin
