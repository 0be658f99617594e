// Knob values and their FlatBuffer forms (knobs.fbs): the bridge between KNOB_CHOICE/KNOB_INFO
// descriptors, EngineDetails from plugins and the EngineConfig sent back to them.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include <hipdnn_flatbuffers_sdk/data_objects/knob_value_generated.h>

namespace hipdnn_backend::descriptors {

using KnobValue = std::variant<int64_t, double, std::string>;

struct KnobChoice {
    std::string knobId;
    KnobValue value;
};

// Parses a serialized KnobSetting (verified); BAD_PARAM naming the problem.
KnobChoice parseKnobSetting(const void* data, size_t size);
flatbuffers::Offset<hipdnn_flatbuffers_sdk::data_objects::KnobSetting> buildKnobSetting(
    flatbuffers::FlatBufferBuilder& builder, const KnobChoice& choice);
// A standalone serialized Knob copied from one inside EngineDetails.
std::vector<uint8_t> copyKnob(const hipdnn_flatbuffers_sdk::data_objects::Knob& knob);
// The value a KnobValue union holds; nullopt when unset.
std::optional<KnobValue> readKnobValue(hipdnn_flatbuffers_sdk::data_objects::KnobValue type,
                                       const void* value);

}  // namespace hipdnn_backend::descriptors
