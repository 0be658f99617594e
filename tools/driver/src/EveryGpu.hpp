// --device gpu:all: the same problems run on every GPU of the host at once, one thread and one
// handle per GPU; each GPU's results are reported as usual, then per problem and engine the
// throughput of each GPU and their total.
#pragma once

#include <iosfwd>
#include <vector>

#include "Report.hpp"

namespace hipdnn_driver {

// `resultsByGpu[g]`: GPU g's results, in the same job order on every GPU. One line per problem
// and engine with a timing on at least one GPU: "<problem> <engine>: GPU 0 <x> TFLOP/s, GPU 1
// <y> TFLOP/s; total <x + y> TFLOP/s" (GB/s where the problem counts bytes, not flops); a GPU
// whose run has no timing is shown with its status and adds nothing to the total.
void printEveryGpuSummary(std::ostream& out, const std::vector<std::vector<Result>>& resultsByGpu);

}  // namespace hipdnn_driver
