// Engine listing for a handle: the engines of the plugins serving its device.
#include <algorithm>
#include <cstring>
#include <tuple>

#include <fmt/format.h>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

#include "api/ApiGuard.hpp"
#include "api/HandleRegistry.hpp"

using namespace hipdnn_backend;
using namespace hipdnn_backend::api;

namespace {

struct EngineEntry {
    int64_t id;
    std::string name;
    const hipdnn_backend::plugin::EnginePlugin* plugin;
};

// Sorted by name, then id.
std::vector<EngineEntry> listEngines(const plugin::HandleState& state) {
    std::vector<EngineEntry> engines;
    for (const auto& instance : state.instances()) {
        for (int64_t id : instance->plugin().engineIds()) {
            engines.push_back({id, instance->plugin().engineName(id), &instance->plugin()});
        }
    }
    std::sort(engines.begin(), engines.end(), [](const EngineEntry& a, const EngineEntry& b) {
        return std::tie(a.name, a.id) < std::tie(b.name, b.id);
    });
    return engines;
}

// Two-call pattern for one string: a null buffer writes only the length (NUL included); a
// shorter *length is BAD_PARAM_SIZE_INSUFFICIENT.
void writeString(const std::string& text, char* buffer, size_t* length, const char* what) {
    if (length == nullptr) {
        return;  // the caller does not want this string
    }
    const size_t needed = text.size() + 1;
    if (buffer != nullptr) {
        if (*length < needed) {
            throw HipdnnException(
                HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT,
                fmt::format("The {} buffer holds {} bytes but {} are needed", what, *length, needed));
        }
        std::memcpy(buffer, text.c_str(), needed);
    }
    *length = needed;
}

}  // namespace

extern "C" {

hipdnnStatus_t hipdnnGetEngineCount_ext(hipdnnHandle_t handle, size_t* count) {
    return guardedCall(__func__, [&] {
        requireNotNull(handle, "handle");
        requireNotNull(count, "count");
        *count = listEngines(*lookupHandle(handle)).size();
    });
}

hipdnnStatus_t hipdnnGetEngineInfo_ext(hipdnnHandle_t handle, size_t index, int64_t* engine_id,
                                       char* engine_name, size_t* engine_name_len, char* plugin_name,
                                       size_t* plugin_name_len, char* plugin_path, size_t* plugin_path_len) {
    return guardedCall(__func__, [&] {
        requireNotNull(handle, "handle");
        const std::vector<EngineEntry> engines = listEngines(*lookupHandle(handle));
        if (index >= engines.size()) {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                                  fmt::format("Engine index {} is out of range (the handle has {} engines)",
                                              index, engines.size()));
        }
        const EngineEntry& entry = engines[index];
        writeString(entry.name, engine_name, engine_name_len, "engine name");
        writeString(entry.plugin->name(), plugin_name, plugin_name_len, "plugin name");
        writeString(entry.plugin->path().string(), plugin_path, plugin_path_len, "plugin path");
        if (engine_id != nullptr) {
            *engine_id = entry.id;
        }
    });
}

hipdnnStatus_t hipdnnGetEngineIdByName_ext(hipdnnHandle_t handle, const char* name, int64_t* engine_id) {
    return guardedCall(__func__, [&] {
        requireNotNull(handle, "handle");
        requireNotNull(name, "name");
        requireNotNull(engine_id, "engine_id");
        for (const EngineEntry& entry : listEngines(*lookupHandle(handle))) {
            if (entry.name == name) {
                *engine_id = entry.id;
                return;
            }
        }
        throw HipdnnException(HIPDNN_STATUS_NOT_SUPPORTED,
                              fmt::format("No engine named '{}' is loaded for this handle's device", name));
    });
}

hipdnnStatus_t hipdnnGetEngineNameById_ext(hipdnnHandle_t handle, int64_t engine_id, char* name,
                                           size_t* name_len) {
    return guardedCall(__func__, [&] {
        requireNotNull(handle, "handle");
        requireNotNull(name_len, "name_len");
        const auto state = lookupHandle(handle);
        const plugin::PluginInstance* instance = state->instanceForEngine(engine_id);
        if (instance == nullptr) {
            throw HipdnnException(HIPDNN_STATUS_NOT_SUPPORTED,
                                  fmt::format("No engine with id {} is loaded for this handle's device",
                                              hipdnn_data_sdk::utilities::formatEngineIdHex(engine_id)));
        }
        writeString(instance->plugin().engineName(engine_id), name, name_len, "name");
    });
}

}  // extern "C"
