#include "tuning/TuningRecord.hpp"

#include <ctime>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace hipdnn_backend::tuning {

namespace {

using nlohmann::json;

std::string requireString(const json& object, const char* field) {
    const auto found = object.find(field);
    if (found == object.end() || !found->is_string()) {
        throw std::invalid_argument(std::string("field \"") + field + "\" is missing or not a string");
    }
    return found->get<std::string>();
}

// "" when the field is absent.
std::string optionalString(const json& object, const char* field) {
    const auto found = object.find(field);
    if (found == object.end()) {
        return {};
    }
    if (!found->is_string()) {
        throw std::invalid_argument(std::string("field \"") + field + "\" is not a string");
    }
    return found->get<std::string>();
}

double requireNumber(const json& object, const char* field) {
    const auto found = object.find(field);
    if (found == object.end() || !found->is_number()) {
        throw std::invalid_argument(std::string("field \"") + field + "\" is missing or not a number");
    }
    return found->get<double>();
}

json knobValueToJson(const descriptors::KnobValue& value) {
    return std::visit([](const auto& held) { return json(held); }, value);
}

descriptors::KnobValue knobValueFromJson(const std::string& knobId, const json& value) {
    if (value.is_number_integer()) {
        return value.get<int64_t>();
    }
    if (value.is_number()) {
        return value.get<double>();
    }
    if (value.is_string()) {
        return value.get<std::string>();
    }
    throw std::invalid_argument("knob \"" + knobId +
                                "\" has a value that is not a number or a string: " + value.dump());
}

}  // namespace

std::string toJsonLine(const TuningRecord& record) {
    json knobs = json::object();
    for (const auto& choice : record.knobs) {
        knobs[choice.knobId] = knobValueToJson(choice.value);
    }
    json object = {{"graph", record.graphKey},     {"device", record.device},
                   {"plugin", record.plugin},      {"plugin_version", record.pluginVersion},
                   {"engine", record.engine},      {"knobs", knobs},
                   {"median_ms", record.medianMs}, {"margin_ms", record.marginMs},
                   {"date", record.date},          {"tool", record.tool}};
    if (!record.libraries.empty()) {
        object["libraries"] = record.libraries;
    }
    if (!record.provenance.empty()) {
        object["provenance"] = record.provenance;
    }
    return object.dump();
}

TuningRecord fromJsonLine(std::string_view line) {
    const json object = json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
    if (!object.is_object()) {
        throw std::invalid_argument("not a JSON object");
    }
    TuningRecord record;
    record.graphKey = requireString(object, "graph");
    record.device = requireString(object, "device");
    record.plugin = requireString(object, "plugin");
    record.pluginVersion = requireString(object, "plugin_version");
    record.engine = requireString(object, "engine");
    record.medianMs = requireNumber(object, "median_ms");
    record.marginMs = requireNumber(object, "margin_ms");
    record.date = requireString(object, "date");
    record.tool = requireString(object, "tool");
    if (record.graphKey.empty() || record.engine.empty() || record.plugin.empty()) {
        throw std::invalid_argument("field \"graph\", \"plugin\" or \"engine\" is empty");
    }
    if (!(record.medianMs >= 0) || !(record.marginMs >= 0)) {
        throw std::invalid_argument("median_ms and margin_ms must be non-negative numbers");
    }
    const auto knobs = object.find("knobs");
    if (knobs == object.end() || !knobs->is_object()) {
        throw std::invalid_argument("field \"knobs\" is missing or not an object");
    }
    for (const auto& [knobId, value] : knobs->items()) {
        record.knobs.push_back({knobId, knobValueFromJson(knobId, value)});
    }
    record.libraries = optionalString(object, "libraries");
    record.provenance = optionalString(object, "provenance");
    return record;
}

std::string utcNow() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

}  // namespace hipdnn_backend::tuning
