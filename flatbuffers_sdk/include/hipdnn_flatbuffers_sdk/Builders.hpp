#pragma once

#include "hipdnn_flatbuffers_sdk/data_objects/engine_config_generated.h"
#include "hipdnn_flatbuffers_sdk/data_objects/engine_details_generated.h"
#include "hipdnn_flatbuffers_sdk/data_objects/knob_value_generated.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace hipdnn_flatbuffers_sdk {

// A knob value: INT64, FLOAT64 or STRING in the schema's terms.
using KnobValue = std::variant<int64_t, double, std::string>;

inline data_objects::KnobValueType knobValueType(const KnobValue& value) {
    switch (value.index()) {
        case 0:
            return data_objects::KnobValueType::INT64;
        case 1:
            return data_objects::KnobValueType::FLOAT64;
        default:
            return data_objects::KnobValueType::STRING;
    }
}

inline flatbuffers::Offset<void> serializeKnobValue(flatbuffers::FlatBufferBuilder& builder,
                                                    const KnobValue& value) {
    if (const auto* number = std::get_if<int64_t>(&value)) {
        return data_objects::CreateIntValue(builder, *number).Union();
    }
    if (const auto* real = std::get_if<double>(&value)) {
        return data_objects::CreateFloatValue(builder, *real).Union();
    }
    return data_objects::CreateStringValueDirect(builder, std::get<std::string>(value).c_str()).Union();
}

inline data_objects::KnobValue knobValueUnionType(const KnobValue& value) {
    switch (value.index()) {
        case 0:
            return data_objects::KnobValue::IntValue;
        case 1:
            return data_objects::KnobValue::FloatValue;
        default:
            return data_objects::KnobValue::StringValue;
    }
}

// Constraints on a knob's value. step 1 means every integer in [min, max]; validValues, when
// not empty, lists every allowed value.
struct IntKnobConstraint {
    int64_t min = std::numeric_limits<int64_t>::min();
    int64_t max = std::numeric_limits<int64_t>::max();
    int64_t step = 1;
    std::vector<int64_t> validValues;

    static IntKnobConstraint range(int64_t min, int64_t max, int64_t step = 1) {
        return {min, max, step, {}};
    }
    static IntKnobConstraint oneOf(std::vector<int64_t> values) {
        IntKnobConstraint constraint;
        constraint.validValues = std::move(values);
        return constraint;
    }
};

struct FloatKnobConstraint {
    double min = std::numeric_limits<double>::lowest();
    double max = std::numeric_limits<double>::max();
    std::vector<double> validValues;

    static FloatKnobConstraint range(double min, double max) { return {min, max, {}}; }
    static FloatKnobConstraint oneOf(std::vector<double> values) {
        FloatKnobConstraint constraint;
        constraint.validValues = std::move(values);
        return constraint;
    }
};

// maxLength 0 means unlimited.
struct StringKnobConstraint {
    int32_t maxLength = 0;
    std::vector<std::string> validValues;

    static StringKnobConstraint maxLengthOf(int32_t maxLength) { return {maxLength, {}}; }
    static StringKnobConstraint oneOf(std::vector<std::string> values) { return {0, std::move(values)}; }
};

using KnobConstraint =
    std::variant<std::monostate, IntKnobConstraint, FloatKnobConstraint, StringKnobConstraint>;

// A knob an engine offers. The default value's alternative is the knob's value type; a
// constraint, when given, must be of the same type.
struct KnobDescription {
    std::string id;
    std::string description;
    KnobValue defaultValue;
    KnobConstraint constraint;
    bool deprecated = false;

    static KnobDescription intKnob(std::string id, std::string description, int64_t defaultValue,
                                   std::optional<IntKnobConstraint> constraint = std::nullopt) {
        return make(std::move(id), std::move(description), defaultValue, std::move(constraint));
    }
    static KnobDescription floatKnob(std::string id, std::string description, double defaultValue,
                                     std::optional<FloatKnobConstraint> constraint = std::nullopt) {
        return make(std::move(id), std::move(description), defaultValue, std::move(constraint));
    }
    static KnobDescription stringKnob(std::string id, std::string description, std::string defaultValue,
                                      std::optional<StringKnobConstraint> constraint = std::nullopt) {
        return make(std::move(id), std::move(description), std::move(defaultValue), std::move(constraint));
    }

    data_objects::KnobValueType valueType() const { return knobValueType(defaultValue); }

