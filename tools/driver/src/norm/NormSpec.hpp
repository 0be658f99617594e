// norm: layer normalization or RMS normalization over every dim but the first, inference or
// training, and their backward operations. Flags in NormFlags.cpp, graph in NormProblem.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "FlagTable.hpp"
#include "SpecTypes.hpp"

namespace hipdnn_driver {

struct NormSpec {
    enum class Kind { Layernorm, Rmsnorm };
    enum class Direction { Forward, Backward };
    Kind kind = Kind::Layernorm;
    Direction direction = Direction::Forward;  // backward reads the forward pass's statistics
    hipdnn_frontend::NormFwdPhase phase = hipdnn_frontend::NormFwdPhase::INFERENCE;
    std::vector<int64_t> dims{32, 1024};  // first dim is the batch; the rest are normalized
    double epsilon = 1e-5;
    DataType dataType = DataType::FLOAT;

    bool operator==(const NormSpec&) const = default;
};

// The --type, --phase and --dir names ("layernorm", "training", "bwd"), also used in labels.
const std::string& normKindName(NormSpec::Kind kind);
const std::string& normPhaseName(hipdnn_frontend::NormFwdPhase phase);
const std::string& normDirectionName(NormSpec::Direction direction);

template <>
const Subcommand<NormSpec>& subcommandOf<NormSpec>();

}  // namespace hipdnn_driver
