#include "descriptors/EngineHeuristicDescriptor.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "core/LastError.hpp"
#include "descriptors/EngineConfigDescriptor.hpp"
#include "descriptors/EngineDescriptor.hpp"
#include "descriptors/OperationGraphDescriptor.hpp"
#include "heuristics/DeclineReasons.hpp"
#include "heuristics/EngineRanking.hpp"
#include "logging/Logger.hpp"
#include "tuning/TuningLookup.hpp"

namespace hipdnn_backend::descriptors {

namespace {

void appendDeclined(std::string& declined, const std::string& engine, const std::string& plugin,
                    std::string_view reason) {
    declined += engine;
    declined += '\t';
    declined += plugin;
    declined += '\t';
    declined += reason;
    declined += '\n';
}

}  // namespace

void EngineHeuristicDescriptor::set(const AttributeInput& input) {
    switch (input.name) {
        case HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH: {
            auto graph = std::static_pointer_cast<OperationGraphDescriptor>(
                input.descriptor(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, /*requireFinalized=*/true));
            _graph = graph->finalizedGraph();
            return;
        }
        case HIPDNN_ATTR_ENGINEHEUR_MODE: {
            const auto mode = input.single<hipdnnBackendHeurMode_t>(HIPDNN_TYPE_HEUR_MODE);
            if (mode == HIPDNN_HEUR_MODE_INSTANT) {
                throw HipdnnException(HIPDNN_STATUS_NOT_SUPPORTED,
                                      "HIPDNN_HEUR_MODE_INSTANT is not supported; use FALLBACK, A or B");
            }
            if (mode != HIPDNN_HEUR_MODE_FALLBACK && mode != HIPDNN_HEUR_MODE_A &&
                mode != HIPDNN_HEUR_MODE_B) {
                throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                                      fmt::format("Invalid heuristic mode {}", static_cast<int>(mode)));
            }
            _mode = mode;
            return;
        }
        case HIPDNN_ATTR_ENGINEHEUR_FIND_FIRST_EXT:
            _findFirst = input.single<bool>(HIPDNN_TYPE_BOOLEAN);
            return;
        default:
            rejectAttribute(input.name);
    }
}

void EngineHeuristicDescriptor::finalizeDescriptor() {
    if (!_graph || !_mode) {
        throw HipdnnException(
            HIPDNN_STATUS_BAD_PARAM,
            "An ENGINEHEUR needs HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH and HIPDNN_ATTR_ENGINEHEUR_MODE");
    }
    // Modes A and B rank like FALLBACK: a tuning record, then the engines' estimated times, then
    // the static order.
    std::vector<std::vector<int64_t>> applicableByPlugin;
    std::map<int64_t, double> estimatedSeconds;
    std::string estimates;
    const bool logEstimates = logging::isEnabled(HIPDNN_SEV_INFO);
    std::string declined;
    const hipdnnPluginConstData_t graphData = _graph->data();
    for (const auto& instance : _graph->handle->instances()) {
        const plugin::EnginePlugin& plugin = instance->plugin();
        if (plugin.apiVersion() < _graph->minimumApiVersion) {
            const std::string reason =
                fmt::format("plugin API version {} is below the graph's required {}",
                            plugin.apiVersion().toString(), _graph->minimumApiVersion.toString());
            for (int64_t id : plugin.engineIds()) {
                appendDeclined(declined, plugin.engineName(id), plugin.name(), reason);
            }
            continue;
        }
        plugin::ApplicableEngines result;
        try {
            result = instance->applicableEngines(graphData);
        } catch (const HipdnnException& error) {
            // One misbehaving plugin must not hide the others' engines: its engines count as
            // declined with the error as the reason (an ENGINE on them fails with PLUGIN_ERROR).
            HIPDNN_LOG_ERROR("{}", error.what());
            for (int64_t id : plugin.engineIds()) {
                appendDeclined(declined, plugin.engineName(id), plugin.name(), error.what());
            }
            continue;
        }
        const auto reasons = heuristics::parseDeclineReasons(result.declineText);
        for (int64_t id : plugin.engineIds()) {
            if (std::find(result.engineIds.begin(), result.engineIds.end(), id) != result.engineIds.end()) {
                continue;
            }
            const std::string name = plugin.engineName(id);
            auto reason = reasons.find(name);
            appendDeclined(
                declined, name, plugin.name(),
                reason != reasons.end() ? std::string_view(reason->second) : heuristics::kNoDeclineReason);
        }
        for (int64_t id : result.engineIds) {
            if (const std::optional<double> seconds = instance->estimatedSeconds(id, graphData)) {
                estimatedSeconds.emplace(id, *seconds);
                if (logEstimates) {
                    estimates += fmt::format("{}{} {:.4g} ms", estimates.empty() ? "" : ", ",
                                             plugin.engineName(id), *seconds * 1e3);
                }
            }
        }
        const bool found = !result.engineIds.empty();
        applicableByPlugin.push_back(std::move(result.engineIds));
        if (_findFirst && found) {
            break;
        }
    }
    _tuned = applicableByPlugin.empty() ? std::nullopt : tuning::tunedConfigFor(*_graph);
    _ranked = heuristics::rankEngines(applicableByPlugin, _graph->preferredEngineId,
                                      _tuned ? std::optional<int64_t>(_tuned->engineId) : std::nullopt,
                                      estimatedSeconds);
    _declined = std::move(declined);
    if (!estimates.empty()) {
        HIPDNN_LOG_INFO("Estimated times for graph '{}': {}", _graph->name, estimates);
    }
    if (_ranked.empty()) {
        // Finalize succeeds with zero results; the reason is logged and, for callers running with
        // logging off, left as the thread's last error.
        const std::string plugins = _graph->handle->describePlugins();
        const std::string message =
            _declined.empty()
                ? fmt::format("No engine applies to graph '{}': no engine was asked. Plugins: {}",
                              _graph->name, plugins)
                : fmt::format(
                      "No engine applies to graph '{}'. Plugins: {}. Declined engines (engine, plugin, "
                      "reason):\n{}",
                      _graph->name, plugins, _declined);
        HIPDNN_LOG_WARN("{}", message);
        setLastError(message);
    } else if (!_declined.empty()) {
        HIPDNN_LOG_INFO("Engines that declined graph '{}' (engine, plugin, reason):\n{}", _graph->name,
                        _declined);
    }
}

void EngineHeuristicDescriptor::get(AttributeOutput& output) const {
    switch (output.name) {
        case HIPDNN_ATTR_ENGINEHEUR_RESULTS: {
            output.requireType(HIPDNN_TYPE_BACKEND_DESCRIPTOR);
            if (output.requested == 0) {
                *output.count = static_cast<int64_t>(_ranked.size());
                return;
            }
            const auto configs =
                output.callerDescriptors(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, _ranked.size());
            const size_t filled = configs.size();
            for (size_t index = 0; index < filled; ++index) {
                auto config = std::static_pointer_cast<EngineConfigDescriptor>(configs[index]);
                config->setEngine(EngineDescriptor::createFinalized(_graph, _ranked[index]));
                if (_tuned && _tuned->engineId == _ranked[index]) {
                    config->setTunedChoices(_tuned->knobs);
                }
            }
            *output.count = static_cast<int64_t>(filled);
            return;
        }
        case HIPDNN_ATTR_ENGINEHEUR_DECLINED_EXT:
            output.writeText(_declined);
            return;
        default:
            rejectAttribute(output.name);
    }
}

}  // namespace hipdnn_backend::descriptors
