// What a graph costs and how exactly it must match the reference, read from the graph itself so
// that `graph FILE` gets the same treatment as the built-in problems.
#pragma once

#include <cstdint>
#include <map>
#include <optional>

#include <hipdnn_flatbuffers_sdk/GraphCost.hpp>
#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>
#include <hipdnn_test_sdk/Tolerances.hpp>

#include "Ceilings.hpp"

namespace hipdnn_driver {

// The cost counts (flops by math, bytes of non-virtual tensors) are the SDK's, shared with the
// engines' estimated times.
using hipdnn_flatbuffers_sdk::graphBytes;
using hipdnn_flatbuffers_sdk::graphFlops;
using hipdnn_flatbuffers_sdk::graphFlopsByMath;

struct GraphTolerance {
    hipdnn_test_sdk::ToleranceOp op = hipdnn_test_sdk::ToleranceOp::Pointwise;
    int64_t reductionLength = 1;  // longest dot product (conv / matmul), for accumulation bounds
    // Attention's error follows its operands' precision, also in its FLOAT statistics.
    std::optional<hipdnn_flatbuffers_sdk::data_objects::DataType> attentionOperandType;
};

// The operation that dominates the error: convolution, then matmul, then normalizations,
// pooling and reductions, then pointwise.
GraphTolerance graphTolerance(const hipdnn_flatbuffers_sdk::GraphWrapper& graph);

}  // namespace hipdnn_driver
