#include "tuning/TuningLookup.hpp"

#include <cmath>
#include <mutex>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>
#include <hipdnn_flatbuffers_sdk/data_objects/engine_config_generated.h>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_flatbuffers_sdk/CanonicalGraph.hpp>

#include "core/HipdnnException.hpp"
#include "logging/Logger.hpp"
#include "tuning/TuningDatabase.hpp"

namespace hipdnn_backend::tuning {

namespace {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

std::vector<descriptors::KnobChoice> knobsOf(const std::vector<uint8_t>& serializedConfig) {
    std::vector<descriptors::KnobChoice> knobs;
    const fb::EngineConfig* config = fb::GetEngineConfig(serializedConfig.data());
    if (config->knobs() == nullptr) {
        return knobs;
    }
    for (const fb::KnobSetting* setting : *config->knobs()) {
        const auto value = descriptors::readKnobValue(setting->value_type(), setting->value());
        if (setting->knob_id() != nullptr && value) {
            knobs.push_back({setting->knob_id()->str(), *value});
        }
    }
    return knobs;
}

// canonicalGraphKey, memoized by the graph's exact bytes: a plan rebuilt for the same graph (same
// names and uids, the common case) costs a hash and a compare instead of a JSON round trip.
std::string graphKeyOf(const std::vector<uint8_t>& bytes) {
    constexpr size_t kMaximumEntries = 4096;
    static std::mutex mutex;
    static std::unordered_map<uint64_t, std::pair<std::vector<uint8_t>, std::string>> keys;
    const uint64_t hash = hipdnn_data_sdk::utilities::fnv1aHash(
        std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    {
        const std::lock_guard lock(mutex);
        if (const auto found = keys.find(hash); found != keys.end() && found->second.first == bytes) {
            return found->second.second;
        }
    }
    std::string key = hipdnn_flatbuffers_sdk::canonicalGraphKey(bytes.data(), bytes.size());
    const std::lock_guard lock(mutex);
    if (keys.size() >= kMaximumEntries) {
        keys.clear();
    }
    keys[hash] = {bytes, key};
    return key;
}

}  // namespace

std::optional<TunedConfig> tunedConfigFor(const descriptors::FinalizedGraph& graph) {
    const auto& database = graph.handle->tuningDatabase();
    // A new graph's canonical key is a JSON round trip: not worth it without a record to find.
    if (!database || database->empty()) {
        return std::nullopt;
    }
    std::string graphKey;
    try {
        graphKey = graphKeyOf(graph.bytes);
    } catch (const std::exception& error) {
        // E.g. a NaN or infinite scalar, which the JSON printer writes as nan/inf: no record can
        // name this graph, and the static order stands.
        HIPDNN_LOG_INFO("Tuning database not consulted for graph '{}': {}", graph.name, error.what());
        return std::nullopt;
    }
    const auto record = database->find(graphKey, graph.handle->deviceFingerprint());
    if (!record) {
        return std::nullopt;
    }
    const int64_t engineId = hipdnn_data_sdk::utilities::engineNameToId(record->engine);
    const plugin::PluginInstance* instance = graph.handle->instanceForEngine(engineId);
    std::optional<PluginIdentity> loaded;
    if (instance != nullptr) {
        const plugin::EnginePlugin& plugin = instance->plugin();
        loaded = PluginIdentity{plugin.name(), plugin.version(), plugin.libraryVersions()};
    }
    if (const std::string reason = distrustReason(*record, loaded ? &*loaded : nullptr); !reason.empty()) {
        HIPDNN_LOG_INFO("Tuning record of graph '{}' (engine {}) ignored: {}{}", graph.name, record->engine,
                        reason,
                        loaded ? fmt::format(" (this handle's {} is of plugin {} {})", record->engine,
                                             loaded->name, loaded->version)
                               : std::string());
        return std::nullopt;
    }
    HIPDNN_LOG_INFO(
        "Tuning database {}: engine {} first for graph '{}'{} (median {} ms, {} ms ahead, by {} on {})",
        database->file().string(), record->engine, graph.name,
        record->knobs.empty() ? std::string() : fmt::format(" with {} knob setting(s)", record->knobs.size()),
        record->medianMs, record->marginMs, record->tool, record->date);
    return TunedConfig{engineId, record->knobs};
}

void recordTuningResult(const descriptors::ExecutionPlanDescriptor& plan, double medianMs, double runnerUpMs,
                        const std::string& tool) {
    if (!std::isfinite(medianMs) || medianMs < 0) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                              fmt::format("median_ms must be a finite non-negative time, got {}", medianMs));
    }
    if (!std::isfinite(runnerUpMs) || (runnerUpMs != 0 && runnerUpMs < medianMs)) {
        throw HipdnnException(
            HIPDNN_STATUS_BAD_PARAM,
            fmt::format("runner_up_ms must be 0 (no runner-up) or at least median_ms ({}), got {}", medianMs,
                        runnerUpMs));
    }
    const auto& graph = *plan.graph();
    const auto& database = graph.handle->tuningDatabase();
    if (!database) {
        throw HipdnnException(HIPDNN_STATUS_NOT_SUPPORTED,
                              "The tuning database is off: HIPDNN_DISABLE_CACHE is set, or neither "
                              "HIPDNN_CACHE_DIR, XDG_CACHE_HOME nor HOME names a directory");
    }
    const plugin::EnginePlugin& plugin = plan.instance().plugin();
    TuningRecord record;
    try {
        record.graphKey = graphKeyOf(graph.bytes);
    } catch (const std::exception& error) {
        throw HipdnnException(HIPDNN_STATUS_NOT_SUPPORTED,
                              fmt::format("Graph '{}' has no canonical key for the tuning database: {}",
                                          graph.name, error.what()));
    }
    record.device = graph.handle->deviceFingerprint();
    record.plugin = plugin.name();
    record.pluginVersion = plugin.version();
    record.libraries = plugin.libraryVersions();
    record.engine = plugin.engineName(plan.engineId());
    record.knobs = knobsOf(plan.serializedConfig());
    record.medianMs = medianMs;
    record.marginMs = runnerUpMs == 0 ? 0 : runnerUpMs - medianMs;
    record.date = utcNow();
    record.tool = tool;
    try {
        database->store(record);
    } catch (const std::runtime_error& error) {
        throw HipdnnException(HIPDNN_STATUS_INTERNAL_ERROR, error.what());
    }
}

}  // namespace hipdnn_backend::tuning
