// The hipdnn-driver command line that reruns a serialized graph.
//
// The backend uses this for its "HIPDNN_LOG_LEVEL=info: each plan creation logs the equivalent
// hipdnn-driver command line" requirement (see tools/driver/README.md for the wiring): a graph
// that is exactly one of the driver's problems (a convolution with an optional bias / residual /
// activation epilogue, a matmul with one, a pooling, a single pointwise operation) becomes that
// subcommand with its flags; any other graph becomes `hipdnn-driver graph <file>`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ProblemSpecs.hpp"

namespace hipdnn_driver {

// The problem subcommand that builds exactly this graph (same operations, attributes, dims,
// strides and data types; names and uids aside), if there is one.
std::optional<ProblemSpec> recognizeGraph(const std::vector<uint8_t>& graph);

// "hipdnn-driver <subcommand and flags | graph FILE> [--engine NAME] [--knob ID=VALUE]...".
// `graphFile` is where the graph's JSON was (or will be) written, used when no subcommand fits.
std::string driverCommandForGraph(const std::vector<uint8_t>& graph, const std::string& graphFile,
                                  const std::string& engine = "", const std::vector<std::string>& knobs = {});

}  // namespace hipdnn_driver
