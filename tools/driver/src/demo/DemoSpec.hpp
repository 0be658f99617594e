// demo [--case NAME] [--dtype T] [--layout L]: the demo's graphs, every case in the device's
// natural types, or the ones named. Flags in DemoFlags.cpp, graphs in Demo.cpp.
#pragma once

#include <optional>
#include <string>

#include "FlagTable.hpp"
#include "SpecTypes.hpp"

namespace hipdnn_driver {

struct DemoCaseSpec {
    std::string name;  // empty: every case
    std::optional<DataType> dataType;
    std::optional<Layout> layout;

    bool operator==(const DemoCaseSpec&) const = default;
};

template <>
const Subcommand<DemoCaseSpec>& subcommandOf<DemoCaseSpec>();

}  // namespace hipdnn_driver
