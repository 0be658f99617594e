// graph FILE: a serialized graph read from a file (JSON, or a binary FlatBuffer), with optional
// inputs from a golden-data directory (hipdnn-driver --dump output). Flags in GraphFlags.cpp;
// GraphProblem.cpp reads and checks the file.
#pragma once

#include <filesystem>
#include <optional>

#include "FlagTable.hpp"

namespace hipdnn_driver {

struct GraphSpec {
    std::filesystem::path file;
    std::optional<std::filesystem::path> inputsDir;

    bool operator==(const GraphSpec&) const = default;
};

template <>
const Subcommand<GraphSpec>& subcommandOf<GraphSpec>();

}  // namespace hipdnn_driver
