#include "descriptors/KnobChoiceDescriptor.hpp"

#include "core/AttributeNames.hpp"

namespace hipdnn_backend::descriptors {

void KnobChoiceDescriptor::set(const AttributeInput& input) {
    switch (input.name) {
        case HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE: {
            std::string id = input.text();
            if (id.empty()) {
                throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                                      "HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE: empty knob id");
            }
            _knobId = std::move(id);
            return;
        }
        case HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE:
            switch (input.type) {
                case HIPDNN_TYPE_INT64:
                    _value = input.single<int64_t>(HIPDNN_TYPE_INT64);
                    return;
                case HIPDNN_TYPE_DOUBLE:
                    _value = input.single<double>(HIPDNN_TYPE_DOUBLE);
                    return;
                case HIPDNN_TYPE_CHAR:
                    _value = input.text();
                    return;
                default:
                    throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                                          "HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE takes HIPDNN_TYPE_INT64, "
                                          "HIPDNN_TYPE_DOUBLE or HIPDNN_TYPE_CHAR, got " +
                                              attributeTypeName(input.type));
            }
        case HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE: {
            const auto data =
                input.single<hipdnnFlatbufferData_ext_t>(HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT);
            KnobChoice parsed = parseKnobSetting(data.ptr, data.size);
            _knobId = std::move(parsed.knobId);
            _value = std::move(parsed.value);
            return;
        }
        default:
            rejectAttribute(input.name);
    }
}

void KnobChoiceDescriptor::finalizeDescriptor() {
    if (!_knobId || !_value) {
        throw HipdnnException(
            HIPDNN_STATUS_BAD_PARAM,
            "A KNOB_CHOICE needs HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE and "
            "HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE (or HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE)");
    }
    _choice = {*_knobId, *_value};
    flatbuffers::FlatBufferBuilder builder;
    builder.Finish(buildKnobSetting(builder, _choice));
    _serialized.assign(builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize());
}

void KnobChoiceDescriptor::get(AttributeOutput& output) const {
    switch (output.name) {
        case HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE:
            output.writeText(_choice.knobId);
            return;
        case HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE:
            if (const auto* integer = std::get_if<int64_t>(&_choice.value)) {
                output.writeSingle<int64_t>(HIPDNN_TYPE_INT64, *integer);
            } else if (const auto* real = std::get_if<double>(&_choice.value)) {
                output.writeSingle<double>(HIPDNN_TYPE_DOUBLE, *real);
            } else {
                output.writeText(std::get<std::string>(_choice.value));
            }
            return;
        case HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE:
            output.writeSingle(HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT,
                               hipdnnFlatbufferData_ext_t{_serialized.data(), _serialized.size()});
            return;
        default:
            rejectAttribute(output.name);
    }
}

}  // namespace hipdnn_backend::descriptors
