#include "plugin/PluginPaths.hpp"

#include <algorithm>
#include <system_error>

#include "logging/Logger.hpp"
#include "platform/LibraryLocation.hpp"

namespace hipdnn_backend::plugin {

namespace fs = std::filesystem;

namespace {

fs::path resolveAgainstBackend(const fs::path& entry) {
    return entry.is_absolute() ? entry : platform::backendLibraryDirectory() / entry;
}

bool isPluginFileName(const fs::path& file) {
    return file.extension() == ".so";
}

// Appends the canonical path of `file`; logs and returns the error's message when it has none.
std::string addCanonical(const fs::path& file, std::vector<fs::path>& files) {
    std::error_code error;
    fs::path canonical = fs::canonical(file, error);
    if (error) {
        HIPDNN_LOG_ERROR("Error loading plugin from [{}]: {}", file.string(), error.message());
        return error.message();
    }
    files.push_back(std::move(canonical));
    return {};
}

void scanDirectory(SearchedPath& searched) {
    HIPDNN_LOG_INFO("Searching plugin directory [{}]", searched.path.string());
    std::error_code error;
    fs::directory_iterator entries(searched.path, error);
    if (error) {
        HIPDNN_LOG_ERROR("Cannot read plugin directory [{}]: {}", searched.path.string(), error.message());
        searched.problem = "cannot be read: " + error.message();
        return;
    }
    for (const fs::directory_entry& entry : entries) {
        std::error_code statusError;
        if (entry.is_regular_file(statusError) && isPluginFileName(entry.path())) {
            addCanonical(entry.path(), searched.files);
        }
    }
    std::sort(searched.files.begin(), searched.files.end());
}

SearchedPath searchEntry(const fs::path& entry, bool missingIsError) {
    SearchedPath searched{entry, {}, false, {}};
    std::error_code error;
    const fs::file_status status = fs::status(entry, error);
    if (fs::is_directory(status)) {
        searched.directory = true;
        scanDirectory(searched);
    } else if (fs::is_regular_file(status) && isPluginFileName(entry)) {
        searched.problem = addCanonical(entry, searched.files);
    } else if (fs::exists(status)) {
        HIPDNN_LOG_ERROR("Error loading plugin from [{}]: not a .so file", entry.string());
        searched.problem = "not a directory or .so file";
    } else if (error && error != std::errc::no_such_file_or_directory &&
               error != std::errc::not_a_directory) {
        HIPDNN_LOG_ERROR("Cannot access plugin path [{}]: {}", entry.string(), error.message());
        searched.problem = "cannot be accessed: " + error.message();
    } else {
        if (missingIsError) {
            HIPDNN_LOG_ERROR("Plugin path [{}] does not exist or is not a file or directory", entry.string());
        } else {
            HIPDNN_LOG_INFO("Default plugin directory [{}] does not exist", entry.string());
        }
        searched.problem = "does not exist";
    }
    return searched;
}

}  // namespace

fs::path baseDirectory(const std::optional<std::string>& environmentDirectory) {
    if (environmentDirectory && !environmentDirectory->empty()) {
        return resolveAgainstBackend(*environmentDirectory);
    }
    return platform::backendLibraryDirectory() / "hipdnn_plugins" / "engines";
}

PluginSearch resolvePluginFiles(const PluginSearchConfig& config,
                                const std::optional<std::string>& environmentDirectory) {
    PluginSearch search;
    if (config.includeBaseDirectory) {
        const bool explicitlyRequested = environmentDirectory && !environmentDirectory->empty();
        search.searched.push_back(searchEntry(baseDirectory(environmentDirectory), explicitlyRequested));
    }
    for (const std::string& entry : config.customPaths) {
        search.searched.push_back(searchEntry(resolveAgainstBackend(entry), /*missingIsError=*/true));
    }
    for (const SearchedPath& searched : search.searched) {
        search.files.insert(search.files.end(), searched.files.begin(), searched.files.end());
    }
    std::sort(search.files.begin(), search.files.end());
    search.files.erase(std::unique(search.files.begin(), search.files.end()), search.files.end());
    return search;
}

}  // namespace hipdnn_backend::plugin
