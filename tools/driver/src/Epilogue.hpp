// The fused epilogue shared by conv, bn and matmul: bias, residual add and activations appended
// after the main operation's output, in the order the user gave them.
#pragma once

#include <string>
#include <vector>

#include <hipdnn_frontend.hpp>

#include "SpecTypes.hpp"

namespace hipdnn_driver {

// Appends the epilogue to `output` (dims `outputDims`, channel dim `channelDim` for the bias) and
// returns the final tensor. The bias tensor has the output's rank with 1 everywhere but the
// channel dim; the residual has the output's dims.
hipdnn_frontend::graph::TensorPtr appendEpilogue(hipdnn_frontend::graph::Graph& graph,
                                                 hipdnn_frontend::graph::TensorPtr output,
                                                 const std::vector<int64_t>& outputDims, size_t channelDim,
                                                 Layout layout, const std::vector<EpilogueOp>& epilogue);

}  // namespace hipdnn_driver
