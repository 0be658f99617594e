// Reading a pass-by-value scalar: a tensor whose single value travels in the graph.
#pragma once

#include "hipdnn_flatbuffers_sdk/data_objects/tensor_attributes_generated.h"

#include <optional>

namespace hipdnn_flatbuffers_sdk {

// The value of a pass-by-value scalar as a number (a bool as 0 or 1); nullopt when the tensor
// has its value in a buffer, or holds an fp8 value, whose encoding depends on the data type.
inline std::optional<double> passByValueNumber(const data_objects::TensorAttributes& tensor) {
    using Value = data_objects::TensorValue;
    switch (tensor.value_type()) {
        case Value::Float32Value:
            return tensor.value_as_Float32Value()->value();
        case Value::Float16Value:
            return tensor.value_as_Float16Value()->value();
        case Value::BFloat16Value:
            return tensor.value_as_BFloat16Value()->value();
        case Value::Float64Value:
            return tensor.value_as_Float64Value()->value();
        case Value::Int32Value:
            return tensor.value_as_Int32Value()->value();
        case Value::Int64Value:
            return static_cast<double>(tensor.value_as_Int64Value()->value());
        case Value::BoolValue:
            return tensor.value_as_BoolValue()->value() ? 1.0 : 0.0;
        case Value::Float8Value:
        case Value::NONE:
            return std::nullopt;
    }
    return std::nullopt;
}

}  // namespace hipdnn_flatbuffers_sdk
