// The README demo: a ResNet-50 bottleneck block, a conv + bias + relu + residual add, a batch-norm
// training step and a matmul + bias + gelu, each on every applicable engine of the device.
#pragma once

#include <string>
#include <vector>

#include "Problem.hpp"

namespace hipdnn_driver {

const std::vector<std::string>& demoCaseNames();

// The demo's problems (one when `only` names a case).
std::vector<Problem> demoProblems(const std::string& only);

}  // namespace hipdnn_driver
