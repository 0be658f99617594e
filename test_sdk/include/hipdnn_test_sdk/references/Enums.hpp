#pragma once

#include <hipdnn_flatbuffers_sdk/data_objects/graph_generated.h>

// The references take the schema's own enums (flatbuffers_sdk/schemas/operations.fbs), so there is
// no copy to drift from it and the executor passes a node's mode through unchanged. A reference
// accepts only the modes it implements and throws std::invalid_argument for the others, the
// schema's UNSET / NOT_SET included.
namespace hipdnn_test_sdk::references {

using ConvMode = hipdnn_flatbuffers_sdk::data_objects::ConvMode;
using PointwiseMode = hipdnn_flatbuffers_sdk::data_objects::PointwiseMode;
using ReductionMode = hipdnn_flatbuffers_sdk::data_objects::ReductionMode;
using ResampleMode = hipdnn_flatbuffers_sdk::data_objects::ResampleMode;
using PaddingMode = hipdnn_flatbuffers_sdk::data_objects::PaddingMode;

}  // namespace hipdnn_test_sdk::references
