// Plugin configuration and the list of loaded plugins.
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "api/ApiGuard.hpp"
#include "api/HandleRegistry.hpp"
#include "plugin/PluginManager.hpp"

using namespace hipdnn_backend;
using namespace hipdnn_backend::api;

extern "C" {

hipdnnStatus_t hipdnnSetEnginePluginPaths_ext(size_t num_paths, const char* const* plugin_paths,
                                              hipdnnPluginLoadingMode_ext_t loading_mode) {
    return guardedCall(__func__, [&] {
        if (loading_mode != HIPDNN_PLUGIN_LOADING_ADDITIVE &&
            loading_mode != HIPDNN_PLUGIN_LOADING_ABSOLUTE) {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM, fmt::format("Invalid plugin loading mode {}",
                                                                       static_cast<int>(loading_mode)));
        }
        if (num_paths > 0) {
            requireNotNull(plugin_paths, "plugin_paths");
        }
        std::vector<std::string> paths;
        for (size_t index = 0; index < num_paths; ++index) {
            if (plugin_paths[index] == nullptr) {
                throw HipdnnException(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                                      fmt::format("plugin_paths[{}] is null", index));
            }
            if (*plugin_paths[index] == '\0') {
                throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                                      fmt::format("plugin_paths[{}] is empty", index));
            }
            paths.emplace_back(plugin_paths[index]);
        }
        for (const std::string& path : paths) {
            HIPDNN_LOG_INFO("Engine plugin path [{}] ({})", path,
                            loading_mode == HIPDNN_PLUGIN_LOADING_ABSOLUTE ? "absolute" : "additive");
        }
        plugin::PluginManager::instance().setCustomPaths(std::move(paths), loading_mode);
    });
}

hipdnnStatus_t hipdnnSetPluginUnloadMode_ext(hipdnnPluginUnloadingMode_ext_t mode) {
    return guardedCall(__func__, [&] {
        if (mode != HIPDNN_PLUGIN_UNLOAD_LAZY && mode != HIPDNN_PLUGIN_UNLOAD_EAGER) {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                                  fmt::format("Invalid plugin unload mode {}", static_cast<int>(mode)));
        }
        plugin::PluginManager::instance().setUnloadMode(mode);
    });
}

hipdnnStatus_t hipdnnGetLoadedEnginePluginPaths_ext(hipdnnHandle_t handle, size_t* num_plugin_paths,
                                                    char** plugin_paths, size_t* max_string_len) {
    return guardedCall(__func__, [&] {
        requireNotNull(handle, "handle");
        requireNotNull(num_plugin_paths, "num_plugin_paths");
        requireNotNull(max_string_len, "max_string_len");
        const auto state = lookupHandle(handle);
        std::vector<std::string> paths;
        for (const auto& plugin : state->pluginSet().plugins()) {
            paths.push_back(plugin->path().string());
        }
        size_t longest = 0;
        for (const std::string& path : paths) {
            longest = std::max(longest, path.size() + 1);
        }
        if (plugin_paths == nullptr) {
            *num_plugin_paths = paths.size();
            *max_string_len = longest;
            return;
        }
        if (*num_plugin_paths < paths.size() || *max_string_len < longest) {
            throw HipdnnException(
                HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT,
                fmt::format("Room for {} path(s) of {} bytes given; {} path(s) of up to {} bytes needed",
                            *num_plugin_paths, *max_string_len, paths.size(), longest));
        }
        for (size_t index = 0; index < paths.size(); ++index) {
            requireNotNull(plugin_paths[index], "plugin_paths[i]");
            std::memcpy(plugin_paths[index], paths[index].c_str(), paths[index].size() + 1);
        }
        *num_plugin_paths = paths.size();
    });
}

}  // extern "C"
