// support-table: one small graph per operation x data type x layout, put to every loaded engine
// through the backend's heuristics; prints docs/OperationSupport.md (Markdown) with the reasons
// engines gave for declining.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "Problem.hpp"
#include "Session.hpp"

namespace hipdnn_driver {

struct SupportProbe {
    std::string operation;  // "conv fprop", "matmul + bias + gelu", ...
    std::string dataType;   // "fp32", ...
    std::string layout;     // "NCHW", "NHWC" or "-"
    Problem problem;
};

// The probe graphs, small enough to build in microseconds.
std::vector<SupportProbe> supportProbes();

// `sessions` are the devices to ask (the CPU and, when usable, a GPU).
void printSupportTable(const std::vector<Session*>& sessions, const std::string& commandLine,
                       std::ostream& out);

}  // namespace hipdnn_driver
