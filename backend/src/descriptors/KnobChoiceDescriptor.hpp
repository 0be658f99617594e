// KNOB_CHOICE: one knob setting for an ENGINECFG. Set KNOB_TYPE (CHAR: the knob id) and
// KNOB_VALUE (INT64 | DOUBLE | CHAR), or KNOB_CHOICE_SERIALIZED_VALUE (a KnobSetting FlatBuffer);
// all are readable after finalize.
#pragma once

#include <optional>
#include <string>

#include "descriptors/Descriptor.hpp"
#include "descriptors/KnobValues.hpp"

namespace hipdnn_backend::descriptors {

class KnobChoiceDescriptor final : public Descriptor {
public:
    KnobChoiceDescriptor() : Descriptor(HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR) {}

    const KnobChoice& choice() const noexcept { return _choice; }

private:
    void set(const AttributeInput& input) override;
    void get(AttributeOutput& output) const override;
    void finalizeDescriptor() override;

    std::optional<std::string> _knobId;
    std::optional<KnobValue> _value;
    KnobChoice _choice;
    std::vector<uint8_t> _serialized;
};

}  // namespace hipdnn_backend::descriptors
