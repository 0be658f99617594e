// Knobs: the tunable settings an engine publishes (Knob, the FlatBuffers SDK's KnobDescription)
// and the values a caller picks for them (KnobSetting). The frontend checks settings against the
// published constraints before the backend sees them.
#pragma once

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

#include <hipdnn_flatbuffers_sdk/data_objects/knob_value_generated.h>
#include <hipdnn_flatbuffers_sdk/Builders.hpp>

#include "Error.hpp"
#include "Types.hpp"

namespace hipdnn_frontend {

using KnobValue = hipdnn_flatbuffers_sdk::KnobValue;
using KnobSetting = hipdnn_flatbuffers_sdk::KnobSetting;
using Knob = hipdnn_flatbuffers_sdk::KnobDescription;
using IntKnobConstraint = hipdnn_flatbuffers_sdk::IntKnobConstraint;
using FloatKnobConstraint = hipdnn_flatbuffers_sdk::FloatKnobConstraint;
using StringKnobConstraint = hipdnn_flatbuffers_sdk::StringKnobConstraint;

inline std::string to_string(const KnobValue& value) {
    if (const auto* number = std::get_if<int64_t>(&value)) {
        return std::to_string(*number);
    }
    if (const auto* real = std::get_if<double>(&value)) {
        return std::to_string(*real);
    }
    return "\"" + std::get<std::string>(value) + "\"";
}

namespace detail {

inline const char* knobTypeName(size_t alternative) {
    static const char* const names[] = {"int64", "double", "string"};
    return alternative < 3 ? names[alternative] : "unknown";
}

template <typename T>
bool listed(const std::vector<T>& values, const T& value) {
    return values.empty() || std::find(values.begin(), values.end(), value) != values.end();
}

// A published knob as a value type; nullopt-like empty id when the buffer has none.
inline Knob knobFromFlatbuffer(const fbs::Knob& source) {
    Knob knob;
    knob.id = source.knob_id() ? source.knob_id()->str() : std::string();
    knob.description = source.description() ? source.description()->str() : std::string();
    knob.deprecated = source.deprecated();
    if (const auto* value = source.default_value_as_IntValue())
        knob.defaultValue = value->value();
    else if (const auto* value = source.default_value_as_FloatValue())
        knob.defaultValue = value->value();
    else if (const auto* value = source.default_value_as_StringValue())
        knob.defaultValue = value->value() ? value->value()->str() : std::string();
    else if (source.value_type() == fbs::KnobValueType::FLOAT64)
        knob.defaultValue = 0.0;
    else if (source.value_type() == fbs::KnobValueType::STRING)
        knob.defaultValue = std::string();
    else
        knob.defaultValue = int64_t{0};

    if (const auto* c = source.constraint_as_IntConstraint()) {
        IntKnobConstraint constraint{c->min_value(), c->max_value(), c->step(), {}};
        if (c->valid_values())
            constraint.validValues.assign(c->valid_values()->begin(), c->valid_values()->end());
        knob.constraint = constraint;
    } else if (const auto* c = source.constraint_as_FloatConstraint()) {
        FloatKnobConstraint constraint{c->min_value(), c->max_value(), {}};
        if (c->valid_values())
            constraint.validValues.assign(c->valid_values()->begin(), c->valid_values()->end());
        knob.constraint = constraint;
    } else if (const auto* c = source.constraint_as_StringConstraint()) {
        StringKnobConstraint constraint{c->max_length(), {}};
        if (c->valid_values())
            for (const auto* value : *c->valid_values())
                constraint.validValues.push_back(value->str());
        knob.constraint = constraint;
    }
    return knob;
}

}  // namespace detail

// INVALID_VALUE, naming the knob and the value, when `value` has another type than the knob or
// breaks its constraint.
inline Error validate_knob_value(const Knob& knob, const KnobValue& value) {
    const std::string prefix = "knob '" + knob.id + "' = " + to_string(value) + ": ";
    HIPDNN_RETURN_FRONTEND_ERROR_IF(value.index() != knob.defaultValue.index(), ErrorCode::INVALID_VALUE,
                                    prefix + "the knob takes " +
                                        detail::knobTypeName(knob.defaultValue.index()) + ", not " +
                                        detail::knobTypeName(value.index()));
    if (const auto* c = std::get_if<IntKnobConstraint>(&knob.constraint)) {
        const int64_t number = std::get<int64_t>(value);
        const int64_t step = c->step <= 0 ? 1 : c->step;
        HIPDNN_RETURN_FRONTEND_ERROR_IF(
            number < c->min || number > c->max, ErrorCode::INVALID_VALUE,
            prefix + "outside [" + std::to_string(c->min) + ", " + std::to_string(c->max) + "]");
        HIPDNN_RETURN_FRONTEND_ERROR_IF(
            (number - c->min) % step != 0, ErrorCode::INVALID_VALUE,
            prefix + "not on the step " + std::to_string(step) + " from " + std::to_string(c->min));
        HIPDNN_RETURN_FRONTEND_ERROR_IF(!detail::listed(c->validValues, number), ErrorCode::INVALID_VALUE,
                                        prefix + "not one of the valid values");
    } else if (const auto* c = std::get_if<FloatKnobConstraint>(&knob.constraint)) {
        const double real = std::get<double>(value);
        HIPDNN_RETURN_FRONTEND_ERROR_IF(
            real < c->min || real > c->max, ErrorCode::INVALID_VALUE,
            prefix + "outside [" + std::to_string(c->min) + ", " + std::to_string(c->max) + "]");
        HIPDNN_RETURN_FRONTEND_ERROR_IF(!detail::listed(c->validValues, real), ErrorCode::INVALID_VALUE,
                                        prefix + "not one of the valid values");
    } else if (const auto* c = std::get_if<StringKnobConstraint>(&knob.constraint)) {
        const auto& text = std::get<std::string>(value);
        HIPDNN_RETURN_FRONTEND_ERROR_IF(
            c->maxLength > 0 && static_cast<int64_t>(text.size()) > c->maxLength, ErrorCode::INVALID_VALUE,
            prefix + "longer than " + std::to_string(c->maxLength) + " characters");
        HIPDNN_RETURN_FRONTEND_ERROR_IF(!detail::listed(c->validValues, text), ErrorCode::INVALID_VALUE,
                                        prefix + "not one of the valid values");
    }
    return {};
}

}  // namespace hipdnn_frontend
