// One engine plugin library that passed validation: its identity, its API table and the engines
// it provides. Shared by every handle created with the same plugin configuration.
#pragma once

#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "platform/SharedLibrary.hpp"
#include "plugin/ApiVersion.hpp"
#include "plugin/EnginePluginApi.hpp"

namespace hipdnn_backend::plugin {

class EnginePlugin {
public:
    // Loads and validates the library. Throws std::runtime_error naming the reason for
    // rejection (the caller logs "Error loading plugin from [path]: <reason>").
    explicit EnginePlugin(const std::filesystem::path& canonicalPath);

    const std::filesystem::path& path() const noexcept { return _path; }
    const std::string& name() const noexcept { return _name; }
    const std::string& version() const noexcept { return _version; }
    ApiVersion apiVersion() const noexcept { return _apiVersion; }
    hipdnnDeviceType_ext_t deviceType() const noexcept { return _deviceType; }
    // hipdnnEnginePluginGetLibraryVersions_ext, asked once ("" when the plugin lacks it or it failed).
    const std::string& libraryVersions() const;
    const EnginePluginApi& api() const noexcept { return _api; }
    bool supportsPlanSerialization() const noexcept;

    // The plugin's engines, in the order it reported them, minus dropped ones.
    const std::vector<int64_t>& engineIds() const noexcept { return _engineIds; }
    bool providesEngine(int64_t engineId) const noexcept;
    // The plugin's own name for the engine, else the registered name, else the hex id.
    std::string engineName(int64_t engineId) const;
    // Removes an engine another plugin already provides (see PluginSet).
    void dropEngine(int64_t engineId);

    // The calling thread's last error string of the plugin ("" when none).
    std::string lastError() const;
    void forwardLogLevel(hipdnnSeverity_t level) const noexcept;

private:
    void resolveSymbols();
    void readIdentity();
    void readEngines();

    std::filesystem::path _path;
    platform::SharedLibrary _library;
    EnginePluginApi _api;
    std::string _name;
    std::string _version;
    mutable std::once_flag _libraryVersionsAsked;
    mutable std::string _libraryVersions;
    ApiVersion _apiVersion;
    hipdnnDeviceType_ext_t _deviceType = HIPDNN_DEVICE_TYPE_GPU_EXT;
    std::vector<int64_t> _engineIds;
    std::map<int64_t, std::string> _reportedEngineNames;
};

}  // namespace hipdnn_backend::plugin
