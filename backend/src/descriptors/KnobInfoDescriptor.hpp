// KNOB_INFO: one knob an engine publishes. Created empty by the caller and filled by
// hipdnnBackendGetAttribute(ENGINE, HIPDNN_ATTR_ENGINE_KNOB_INFO); read-only afterwards.
// Gets: TYPE (CHAR: knob id), MINIMUM_VALUE / MAXIMUM_VALUE (INT64 for integer knobs, DOUBLE for
// float knobs), STRIDE (INT64), DEFAULT_VALUE (INT64 | DOUBLE | CHAR by the knob's type),
// KNOB_INFO_SERIALIZED_VALUE (FLATBUFFER_DATA_STRUCT_EXT: the Knob table; the pointer stays
// valid while the descriptor lives).
#pragma once

#include <vector>

#include "descriptors/Descriptor.hpp"

namespace hipdnn_backend::descriptors {

class KnobInfoDescriptor final : public Descriptor {
public:
    KnobInfoDescriptor() : Descriptor(HIPDNN_BACKEND_KNOB_INFO_DESCRIPTOR) {}

    // Fills the descriptor with a serialized Knob and marks it finalized.
    void fill(std::vector<uint8_t> serializedKnob);

private:
    void set(const AttributeInput& input) override;
    void get(AttributeOutput& output) const override;
    void finalizeDescriptor() override;

    std::vector<uint8_t> _knob;
};

}  // namespace hipdnn_backend::descriptors
