// Checks an engine configuration's knob settings against the knobs an engine describes.
#pragma once

#include <hipdnn_flatbuffers_sdk/Builders.hpp>
#include <hipdnn_flatbuffers_sdk/EngineConfigWrapper.hpp>
#include <hipdnn_flatbuffers_sdk/FlatbufferError.hpp>
#include <hipdnn_plugin_sdk/PluginError.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace hipdnn_plugin_sdk {

/// Knob ids with this prefix are reserved for knobs every engine accepts.
inline constexpr std::string_view kGlobalKnobPrefix = "global.";
/// int 0/1: the engine may time candidate algorithms on first execution.
inline constexpr std::string_view kGlobalBenchmarkingKnob = "global.benchmarking";
/// int >= -1: most workspace bytes the engine may ask for; -1 means unlimited.
inline constexpr std::string_view kGlobalWorkspaceSizeLimitKnob = "global.workspace_size_limit";

/// Environment variable that overrides global.benchmarking for every engine configuration.
inline constexpr const char* kForceBenchmarkingVariable = "HIPDNN_FORCE_BENCHMARKING";

/// Whether an engine should time its candidate algorithms for `config`: HIPDNN_FORCE_BENCHMARKING
/// when it holds a truthy (1, true, yes, on) or falsy (0, false, no, off) word, any case; else
/// the configuration's global.benchmarking knob (default 0). Other words are ignored.
inline bool benchmarkingRequested(const hipdnn_flatbuffers_sdk::IEngineConfig& config) {
    if (const char* value = std::getenv(kForceBenchmarkingVariable)) {
        std::string word(value);
        std::transform(word.begin(), word.end(), word.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        for (const char* truthy : {"1", "true", "yes", "on"}) {
            if (word == truthy) {
                return true;
            }
        }
        for (const char* falsy : {"0", "false", "no", "off"}) {
            if (word == falsy) {
                return false;
            }
        }
    }
    return config.intKnob(kGlobalBenchmarkingKnob).value_or(0) == 1;
}

/// Descriptions of the global.* knobs this SDK knows.
inline std::vector<hipdnn_flatbuffers_sdk::KnobDescription> globalKnobDescriptions() {
    using hipdnn_flatbuffers_sdk::IntKnobConstraint;
    using hipdnn_flatbuffers_sdk::KnobDescription;
    return {
        KnobDescription{std::string(kGlobalBenchmarkingKnob),
                        "1: time candidate algorithms on first execution; 0: do not", int64_t{0},
                        IntKnobConstraint{.min = 0, .max = 1, .step = 1, .validValues = {}}, false},
        KnobDescription{std::string(kGlobalWorkspaceSizeLimitKnob),
                        "most workspace bytes the engine may use; -1: unlimited", int64_t{-1},
                        IntKnobConstraint{.min = -1, .max = INT64_MAX, .step = 1, .validValues = {}}, false},
    };
}

namespace detail {

inline std::string formatKnobValue(const hipdnn_flatbuffers_sdk::KnobValue& value) {
    if (const auto* number = std::get_if<int64_t>(&value)) {
        return std::to_string(*number);
    }
    if (const auto* real = std::get_if<double>(&value)) {
        char text[64];
        const auto result = std::to_chars(text, text + sizeof(text), *real);
        return std::string(text, result.ptr);
    }
    return "\"" + std::get<std::string>(value) + "\"";
}

inline const char* knobTypeName(const hipdnn_flatbuffers_sdk::KnobValue& value) {
    switch (value.index()) {
        case 0:
            return "int";
        case 1:
            return "float";
        default:
            return "string";
    }
}

// The value of a knob that `config` sets, whatever its type.
inline hipdnn_flatbuffers_sdk::KnobValue knobValueOf(const hipdnn_flatbuffers_sdk::IEngineConfig& config,
                                                     std::string_view id) {
    // Exactly one of the typed getters succeeds for a set knob; the others throw EngineConfigError.
    try {
        if (auto number = config.intKnob(id)) {
            return *number;
        }
    } catch (const hipdnn_flatbuffers_sdk::EngineConfigError&) {
    }
    try {
        if (auto real = config.floatKnob(id)) {
            return *real;
        }
    } catch (const hipdnn_flatbuffers_sdk::EngineConfigError&) {
    }
    if (auto text = config.stringKnob(id)) {
        return *text;
    }
    throw PluginError(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "knob '" + std::string(id) + "' has no value");
}

[[noreturn]] inline void rejectKnob(const std::string& id, const hipdnn_flatbuffers_sdk::KnobValue& value,
                                    const std::string& problem) {
    throw PluginError(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                      "knob '" + id + "' value " + formatKnobValue(value) + " " + problem);
}

template <class T>
bool contains(const std::vector<T>& values, const T& value) {
    return std::find(values.begin(), values.end(), value) != values.end();
}

}  // namespace detail

/// Throws PluginError(BAD_PARAM), naming the knob and the value, when `value` does not have the
/// knob's type or breaks its constraint.
inline void validateKnobValue(const hipdnn_flatbuffers_sdk::KnobDescription& knob,
                              const hipdnn_flatbuffers_sdk::KnobValue& value) {
    if (value.index() != knob.defaultValue.index()) {
        detail::rejectKnob(knob.id, value,
                           std::string("has type ") + detail::knobTypeName(value) +
                               " but the knob's type is " + detail::knobTypeName(knob.defaultValue));
    }
    if (const auto* c = std::get_if<hipdnn_flatbuffers_sdk::IntKnobConstraint>(&knob.constraint)) {
        const int64_t number = std::get<int64_t>(value);
        if (number < c->min || number > c->max) {
            detail::rejectKnob(knob.id, value,
                               "is outside [" + std::to_string(c->min) + ", " + std::to_string(c->max) + "]");
        }
        // Unsigned arithmetic: the distance from min fits in uint64_t even across the whole range.
        const uint64_t step = c->step > 0 ? static_cast<uint64_t>(c->step) : 1U;
        if ((static_cast<uint64_t>(number) - static_cast<uint64_t>(c->min)) % step != 0) {
            detail::rejectKnob(
                knob.id, value,
                "is not min " + std::to_string(c->min) + " plus a multiple of step " + std::to_string(step));
        }
        if (!c->validValues.empty() && !detail::contains(c->validValues, number)) {
            detail::rejectKnob(knob.id, value, "is not one of the knob's valid values");
        }
    } else if (const auto* c = std::get_if<hipdnn_flatbuffers_sdk::FloatKnobConstraint>(&knob.constraint)) {
        const double real = std::get<double>(value);
        if (std::isnan(real) || real < c->min || real > c->max) {
            detail::rejectKnob(knob.id, value,
                               "is outside [" + detail::formatKnobValue(c->min) + ", " +
                                   detail::formatKnobValue(c->max) + "]");
        }
        if (!c->validValues.empty() && !detail::contains(c->validValues, real)) {
            detail::rejectKnob(knob.id, value, "is not one of the knob's valid values");
        }
    } else if (const auto* c = std::get_if<hipdnn_flatbuffers_sdk::StringKnobConstraint>(&knob.constraint)) {
        const std::string& text = std::get<std::string>(value);
        if (c->maxLength > 0 && text.size() > static_cast<uint64_t>(c->maxLength)) {
            detail::rejectKnob(knob.id, value,
                               "is longer than the maximum length " + std::to_string(c->maxLength));
        }
        if (!c->validValues.empty() && !detail::contains(c->validValues, text)) {
            detail::rejectKnob(knob.id, value, "is not one of the knob's valid values");
        }
    }
}

/// Checks every knob `config` sets against `engineKnobs` (what the engine's knobs() returned)
/// and the global knobs. Unknown knob ids, wrong types and constraint violations throw
/// PluginError(BAD_PARAM) naming the knob and the value. global.* knobs this SDK does not know
/// are accepted, so that a newer host can add global knobs without breaking older plugins. An
/// engine describing a knob in the reserved global.* namespace is a plugin bug (INTERNAL_ERROR).
inline void validateKnobSettings(const hipdnn_flatbuffers_sdk::IEngineConfig& config,
                                 const std::vector<hipdnn_flatbuffers_sdk::KnobDescription>& engineKnobs) {
    for (const hipdnn_flatbuffers_sdk::KnobDescription& knob : engineKnobs) {
        if (std::string_view(knob.id).starts_with(kGlobalKnobPrefix)) {
            throw PluginError(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
                              "engine describes knob '" + knob.id + "' in the reserved global. namespace");
        }
    }
    const std::vector<hipdnn_flatbuffers_sdk::KnobDescription> globalKnobs = globalKnobDescriptions();
    for (const std::string& id : config.knobIds()) {
        const hipdnn_flatbuffers_sdk::KnobValue value = detail::knobValueOf(config, id);
        const bool isGlobal = std::string_view(id).starts_with(kGlobalKnobPrefix);
        const auto& candidates = isGlobal ? globalKnobs : engineKnobs;
        const auto knob =
            std::find_if(candidates.begin(), candidates.end(),
                         [&](const hipdnn_flatbuffers_sdk::KnobDescription& k) { return k.id == id; });
        if (knob != candidates.end()) {
            validateKnobValue(*knob, value);
        } else if (!isGlobal) {
            detail::rejectKnob(id, value, "is set for an unknown knob (the engine does not describe it)");
        }
    }
}

}  // namespace hipdnn_plugin_sdk
