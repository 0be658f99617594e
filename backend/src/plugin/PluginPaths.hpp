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

// Every plugin file to load: regular files named *.so (exact extension) directly inside the
// searched directories plus explicitly listed files, as canonical paths, each once, sorted.
// Missing or unusable entries are logged and skipped.
std::vector<std::filesystem::path> resolvePluginFiles(const PluginSearchConfig& config,
                                                      const std::optional<std::string>& environmentDirectory);

}  // namespace hipdnn_backend::plugin
