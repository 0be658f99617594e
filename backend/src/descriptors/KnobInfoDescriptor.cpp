#include "descriptors/KnobInfoDescriptor.hpp"

#include <limits>

#include "descriptors/KnobValues.hpp"

namespace hipdnn_backend::descriptors {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

namespace {

void writeValue(const AttributeOutput& output, const KnobValue& value) {
    if (const auto* integer = std::get_if<int64_t>(&value)) {
        output.writeSingle<int64_t>(HIPDNN_TYPE_INT64, *integer);
    } else if (const auto* real = std::get_if<double>(&value)) {
        output.writeSingle<double>(HIPDNN_TYPE_DOUBLE, *real);
    } else {
        output.writeText(std::get<std::string>(value));
    }
}

[[noreturn]] void throwNoBound(const char* what) {
    throw HipdnnException(HIPDNN_STATUS_BAD_PARAM, std::string("The knob has no numeric ") + what);
}

}  // namespace

void KnobInfoDescriptor::fill(std::vector<uint8_t> serializedKnob) {
    _knob = std::move(serializedKnob);
    markFinalized();
}

void KnobInfoDescriptor::set(const AttributeInput& input) {
    rejectAttribute(input.name);
}

void KnobInfoDescriptor::finalizeDescriptor() {
    throw HipdnnException(
        HIPDNN_STATUS_BAD_PARAM,
        "KNOB_INFO descriptors are filled through HIPDNN_ATTR_ENGINE_KNOB_INFO, not finalized");
}

void KnobInfoDescriptor::get(AttributeOutput& output) const {
    const fb::Knob* knob = flatbuffers::GetRoot<fb::Knob>(_knob.data());
    const fb::IntConstraint* integer = knob->constraint_as_IntConstraint();
    const fb::FloatConstraint* real = knob->constraint_as_FloatConstraint();
    switch (output.name) {
        case HIPDNN_ATTR_KNOB_INFO_TYPE:
            output.writeText(knob->knob_id() != nullptr ? knob->knob_id()->string_view()
                                                        : std::string_view());
            return;
        case HIPDNN_ATTR_KNOB_INFO_MINIMUM_VALUE:
        case HIPDNN_ATTR_KNOB_INFO_MAXIMUM_VALUE: {
            const bool minimum = output.name == HIPDNN_ATTR_KNOB_INFO_MINIMUM_VALUE;
            if (integer != nullptr) {
                writeValue(output, minimum ? integer->min_value() : integer->max_value());
            } else if (real != nullptr) {
                writeValue(output, minimum ? real->min_value() : real->max_value());
            } else {
                throwNoBound(minimum ? "minimum" : "maximum");
            }
            return;
        }
        case HIPDNN_ATTR_KNOB_INFO_STRIDE:
            if (integer == nullptr) {
                throwNoBound("stride");
            }
            output.writeSingle<int64_t>(HIPDNN_TYPE_INT64, integer->step() == 0 ? 1 : integer->step());
            return;
        case HIPDNN_ATTR_KNOB_INFO_DEFAULT_VALUE: {
            std::optional<KnobValue> value = readKnobValue(knob->default_value_type(), knob->default_value());
            if (!value) {
                throw HipdnnException(HIPDNN_STATUS_BAD_PARAM, "The knob has no default value");
            }
            writeValue(output, *value);
            return;
        }
        case HIPDNN_ATTR_KNOB_INFO_SERIALIZED_VALUE:
            output.writeSingle(HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT,
                               hipdnnFlatbufferData_ext_t{_knob.data(), _knob.size()});
            return;
        default:
            rejectAttribute(output.name);
    }
}

}  // namespace hipdnn_backend::descriptors
