// Where engine plugins are looked for. Resolution happens at handle creation.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace hipdnn_backend::plugin {

// The process-wide search configuration set through hipdnnSetEnginePluginPaths_ext.
struct PluginSearchConfig {
    // False after an ABSOLUTE call: neither the default directory nor HIPDNN_PLUGIN_DIR is used.
    bool includeBaseDirectory = true;
    // Entries as given (directories or .so files; relative ones resolve against the backend
    // library's directory).
    std::vector<std::string> customPaths;

    bool operator==(const PluginSearchConfig&) const = default;
};

// The directory searched besides the custom paths: HIPDNN_PLUGIN_DIR when set and non-empty
// (`environmentDirectory`), else <backend library dir>/hipdnn_plugins/engines.
std::filesystem::path baseDirectory(const std::optional<std::string>& environmentDirectory);

// One path that was searched and what it gave.
struct SearchedPath {
    // As searched: relative entries resolved against the backend library's directory.
    std::filesystem::path path;
    // Why nothing could be taken from it ("does not exist", ...); empty when it was usable.
    std::string problem;
    bool directory = false;
    // The plugin files it gave, canonical, in directory order.
    std::vector<std::filesystem::path> files;
};

struct PluginSearch {
    // In search order: the base directory first (when searched), then the custom paths.
    std::vector<SearchedPath> searched;
    // Every plugin file to load: canonical, each once, sorted.
    std::vector<std::filesystem::path> files;
};

// Searches regular files named *.so (exact extension) directly inside the searched directories,
// plus explicitly listed files. Missing or unusable entries are logged and skipped.
PluginSearch resolvePluginFiles(const PluginSearchConfig& config,
                                const std::optional<std::string>& environmentDirectory);

}  // namespace hipdnn_backend::plugin
