// pool: 2-D max or average pooling through the resample operation. Flags in PoolFlags.cpp, graph
// in PoolProblem.cpp.
#pragma once

#include <cstdint>
#include <string>

#include "FlagTable.hpp"
#include "SpecTypes.hpp"

namespace hipdnn_driver {

struct PoolSpec {
    enum class Kind { Max, Avg, AvgIncludePadding };
    Kind kind = Kind::Max;
    int64_t n = 8, c = 64, h = 56, w = 56;
    int64_t windowH = 3, windowW = 3;
    int64_t padH = 1, padW = 1;
    int64_t strideH = 2, strideW = 2;
    DataType dataType = DataType::FLOAT;
    Layout layout = Layout::ChannelsFirst;

    bool operator==(const PoolSpec&) const = default;
};

// "max", "avg", "avg-include-pad": the --type names, also used in labels.
const std::string& poolKindName(PoolSpec::Kind kind);

template <>
const Subcommand<PoolSpec>& subcommandOf<PoolSpec>();

}  // namespace hipdnn_driver
