// The directory for what may outlive a process (compiled GPU kernels, the tuning database), as
// the environment names it. Shared by the backend and the plugins so that both read the same
// variables the same way.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string_view>

namespace hipdnn_data_sdk::utilities {

/// HIPDNN_CACHE_DIR, else $XDG_CACHE_HOME/hipdnn, else $HOME/.cache/hipdnn; nullopt when
/// `disableCache` (HIPDNN_DISABLE_CACHE) is set to anything but "" or "0", or no variable gives a
/// directory. Null pointers stand for unset variables, empty strings count as unset.
inline std::optional<std::filesystem::path> cacheDirectoryFrom(const char* cacheDir, const char* xdgCacheHome,
                                                               const char* home, const char* disableCache) {
    const auto isSet = [](const char* value) { return value != nullptr && value[0] != '\0'; };
    if (isSet(disableCache) && std::string_view(disableCache) != "0") {
        return std::nullopt;
    }
    if (isSet(cacheDir)) {
        return std::filesystem::path(cacheDir);
    }
    if (isSet(xdgCacheHome)) {
        return std::filesystem::path(xdgCacheHome) / "hipdnn";
    }
    if (isSet(home)) {
        return std::filesystem::path(home) / ".cache" / "hipdnn";
    }
    return std::nullopt;
}

/// cacheDirectoryFrom with the process's current environment.
inline std::optional<std::filesystem::path> cacheDirectoryFromEnvironment() {
    return cacheDirectoryFrom(std::getenv("HIPDNN_CACHE_DIR"), std::getenv("XDG_CACHE_HOME"),
                              std::getenv("HOME"), std::getenv("HIPDNN_DISABLE_CACHE"));
}

}  // namespace hipdnn_data_sdk::utilities
