// Type-erased element access for tensors whose element type is known only at run time (from a
// graph's DataType): size, name, and reading/writing one element as a double.
#pragma once

#include <hipdnn_flatbuffers_sdk/data_objects/data_types_generated.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace hipdnn_test_sdk {

/// Bytes per element; throws std::invalid_argument for types the test SDK does not handle
/// (sub-byte and 8-bit float formats).
size_t dataTypeSize(hipdnn_flatbuffers_sdk::data_objects::DataType dataType);

/// "FLOAT", "HALF", ... (the schema's enumerator name).
std::string dataTypeName(hipdnn_flatbuffers_sdk::data_objects::DataType dataType);

/// True for FLOAT, HALF, BFLOAT16 and DOUBLE.
bool isFloatingPoint(hipdnn_flatbuffers_sdk::data_objects::DataType dataType);

/// Element `offset` (in elements, not bytes) of `data` converted to double.
double readElement(hipdnn_flatbuffers_sdk::data_objects::DataType dataType, const void* data, int64_t offset);

/// Stores `value` converted (rounded to nearest) to `dataType` at element `offset`.
void writeElement(hipdnn_flatbuffers_sdk::data_objects::DataType dataType, void* data, int64_t offset,
                  double value);

}  // namespace hipdnn_test_sdk
