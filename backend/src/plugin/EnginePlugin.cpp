#include "plugin/EnginePlugin.hpp"

#include <algorithm>
#include <mutex>
#include <set>
#include <stdexcept>

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_plugin_sdk/PluginError.hpp>

#include "hipdnn_backend.h"
#include "logging/Logger.hpp"

namespace hipdnn_backend::plugin {

using hipdnn_plugin_sdk::pluginStatusName;

namespace {

// Major versions of the engine plugin API this backend speaks.
constexpr uint32_t kSupportedApiMajor = HIPDNN_ENGINE_API_VERSION_MAJOR;

[[noreturn]] void reject(const std::string& reason) {
    throw std::runtime_error(reason);
}

void requireSuccess(hipdnnPluginStatus_t status, const char* call) {
    if (status != HIPDNN_PLUGIN_STATUS_SUCCESS) {
        reject(std::string(call) + " failed with " + pluginStatusName(status));
    }
}

std::string requireString(const char* text, const char* call) {
    if (text == nullptr) {
        reject(std::string(call) + " returned a null string");
    }
    return text;
}

}  // namespace

EnginePlugin::EnginePlugin(const std::filesystem::path& canonicalPath)
    : _path(canonicalPath), _library(canonicalPath) {
    resolveSymbols();
    readIdentity();
    readEngines();
}

void EnginePlugin::resolveSymbols() {
    auto required = [this](auto& slot, const char* symbol) {
        slot = _library.find<std::remove_reference_t<decltype(slot)>>(symbol);
        if (slot == nullptr) {
            reject(std::string("missing required symbol '") + symbol + "'");
        }
    };
    auto optional = [this](auto& slot, const char* symbol) {
        slot = _library.find<std::remove_reference_t<decltype(slot)>>(symbol);
    };
    required(_api.getName, "hipdnnPluginGetName");
    required(_api.getVersion, "hipdnnPluginGetVersion");
    required(_api.getType, "hipdnnPluginGetType");
    required(_api.getLastErrorString, "hipdnnPluginGetLastErrorString");
    required(_api.getAllEngineIds, "hipdnnEnginePluginGetAllEngineIds");
    required(_api.create, "hipdnnEnginePluginCreate");
    required(_api.destroy, "hipdnnEnginePluginDestroy");
    required(_api.setStream, "hipdnnEnginePluginSetStream");
    required(_api.getApplicableEngineIds, "hipdnnEnginePluginGetApplicableEngineIds");
    required(_api.getEngineDetails, "hipdnnEnginePluginGetEngineDetails");
    required(_api.destroyEngineDetails, "hipdnnEnginePluginDestroyEngineDetails");
    required(_api.getWorkspaceSize, "hipdnnEnginePluginGetWorkspaceSize");
    required(_api.createExecutionContext, "hipdnnEnginePluginCreateExecutionContext");
    required(_api.destroyExecutionContext, "hipdnnEnginePluginDestroyExecutionContext");
    required(_api.getWorkspaceSizeFromExecutionContext,
             "hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext");
    required(_api.executeOpGraph, "hipdnnEnginePluginExecuteOpGraph");
    optional(_api.setLoggingCallback, "hipdnnPluginSetLoggingCallback");
    optional(_api.getApiVersion, "hipdnnPluginGetApiVersion");
    optional(_api.setLogLevel, "hipdnnPluginSetLogLevel");
    optional(_api.getEngineName, "hipdnnEnginePluginGetEngineName");
    optional(_api.getDeviceType, "hipdnnEnginePluginGetDeviceType_ext");
    optional(_api.executeOpGraphWithOverrides, "hipdnnEnginePluginExecuteOpGraphWithOverrides");
    optional(_api.estimateExecutionTime, "hipdnnEnginePluginEstimateExecutionTime_ext");
    optional(_api.getLibraryVersions, "hipdnnEnginePluginGetLibraryVersions_ext");
    optional(_api.setCommunicator, "hipdnnEnginePluginSetCommunicator_ext");
    optional(_api.serializeExecutionContext, "hipdnnEnginePluginSerializeExecutionContext");
    optional(_api.destroySerializedExecutionContext, "hipdnnEnginePluginDestroySerializedExecutionContext");
    optional(_api.createExecutionContextFromSerialized,
             "hipdnnEnginePluginCreateExecutionContextFromSerialized");
}

void EnginePlugin::readIdentity() {
    const char* text = nullptr;
    requireSuccess(_api.getName(&text), "hipdnnPluginGetName");
    _name = requireString(text, "hipdnnPluginGetName");
    text = nullptr;
    requireSuccess(_api.getVersion(&text), "hipdnnPluginGetVersion");
    _version = requireString(text, "hipdnnPluginGetVersion");

    hipdnnPluginType_t type = HIPDNN_PLUGIN_TYPE_UNSPECIFIED;
    requireSuccess(_api.getType(&type), "hipdnnPluginGetType");
    if (type != HIPDNN_PLUGIN_TYPE_ENGINE) {
        reject("plugin '" + _name + "' has type " + std::to_string(static_cast<int>(type)) +
               ", expected HIPDNN_PLUGIN_TYPE_ENGINE (" + std::to_string(HIPDNN_PLUGIN_TYPE_ENGINE) + ")");
    }

    if (_api.getApiVersion != nullptr) {
        text = nullptr;
        requireSuccess(_api.getApiVersion(&text), "hipdnnPluginGetApiVersion");
        const std::string reported = requireString(text, "hipdnnPluginGetApiVersion");
        const std::optional<ApiVersion> parsed = parseApiVersion(reported);
        if (!parsed) {
            reject("plugin '" + _name + "' reports an unparseable API version '" + reported +
                   "' (expected MAJOR.MINOR.PATCH)");
        }
        _apiVersion = *parsed;
    }
    if (_apiVersion.major != kSupportedApiMajor) {
        reject("plugin '" + _name + "' uses unsupported engine plugin API version " + _apiVersion.toString() +
               " (supported major version: " + std::to_string(kSupportedApiMajor) + ")");
    }

    if (_api.getDeviceType != nullptr) {
        requireSuccess(_api.getDeviceType(&_deviceType), "hipdnnEnginePluginGetDeviceType_ext");
        if (_deviceType != HIPDNN_DEVICE_TYPE_GPU_EXT && _deviceType != HIPDNN_DEVICE_TYPE_CPU_EXT) {
            reject("plugin '" + _name + "' reports unknown device type " +
                   std::to_string(static_cast<int>(_deviceType)));
        }
    }

    if (_api.setLoggingCallback != nullptr) {
        _api.setLoggingCallback(&hipdnnLoggingCallback_ext);
    }
    forwardLogLevel(logging::globalLevel());
}

void EnginePlugin::readEngines() {
    uint32_t count = 0;
    requireSuccess(_api.getAllEngineIds(nullptr, 0, &count), "hipdnnEnginePluginGetAllEngineIds");
    if (count == 0) {
        reject("plugin '" + _name + "' reports zero engines");
    }
    std::vector<int64_t> ids(count);
    uint32_t filled = 0;
    requireSuccess(_api.getAllEngineIds(ids.data(), count, &filled), "hipdnnEnginePluginGetAllEngineIds");
    if (filled != count) {
        reject("plugin '" + _name + "' reported " + std::to_string(count) + " engines, then filled " +
               std::to_string(filled));
    }
    std::set<int64_t> seen;
    for (int64_t id : ids) {
        if (!seen.insert(id).second) {
            reject("plugin '" + _name + "' reports duplicate engine id " +
                   hipdnn_data_sdk::utilities::formatEngineIdHex(id));
        }
    }

    for (int64_t id : ids) {
        if (_api.getEngineName != nullptr) {
            const char* engineName = nullptr;
            const hipdnnPluginStatus_t status = _api.getEngineName(id, &engineName);
            if (status == HIPDNN_PLUGIN_STATUS_SUCCESS && engineName != nullptr) {
                const int64_t hashed = hipdnn_data_sdk::utilities::engineNameToId(engineName);
                if (hashed != id) {
                    HIPDNN_LOG_ERROR(
                        "Plugin '{}' ([{}]) reports engine '{}' with id {}, but that name hashes to {}; "
                        "dropping the engine",
                        _name, _path.string(), engineName, hipdnn_data_sdk::utilities::formatEngineIdHex(id),
                        hipdnn_data_sdk::utilities::formatEngineIdHex(hashed));
                    continue;
                }
                _reportedEngineNames.emplace(id, engineName);
            } else if (status != HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE) {
                HIPDNN_LOG_WARN("Plugin '{}' could not name engine {}: {}", _name,
                                hipdnn_data_sdk::utilities::formatEngineIdHex(id), pluginStatusName(status));
            }
        }
        _engineIds.push_back(id);
    }
    if (_engineIds.empty()) {
        reject("plugin '" + _name + "' has no valid engines left");
    }
}

bool EnginePlugin::supportsPlanSerialization() const noexcept {
    return _api.serializeExecutionContext != nullptr && _api.destroySerializedExecutionContext != nullptr &&
           _api.createExecutionContextFromSerialized != nullptr;
}

bool EnginePlugin::providesEngine(int64_t engineId) const noexcept {
    return std::find(_engineIds.begin(), _engineIds.end(), engineId) != _engineIds.end();
}

std::string EnginePlugin::engineName(int64_t engineId) const {
    if (auto reported = _reportedEngineNames.find(engineId); reported != _reportedEngineNames.end()) {
        return reported->second;
    }
    if (auto registered = hipdnn_data_sdk::utilities::tryGetEngineNameFromId(engineId)) {
        return std::string(*registered);
    }
    return hipdnn_data_sdk::utilities::formatEngineIdHex(engineId);
}

void EnginePlugin::dropEngine(int64_t engineId) {
    _engineIds.erase(std::remove(_engineIds.begin(), _engineIds.end(), engineId), _engineIds.end());
}

const std::string& EnginePlugin::libraryVersions() const {
    // Asked on first need (a tuning database lookup), not at load: reporting may load the device
    // libraries, which a process that never tunes should not pay for. Only the tuning database's
    // trust depends on it, so a failure is logged, not fatal.
    std::call_once(_libraryVersionsAsked, [this] {
        if (_api.getLibraryVersions == nullptr) {
            return;
        }
        const char* text = nullptr;
        const hipdnnPluginStatus_t status = _api.getLibraryVersions(&text);
        if (status == HIPDNN_PLUGIN_STATUS_SUCCESS && text != nullptr) {
            _libraryVersions = text;
            return;
        }
        HIPDNN_LOG_WARN(
            "Plugin '{}': hipdnnEnginePluginGetLibraryVersions_ext gave {} ({}); its tuning records "
            "will name no libraries",
            _name, pluginStatusName(status),
            status != HIPDNN_PLUGIN_STATUS_SUCCESS ? lastError() : std::string("a null string"));
    });
    return _libraryVersions;
}

std::string EnginePlugin::lastError() const {
    const char* text = nullptr;
    _api.getLastErrorString(&text);
    return text != nullptr ? std::string(text) : std::string();
}

void EnginePlugin::forwardLogLevel(hipdnnSeverity_t level) const noexcept {
    if (_api.setLogLevel != nullptr) {
        _api.setLogLevel(level);
    }
}

}  // namespace hipdnn_backend::plugin