    // Throws std::invalid_argument when the id is empty or the constraint's type differs from
    // the value type.
    flatbuffers::Offset<data_objects::Knob> serialize(flatbuffers::FlatBufferBuilder& builder) const {
        if (id.empty()) {
            throw std::invalid_argument("knob description without an id");
        }
        const size_t constraintType = constraint.index();
        if (constraintType != 0 && constraintType != defaultValue.index() + 1) {
            throw std::invalid_argument("knob '" + id + "' has a constraint of another type than its " +
                                        data_objects::EnumNameKnobValueType(valueType()) + " value");
        }
        const auto idOffset = builder.CreateString(id);
        const auto descriptionOffset = builder.CreateString(description);
        const auto defaultOffset = serializeKnobValue(builder, defaultValue);
        const auto constraintOffset = serializeConstraint(builder);
        return data_objects::CreateKnob(builder, idOffset, descriptionOffset,
                                        knobValueUnionType(defaultValue), defaultOffset,
                                        static_cast<data_objects::KnobConstraint>(constraintType),
                                        constraintOffset, deprecated, valueType());
    }

private:
    template <class Constraint>
    static KnobDescription make(std::string id, std::string description, KnobValue defaultValue,
                                std::optional<Constraint> constraint) {
        KnobDescription knob{std::move(id), std::move(description), std::move(defaultValue), std::monostate(),
                             false};
        if (constraint) {
            knob.constraint = std::move(*constraint);
        }
        return knob;
    }

    flatbuffers::Offset<void> serializeConstraint(flatbuffers::FlatBufferBuilder& builder) const {
        if (const auto* c = std::get_if<IntKnobConstraint>(&constraint)) {
            return data_objects::CreateIntConstraintDirect(builder, c->min, c->max, c->step, &c->validValues)
                .Union();
        }
        if (const auto* c = std::get_if<FloatKnobConstraint>(&constraint)) {
            return data_objects::CreateFloatConstraintDirect(builder, c->min, c->max, &c->validValues)
                .Union();
        }
        if (const auto* c = std::get_if<StringKnobConstraint>(&constraint)) {
            std::vector<flatbuffers::Offset<flatbuffers::String>> values;
            values.reserve(c->validValues.size());
            for (const auto& value : c->validValues) {
                values.push_back(builder.CreateString(value));
            }
            return data_objects::CreateStringConstraintDirect(builder, c->maxLength, &values).Union();
        }
        return 0;
    }
};

// One chosen knob value in an engine configuration.
struct KnobSetting {
    std::string id;
    KnobValue value;

    flatbuffers::Offset<data_objects::KnobSetting> serialize(flatbuffers::FlatBufferBuilder& builder) const {
        if (id.empty()) {
            throw std::invalid_argument("knob setting without an id");
        }
        const auto idOffset = builder.CreateString(id);
        const auto valueOffset = serializeKnobValue(builder, value);
        return data_objects::CreateKnobSetting(builder, idOffset, knobValueUnionType(value), valueOffset);
    }
};

namespace detail {

template <class Item>
void requireUniqueIds(const std::vector<Item>& items, std::string_view what) {
    std::set<std::string_view> seen;
    for (const auto& item : items) {
        if (!seen.insert(item.id).second) {
            throw std::invalid_argument("duplicate knob id '" + item.id + "' in " + std::string(what));
        }
    }
}

inline std::vector<uint8_t> release(flatbuffers::FlatBufferBuilder& builder) {
    return {builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize()};
}

}  // namespace detail

// A serialized EngineDetails. Throws std::invalid_argument on duplicate or empty knob ids.
inline std::vector<uint8_t> makeEngineDetails(int64_t engineId, std::string_view name,
                                              const std::vector<KnobDescription>& knobs,
                                              const std::vector<data_objects::BehaviorNote>& behaviorNotes) {
    detail::requireUniqueIds(knobs, "engine details");
    flatbuffers::FlatBufferBuilder builder;
    std::vector<flatbuffers::Offset<data_objects::Knob>> knobOffsets;
    knobOffsets.reserve(knobs.size());
    for (const auto& knob : knobs) {
        knobOffsets.push_back(knob.serialize(builder));
    }
    const auto knobVector = builder.CreateVector(knobOffsets);
    const auto notesVector = builder.CreateVector(behaviorNotes);
    const auto nameOffset = builder.CreateString(name.data(), name.size());
    builder.Finish(data_objects::CreateEngineDetails(builder, engineId, knobVector, notesVector, nameOffset));
    return detail::release(builder);
}

// A serialized EngineConfig. Throws std::invalid_argument on duplicate or empty knob ids.
inline std::vector<uint8_t> makeEngineConfig(int64_t engineId, const std::vector<KnobSetting>& settings) {
    detail::requireUniqueIds(settings, "engine config");
    flatbuffers::FlatBufferBuilder builder;
    std::vector<flatbuffers::Offset<data_objects::KnobSetting>> settingOffsets;
    settingOffsets.reserve(settings.size());
    for (const auto& setting : settings) {
        settingOffsets.push_back(setting.serialize(builder));
    }
    const auto settingVector = builder.CreateVector(settingOffsets);
    builder.Finish(data_objects::CreateEngineConfig(builder, engineId, settingVector));
    return detail::release(builder);
}

}  // namespace hipdnn_flatbuffers_sdk
