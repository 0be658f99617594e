// The README demo: a ResNet-50 bottleneck block, a conv + bias + relu + residual add, a batch-norm
// training step and a matmul + bias + gelu, in the data types and layouts natural to the device,
// each on every applicable engine of the device.
#pragma once

#include <string>
#include <vector>

#include "Problem.hpp"
#include "demo/DemoSpec.hpp"

namespace hipdnn_driver {

const std::vector<std::string>& demoCaseNames();

// What the demo chooses its variants by.
struct DemoDevice {
    bool gpu = false;
    bool bf16Math = false;  // a CPU with AVX512-BF16 or AMX-BF16
};

struct DemoProblem {
    Problem problem;
    // Shown only when an engine of the device takes it (a variant beyond the device's natural
    // types, or a whole graph the device's engines may only run in parts).
    bool optional = false;
};

// The graphs of every case (or of `filter.name`) in the device's variants, or in the filter's data
// type and layout when it names them:
// - GPU: bf16 and fp16 channels-last; the bottleneck as its three conv stages, the whole block
//   and fp32 channels-last variants optional;
// - CPU: fp32 channels-first, and bf16 channels-last when the CPU has bf16 units.
std::vector<DemoProblem> demoProblems(const DemoDevice& device, const DemoCaseSpec& filter);

}  // namespace hipdnn_driver
