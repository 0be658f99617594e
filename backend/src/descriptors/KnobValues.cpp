#include "descriptors/KnobValues.hpp"

#include "core/HipdnnException.hpp"

#include <hipdnn_flatbuffers_sdk/FlatbufferError.hpp>

namespace hipdnn_backend::descriptors {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

namespace {

std::pair<fb::KnobValue, flatbuffers::Offset<void>> buildValue(flatbuffers::FlatBufferBuilder& builder,
                                                               const KnobValue& value) {
    if (const auto* integer = std::get_if<int64_t>(&value)) {
        return {fb::KnobValue::IntValue, fb::CreateIntValue(builder, *integer).Union()};
    }
    if (const auto* real = std::get_if<double>(&value)) {
        return {fb::KnobValue::FloatValue, fb::CreateFloatValue(builder, *real).Union()};
    }
    return {fb::KnobValue::StringValue,
            fb::CreateStringValueDirect(builder, std::get<std::string>(value).c_str()).Union()};
}

template <class T>
std::vector<T> toVector(const flatbuffers::Vector<T>* values) {
    return values != nullptr ? std::vector<T>(values->begin(), values->end()) : std::vector<T>();
}

flatbuffers::Offset<void> copyConstraint(flatbuffers::FlatBufferBuilder& builder, const fb::Knob& knob) {
    if (const fb::IntConstraint* integer = knob.constraint_as_IntConstraint()) {
        const std::vector<int64_t> valid = toVector(integer->valid_values());
        return fb::CreateIntConstraintDirect(builder, integer->min_value(), integer->max_value(),
                                             integer->step(), integer->valid_values() ? &valid : nullptr)
            .Union();
    }
    if (const fb::FloatConstraint* real = knob.constraint_as_FloatConstraint()) {
        const std::vector<double> valid = toVector(real->valid_values());
        return fb::CreateFloatConstraintDirect(builder, real->min_value(), real->max_value(),
                                               real->valid_values() ? &valid : nullptr)
            .Union();
    }
    if (const fb::StringConstraint* text = knob.constraint_as_StringConstraint()) {
        std::vector<flatbuffers::Offset<flatbuffers::String>> valid;
        if (text->valid_values() != nullptr) {
            for (const flatbuffers::String* entry : *text->valid_values()) {
                valid.push_back(builder.CreateString(entry->str()));
            }
        }
        return fb::CreateStringConstraintDirect(builder, text->max_length(),
                                                text->valid_values() ? &valid : nullptr)
            .Union();
    }
    return 0;
}

}  // namespace

std::optional<KnobValue> readKnobValue(fb::KnobValue type, const void* value) {
    if (value == nullptr) {
        return std::nullopt;
    }
    switch (type) {
        case fb::KnobValue::IntValue:
            return KnobValue(static_cast<const fb::IntValue*>(value)->value());
        case fb::KnobValue::FloatValue:
            return KnobValue(static_cast<const fb::FloatValue*>(value)->value());
        case fb::KnobValue::StringValue: {
            const flatbuffers::String* text = static_cast<const fb::StringValue*>(value)->value();
            return KnobValue(text != nullptr ? text->str() : std::string());
        }
        case fb::KnobValue::NONE:
            break;
    }
    return std::nullopt;
}

KnobChoice parseKnobSetting(const void* data, size_t size) {
    if (data == nullptr || size == 0) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                              "Serialized KnobSetting is null or empty");
    }
    if (hipdnn_flatbuffers_sdk::exceedsFlatbufferSizeLimit(size)) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM, "Serialized KnobSetting of " + std::to_string(size) +
                                                           " bytes exceeds the FlatBuffers size limit");
    }
    // The caller's bytes may have any alignment; FlatBuffers reads them as aligned integers.
    const std::vector<uint8_t> aligned(static_cast<const uint8_t*>(data),
                                       static_cast<const uint8_t*>(data) + size);
    flatbuffers::Verifier verifier(aligned.data(), aligned.size());
    if (!verifier.VerifyBuffer<fb::KnobSetting>(nullptr)) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                              "Serialized KnobSetting fails FlatBuffer verification");
    }
    const auto* setting = flatbuffers::GetRoot<fb::KnobSetting>(aligned.data());
    if (setting->knob_id() == nullptr || setting->knob_id()->size() == 0) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM, "Serialized KnobSetting has an empty knob_id");
    }
    std::optional<KnobValue> value = readKnobValue(setting->value_type(), setting->value());
    if (!value) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                              "Serialized KnobSetting for '" + setting->knob_id()->str() + "' has no value");
    }
    return {setting->knob_id()->str(), std::move(*value)};
}

flatbuffers::Offset<fb::KnobSetting> buildKnobSetting(flatbuffers::FlatBufferBuilder& builder,
                                                      const KnobChoice& choice) {
    const auto id = builder.CreateString(choice.knobId);
    const auto [valueType, value] = buildValue(builder, choice.value);
    return fb::CreateKnobSetting(builder, id, valueType, value);
}

std::vector<uint8_t> copyKnob(const fb::Knob& knob) {
    flatbuffers::FlatBufferBuilder builder;
    const auto id = builder.CreateString(knob.knob_id() != nullptr ? knob.knob_id()->str() : std::string());
    const auto description =
        builder.CreateString(knob.description() != nullptr ? knob.description()->str() : std::string());
    // default_value is required by the schema, so the verifier has seen one; its type may still
    // be one this version does not know.
    const std::optional<KnobValue> value = readKnobValue(knob.default_value_type(), knob.default_value());
    if (!value) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                              "Knob '" + (knob.knob_id() != nullptr ? knob.knob_id()->str() : std::string()) +
                                  "' has a default value of unknown type " +
                                  std::to_string(static_cast<int>(knob.default_value_type())));
    }
    const auto [defaultType, defaultValue] = buildValue(builder, *value);
    const flatbuffers::Offset<void> constraint = copyConstraint(builder, knob);
    builder.Finish(fb::CreateKnob(builder, id, description, defaultType, defaultValue,
                                  constraint.IsNull() ? fb::KnobConstraint::NONE : knob.constraint_type(),
                                  constraint, knob.deprecated(), knob.value_type()));
    return {builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize()};
}

}  // namespace hipdnn_backend::descriptors
