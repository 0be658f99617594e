#include <hipdnn_test_sdk/ElementAccess.hpp>

#include <hipdnn_data_sdk/types.hpp>
#include <hipdnn_flatbuffers_sdk/GraphCost.hpp>

#include <cstring>
#include <stdexcept>

namespace hipdnn_test_sdk {

using hipdnn_data_sdk::types::bfloat16;
using hipdnn_data_sdk::types::half;
using hipdnn_flatbuffers_sdk::data_objects::DataType;

namespace {

// memcpy instead of a typed dereference: buffers handed to tests come from anywhere and need
// not be aligned for the element type.
template <class T>
T load(const void* data, int64_t offset) {
    T value;
    std::memcpy(&value, static_cast<const char*>(data) + offset * sizeof(T), sizeof(T));
    return value;
}

template <class T>
void store(void* data, int64_t offset, T value) {
    std::memcpy(static_cast<char*>(data) + offset * sizeof(T), &value, sizeof(T));
}

[[noreturn]] void unsupported(DataType dataType) {
    throw std::invalid_argument("data type " + dataTypeName(dataType) + " is not supported by the test SDK");
}

}  // namespace

size_t dataTypeSize(DataType dataType) {
    const size_t bytes = hipdnn_flatbuffers_sdk::elementBytes(dataType);
    // fp8 has a size but no host element type in this SDK.
    const bool hostElement = bytes > 1 || dataType == DataType::UINT8 || dataType == DataType::INT8;
    if (!hostElement) {
        unsupported(dataType);
    }
    return bytes;
}

std::string dataTypeName(DataType dataType) {
    const char* name = hipdnn_flatbuffers_sdk::data_objects::EnumNameDataType(dataType);
    if (name == nullptr || *name == '\0') {
        return "DataType(" + std::to_string(static_cast<int>(dataType)) + ")";
    }
    return name;
}

bool isFloatingPoint(DataType dataType) {
    return dataType == DataType::FLOAT || dataType == DataType::HALF || dataType == DataType::BFLOAT16 ||
           dataType == DataType::DOUBLE;
}

double readElement(DataType dataType, const void* data, int64_t offset) {
    switch (dataType) {
        case DataType::FLOAT:
            return load<float>(data, offset);
        case DataType::HALF:
            return static_cast<double>(static_cast<float>(load<half>(data, offset)));
        case DataType::BFLOAT16:
            return static_cast<double>(static_cast<float>(load<bfloat16>(data, offset)));
        case DataType::DOUBLE:
            return load<double>(data, offset);
        case DataType::INT32:
            return load<int32_t>(data, offset);
        case DataType::INT64:
            return static_cast<double>(load<int64_t>(data, offset));
        case DataType::INT8:
            return load<int8_t>(data, offset);
        case DataType::UINT8:
            return load<uint8_t>(data, offset);
        default:
            unsupported(dataType);
    }
}

void writeElement(DataType dataType, void* data, int64_t offset, double value) {
    switch (dataType) {
        case DataType::FLOAT:
            store(data, offset, static_cast<float>(value));
            return;
        case DataType::HALF:
            store(data, offset, static_cast<half>(static_cast<float>(value)));
            return;
        case DataType::BFLOAT16:
            store(data, offset, static_cast<bfloat16>(static_cast<float>(value)));
            return;
        case DataType::DOUBLE:
            store(data, offset, value);
            return;
        case DataType::INT32:
            store(data, offset, static_cast<int32_t>(value));
            return;
        case DataType::INT64:
            store(data, offset, static_cast<int64_t>(value));
            return;
        case DataType::INT8:
            store(data, offset, static_cast<int8_t>(value));
            return;
        case DataType::UINT8:
            store(data, offset, static_cast<uint8_t>(value));
            return;
        default:
            unsupported(dataType);
    }
}

}  // namespace hipdnn_test_sdk
