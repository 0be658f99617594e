// What a graph costs and how exactly it must match the reference, read from the graph itself so
// that `graph FILE` gets the same treatment as the built-in problems.
#pragma once

#include <cstdint>
#include <map>
#include <optional>

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>
#include <hipdnn_test_sdk/Tolerances.hpp>

#include "Ceilings.hpp"

namespace hipdnn_driver {

// 2 x multiply-adds of the convolutions and matmuls (other operations count 0: they are
// memory-bound and are reported in GB/s).
double graphFlops(const hipdnn_flatbuffers_sdk::GraphWrapper& graph);

// The same flops by the math they run in, read from each operation's first operand: bf16 operands
// run on bf16 units, fp32 in tf32 when the engine is allowed to round to it, and so on.
std::map<MathKind, double> graphFlopsByMath(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                            bool tf32Allowed);

// Bytes of the non-virtual tensors read or written (each once).
double graphBytes(const hipdnn_flatbuffers_sdk::GraphWrapper& graph);

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
