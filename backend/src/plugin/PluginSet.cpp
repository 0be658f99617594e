#include "plugin/PluginSet.hpp"

#include <algorithm>
#include <map>

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

#include "logging/Logger.hpp"

namespace hipdnn_backend::plugin {

PluginSet::PluginSet(PluginSearch search) : _search(std::move(search)) {
    std::map<int64_t, const EnginePlugin*> owners;
    for (const std::filesystem::path& file : _search.files) {
        std::shared_ptr<EnginePlugin> plugin;
        try {
            plugin = std::make_shared<EnginePlugin>(file);
        } catch (const std::exception& error) {
            HIPDNN_LOG_ERROR("Error loading plugin from [{}]: {}", file.string(), error.what());
            _rejected.emplace(file, error.what());
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

std::string PluginSet::describeSearch() const {
    if (_search.searched.empty()) {
        return "no plugin path was searched";
    }
    // "[<label>: ]<plugin>, <device>" or "[<label> ]failed to load: <reason>"; the label is the
    // file name inside a searched directory, empty for a file searched by path.
    auto describeFile = [this](const std::filesystem::path& file, const std::string& label) {
        if (auto rejected = _rejected.find(file); rejected != _rejected.end()) {
            return (label.empty() ? label : label + " ") + "failed to load: " + rejected->second;
        }
        const auto plugin = std::find_if(_plugins.begin(), _plugins.end(),
                                         [&file](const auto& loaded) { return loaded->path() == file; });
        if (plugin == _plugins.end()) {
            return (label.empty() ? label : label + ": ") + "not loaded";
        }
        const std::string device = (*plugin)->deviceType() == HIPDNN_DEVICE_TYPE_CPU_EXT ? "cpu" : "gpu";
        return (label.empty() ? label : label + ": ") + (*plugin)->name() + ", " + device;
    };
    std::string text = "searched ";
    for (size_t index = 0; index < _search.searched.size(); ++index) {
        const SearchedPath& searched = _search.searched[index];
        text += (index > 0 ? ", " : "") + searched.path.string() + " (";
        if (!searched.problem.empty()) {
            text += searched.problem;
        } else if (!searched.directory) {
            text += describeFile(searched.files.front(), "");
        } else if (searched.files.empty()) {
            text += "no .so files";
        } else {
            for (size_t fileIndex = 0; fileIndex < searched.files.size(); ++fileIndex) {
                const std::filesystem::path& file = searched.files[fileIndex];
                text += (fileIndex > 0 ? "; " : "") + describeFile(file, file.filename().string());
            }
        }
        text += ")";
    }
    return text;
}

PluginSet::~PluginSet() {
    for (const auto& plugin : _plugins) {
        HIPDNN_LOG_INFO("Unloading engine plugin '{}' from [{}]", plugin->name(), plugin->path().string());
    }
}

}  // namespace hipdnn_backend::plugin
