// pointwise: one elementwise operation with 1 to 3 inputs; the others broadcast (--b-dims). Flags
// in PointwiseFlags.cpp, graph in PointwiseProblem.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "FlagTable.hpp"
#include "SpecTypes.hpp"

namespace hipdnn_driver {

struct PointwiseSpec {
    hipdnn_frontend::PointwiseMode mode = hipdnn_frontend::PointwiseMode::RELU_FWD;
    std::vector<int64_t> dims{8, 64, 56, 56};
    std::vector<int64_t> secondDims;  // empty: same as dims; else broadcast (1s repeat)
    DataType dataType = DataType::FLOAT;
    Layout layout = Layout::ChannelsFirst;  // only for rank 4 and 5

    bool operator==(const PointwiseSpec&) const = default;
};

// The schema's name of the mode in lower case ("relu_fwd", "max_op"): the --op value printed, and
// the name in labels.
std::string pointwiseModeName(hipdnn_frontend::PointwiseMode mode);

template <>
const Subcommand<PointwiseSpec>& subcommandOf<PointwiseSpec>();

}  // namespace hipdnn_driver
