// Compares an engine's outputs with CPU_REFERENCE_ENGINE's using the test SDK's tolerances.
#pragma once

#include <string>
#include <vector>

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include "Inputs.hpp"

namespace hipdnn_driver {

struct ValidationResult {
    bool passed = true;
    double maxAbsError = 0.0;  // over every output element (infinite when a NaN/Inf differs)
    // Per failing output: its name and the test SDK's report (worst element, index, errors).
    std::string failure;
    std::string toleranceDescription;  // "ConvolutionFwd tolerance abs 1e-05 rel 1e-05 (FLOAT)"
};

// Tolerance per output: the fixed table entry of the graph's dominant operation for the output's
// data type, widened by the accumulation bound of its longest dot product (inputs in [-1, 1]).
ValidationResult validateOutputs(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                 const std::vector<HostTensor>& expected,
                                 const std::vector<HostTensor>& actual);

}  // namespace hipdnn_driver
