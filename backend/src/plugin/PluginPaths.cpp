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

void addCanonical(const fs::path& file, std::vector<fs::path>& files) {
    std::error_code error;
    fs::path canonical = fs::canonical(file, error);
    if (error) {
        HIPDNN_LOG_ERROR("Error loading plugin from [{}]: {}", file.string(), error.message());
        return;
    }
    files.push_back(std::move(canonical));
}

void scanDirectory(const fs::path& directory, std::vector<fs::path>& files) {
    HIPDNN_LOG_INFO("Searching plugin directory [{}]", directory.string());
    std::error_code error;
    fs::directory_iterator entries(directory, error);
    if (error) {
        HIPDNN_LOG_ERROR("Cannot read plugin directory [{}]: {}", directory.string(), error.message());
        return;
    }
    for (const fs::directory_entry& entry : entries) {
        std::error_code statusError;
        if (entry.is_regular_file(statusError) && isPluginFileName(entry.path())) {
            addCanonical(entry.path(), files);
        }
    }
}

void addEntry(const fs::path& entry, bool missingIsError, std::vector<fs::path>& files) {
    std::error_code error;
    const fs::file_status status = fs::status(entry, error);
    if (fs::is_directory(status)) {
        scanDirectory(entry, files);
    } else if (fs::is_regular_file(status)) {
        if (isPluginFileName(entry)) {
            addCanonical(entry, files);
        } else {
            HIPDNN_LOG_ERROR("Error loading plugin from [{}]: not a .so file", entry.string());
        }
    } else if (missingIsError) {
        HIPDNN_LOG_ERROR("Plugin path [{}] does not exist or is not a file or directory", entry.string());
    } else {
        HIPDNN_LOG_INFO("Default plugin directory [{}] does not exist", entry.string());
    }
}

}  // namespace

fs::path baseDirectory(const std::optional<std::string>& environmentDirectory) {
    if (environmentDirectory && !environmentDirectory->empty()) {
        return resolveAgainstBackend(*environmentDirectory);
    }
    return platform::backendLibraryDirectory() / "hipdnn_plugins" / "engines";
}

std::vector<fs::path> resolvePluginFiles(const PluginSearchConfig& config,
                                         const std::optional<std::string>& environmentDirectory) {
    std::vector<fs::path> files;
    if (config.includeBaseDirectory) {
        const bool explicitlyRequested = environmentDirectory && !environmentDirectory->empty();
        addEntry(baseDirectory(environmentDirectory), explicitlyRequested, files);
    }
    for (const std::string& entry : config.customPaths) {
        addEntry(resolveAgainstBackend(entry), /*missingIsError=*/true, files);
    }
    std::sort(files.begin(), files.end());
    files.erase(std::unique(files.begin(), files.end()), files.end());
    return files;
}

}  // namespace hipdnn_backend::plugin
