// The schema's DataType of a C++ element type, for code templated on the element type (host
// tensors, CPU references, tolerances, the frontend's getDataTypeEnumFromType).
#pragma once

#include <cstdint>
#include <type_traits>

#include <hipdnn_flatbuffers_sdk/data_objects/data_types_generated.h>
#include <hipdnn_data_sdk/types.hpp>

namespace hipdnn_flatbuffers_sdk {

template <class T>
inline constexpr bool hasElementDataType =
    std::is_same_v<T, float> || std::is_same_v<T, double> ||
    std::is_same_v<T, hipdnn_data_sdk::types::half> || std::is_same_v<T, hipdnn_data_sdk::types::bfloat16> ||
    std::is_same_v<T, hipdnn_data_sdk::types::fp8_e4m3> ||
    std::is_same_v<T, hipdnn_data_sdk::types::fp8_e5m2> || std::is_same_v<T, uint8_t> ||
    std::is_same_v<T, int8_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>;

/// DataType of the element type T; a compile error for types the schema has no DataType for.
template <class T>
constexpr data_objects::DataType dataTypeOf() {
    static_assert(hasElementDataType<T>, "the element type has no DataType in the schema");
    using data_objects::DataType;
    if constexpr (std::is_same_v<T, float>) {
        return DataType::FLOAT;
    } else if constexpr (std::is_same_v<T, double>) {
        return DataType::DOUBLE;
    } else if constexpr (std::is_same_v<T, hipdnn_data_sdk::types::half>) {
        return DataType::HALF;
    } else if constexpr (std::is_same_v<T, hipdnn_data_sdk::types::bfloat16>) {
        return DataType::BFLOAT16;
    } else if constexpr (std::is_same_v<T, hipdnn_data_sdk::types::fp8_e4m3>) {
        return DataType::FP8_E4M3;
    } else if constexpr (std::is_same_v<T, hipdnn_data_sdk::types::fp8_e5m2>) {
        return DataType::FP8_E5M2;
    } else if constexpr (std::is_same_v<T, uint8_t>) {
        return DataType::UINT8;
    } else if constexpr (std::is_same_v<T, int8_t>) {
        return DataType::INT8;
    } else if constexpr (std::is_same_v<T, int32_t>) {
        return DataType::INT32;
    } else {
        return DataType::INT64;
    }
}

}  // namespace hipdnn_flatbuffers_sdk
