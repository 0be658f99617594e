// libFuzzer target for the backend's untrusted inputs: serialized graphs (binary and JSON) and
// descriptor attribute setting. The first input byte picks the scenario; the rest is the payload.
// Every call must return a status; a crash, a sanitizer report or a leak is a finding.
#include <hipdnn_backend.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {

constexpr std::array kDescriptorTypes{
    HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR,
    HIPDNN_BACKEND_ENGINE_DESCRIPTOR,         HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR,
    HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR,
    HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR,    HIPDNN_BACKEND_KNOB_INFO_DESCRIPTOR,
};

constexpr std::array kAttributeTypes{
    HIPDNN_TYPE_HANDLE,    HIPDNN_TYPE_DATA_TYPE, HIPDNN_TYPE_BOOLEAN,
    HIPDNN_TYPE_INT64,     HIPDNN_TYPE_FLOAT,     HIPDNN_TYPE_DOUBLE,
    HIPDNN_TYPE_VOID_PTR,  HIPDNN_TYPE_HEUR_MODE, HIPDNN_TYPE_BACKEND_DESCRIPTOR,
    HIPDNN_TYPE_INT32,     HIPDNN_TYPE_CHAR,      HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT,
};

// Reads the serialized forms back, exercising the printers on whatever was accepted.
void readBack(hipdnnBackendDescriptor_t graph) {
    size_t size = 0;
    if (hipdnnBackendGetSerializedJsonGraph_ext(graph, 0, &size, nullptr) == HIPDNN_STATUS_SUCCESS) {
        std::vector<char> json(size);
        hipdnnBackendGetSerializedJsonGraph_ext(graph, json.size(), &size, json.data());
    }
    if (hipdnnBackendGetSerializedBinaryGraph_ext(graph, 0, &size, nullptr) == HIPDNN_STATUS_SUCCESS) {
        std::vector<uint8_t> binary(size);
        hipdnnBackendGetSerializedBinaryGraph_ext(graph, binary.size(), &size, binary.data());
    }
}

void fuzzBinaryGraph(const uint8_t* data, size_t size) {
    hipdnnBackendDescriptor_t graph = nullptr;
    if (hipdnnBackendCreateAndDeserializeGraph_ext(&graph, data, size) != HIPDNN_STATUS_SUCCESS) {
        return;
    }
    hipdnnBackendFinalize(graph);
    readBack(graph);
    hipdnnBackendDestroyDescriptor(graph);
}

void fuzzJsonGraph(const uint8_t* data, size_t size) {
    hipdnnBackendDescriptor_t graph = nullptr;
    if (hipdnnBackendCreateAndDeserializeJsonGraph_ext(&graph, reinterpret_cast<const char*>(data), size) !=
        HIPDNN_STATUS_SUCCESS) {
        return;
    }
    hipdnnBackendFinalize(graph);
    readBack(graph);
    hipdnnBackendDestroyDescriptor(graph);
}

// Each 4-byte record: attribute name index, type index, element count, finalize flag; the
// element array is taken from the remaining payload.
void fuzzAttributes(const uint8_t* data, size_t size) {
    if (size < 1) {
        return;
    }
    hipdnnBackendDescriptor_t descriptor = nullptr;
    if (hipdnnBackendCreateDescriptor(kDescriptorTypes[data[0] % kDescriptorTypes.size()], &descriptor) !=
        HIPDNN_STATUS_SUCCESS) {
        return;
    }
    // Attribute names lie in ranges of 100 per descriptor; 0..1099 plus the extension ids covers
    // every valid name and many invalid ones.
    constexpr std::array<int, 3> kExtensionNames{60000, 60100, 107};
    std::array<std::byte, 256> elements{};
    size_t offset = 1;
    while (offset + 4 <= size) {
        const uint8_t nameSelector = data[offset];
        const int name = nameSelector >= 250 ? kExtensionNames[nameSelector % kExtensionNames.size()]
                                             : 100 + (nameSelector % 10) * 100 + data[offset + 1] % 10;
        const auto type = kAttributeTypes[data[offset + 1] % kAttributeTypes.size()];
        const int64_t count = static_cast<int8_t>(data[offset + 2]) % 9;
        const bool finalize = (data[offset + 3] & 1) != 0;
        offset += 4;
        const size_t available = std::min(elements.size(), size - offset);
        std::memcpy(elements.data(), data + offset, available);
        // Pointer-typed elements must not be dereferenced as real objects: the backend is
        // expected to reject unknown descriptors, so only null or this descriptor are offered.
        if (type == HIPDNN_TYPE_BACKEND_DESCRIPTOR || type == HIPDNN_TYPE_HANDLE) {
            std::array<void*, 8> pointers{};
            for (size_t i = 0; i < pointers.size(); ++i) {
                pointers[i] = (data[offset - 1] >> (i % 8)) & 2 ? static_cast<void*>(descriptor) : nullptr;
            }
            std::memcpy(elements.data(), pointers.data(), sizeof(pointers));
        }
        hipdnnBackendSetAttribute(descriptor, static_cast<hipdnnBackendAttributeName_t>(name), type, count,
                                  elements.data());
        int64_t returned = 0;
        hipdnnBackendGetAttribute(descriptor, static_cast<hipdnnBackendAttributeName_t>(name), type,
                                  count < 0 ? 0 : count, &returned, elements.data());
        if (finalize) {
            hipdnnBackendFinalize(descriptor);
        }
    }
    hipdnnBackendDestroyDescriptor(descriptor);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) {
        return 0;
    }
    switch (data[0] % 3) {
        case 0:
            fuzzBinaryGraph(data + 1, size - 1);
            break;
        case 1:
            fuzzJsonGraph(data + 1, size - 1);
            break;
        default:
            fuzzAttributes(data + 1, size - 1);
            break;
    }
    char discard[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnGetLastErrorString(discard, sizeof(discard));
    return 0;
}
