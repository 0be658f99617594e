// conv: a convolution fprop (with an optional epilogue), dgrad or wgrad, 2-D or 3-D, with
// MIOpenDriver's flags (ConvFlags.cpp); ConvProblem.cpp builds its graph.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "FlagTable.hpp"
#include "SpecTypes.hpp"

namespace hipdnn_driver {

struct ConvSpec {
    enum class Direction { Fprop, Dgrad, Wgrad };
    Direction direction = Direction::Fprop;
    int64_t n = 1, c = 64, h = 56, w = 56, k = 64;
    int64_t filterH = 3, filterW = 3;
    int64_t padH = 0, padW = 0;
    int64_t strideH = 1, strideW = 1;
    int64_t dilationH = 1, dilationW = 1;
    int64_t groups = 1;
    // 3-D when depth > 0: -D depth, -z filter depth, --pad-d, --stride-d, --dilation-d.
    int64_t depth = 0, filterD = 1, padD = 0, strideD = 1, dilationD = 1;
    DataType dataType = DataType::FLOAT;
    Layout layout = Layout::ChannelsFirst;
    std::vector<EpilogueOp> epilogue;  // fprop only

    bool operator==(const ConvSpec&) const = default;
};

// "fprop", "dgrad", "wgrad": the --mode names, also used in labels.
const std::string& convDirectionName(ConvSpec::Direction direction);

template <>
const Subcommand<ConvSpec>& subcommandOf<ConvSpec>();

}  // namespace hipdnn_driver
