// libFuzzer target for knob settings given to the backend. The first input byte picks the form:
// 0: the payload is a serialized KnobSetting for a KNOB_CHOICE; 1: the same bytes, split in two
// at the second byte's position, as the serialized choices of an ENGINECFG; 2: the payload is a
// text "id=value" (as hipdnn-driver's --knob takes it) set as a KNOB_CHOICE's knob type and an
// INT64, DOUBLE or CHAR value. Every call must return a status; a crash, a sanitizer report or a
// leak is a finding.
#include <hipdnn_backend.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

void readBackChoice(hipdnnBackendDescriptor_t choice) {
    if (hipdnnBackendFinalize(choice) != HIPDNN_STATUS_SUCCESS) {
        return;
    }
    std::vector<char> text(64);
    int64_t count = 0;
    hipdnnBackendGetAttribute(choice, HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE, HIPDNN_TYPE_CHAR,
                              static_cast<int64_t>(text.size()), &count, text.data());
    hipdnnFlatbufferData_ext_t serialized{};
    hipdnnBackendGetAttribute(choice, HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE,
                              HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT, 1, &count, &serialized);
}

void fuzzSerializedChoice(const uint8_t* data, size_t size) {
    hipdnnBackendDescriptor_t choice = nullptr;
    if (hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR, &choice) !=
        HIPDNN_STATUS_SUCCESS) {
        return;
    }
    const hipdnnFlatbufferData_ext_t setting{data, size};
    if (hipdnnBackendSetAttribute(choice, HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE,
                                  HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT, 1,
                                  &setting) == HIPDNN_STATUS_SUCCESS) {
        readBackChoice(choice);
    }
    hipdnnBackendDestroyDescriptor(choice);
}

void fuzzEngineConfigChoices(const uint8_t* data, size_t size) {
    if (size < 1) {
        return;
    }
    const size_t split = std::min<size_t>(data[0], size - 1);
    hipdnnBackendDescriptor_t config = nullptr;
    if (hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &config) !=
        HIPDNN_STATUS_SUCCESS) {
        return;
    }
    const hipdnnFlatbufferData_ext_t settings[] = {{data + 1, split}, {data + 1 + split, size - 1 - split}};
    hipdnnBackendSetAttribute(config, HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE,
                              HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT, 2, settings);
    hipdnnBackendFinalize(config);
    hipdnnBackendDestroyDescriptor(config);
}

void fuzzTextChoice(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const size_t equals = text.find('=');
    const std::string id = text.substr(0, equals);
    const std::string value = equals == std::string::npos ? std::string() : text.substr(equals + 1);
    hipdnnBackendDescriptor_t choice = nullptr;
    if (hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR, &choice) !=
        HIPDNN_STATUS_SUCCESS) {
        return;
    }
    // The id's length as given, embedded NULs included: the backend must bound its reads by it.
    hipdnnBackendSetAttribute(choice, HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE, HIPDNN_TYPE_CHAR,
                              static_cast<int64_t>(id.size()), id.data());
    size_t used = 0;
    try {
        const int64_t number = std::stoll(value, &used);
        if (used == value.size()) {
            hipdnnBackendSetAttribute(choice, HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, HIPDNN_TYPE_INT64, 1,
                                      &number);
        }
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != value.size()) {
        try {
            const double real = std::stod(value, &used);
            hipdnnBackendSetAttribute(choice, HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, HIPDNN_TYPE_DOUBLE, 1,
                                      &real);
        } catch (const std::exception&) {
            hipdnnBackendSetAttribute(choice, HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, HIPDNN_TYPE_CHAR,
                                      static_cast<int64_t>(value.size()), value.data());
        }
    }
    readBackChoice(choice);
    hipdnnBackendDestroyDescriptor(choice);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) {
        return 0;
    }
    switch (data[0] % 3) {
        case 0:
            fuzzSerializedChoice(data + 1, size - 1);
            break;
        case 1:
            fuzzEngineConfigChoices(data + 1, size - 1);
            break;
        default:
            fuzzTextChoice(data + 1, size - 1);
            break;
    }
    char discard[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnGetLastErrorString(discard, sizeof(discard));
    return 0;
}
