// norm: layer normalization or RMS normalization over every dim but the first, inference or
// training. Flags in NormFlags.cpp, graph in NormProblem.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "FlagTable.hpp"
#include "SpecTypes.hpp"

namespace hipdnn_driver {

struct NormSpec {
    enum class Kind { Layernorm, Rmsnorm };
    Kind kind = Kind::Layernorm;
    hipdnn_frontend::NormFwdPhase phase = hipdnn_frontend::NormFwdPhase::INFERENCE;
    std::vector<int64_t> dims{32, 1024};  // first dim is the batch; the rest are normalized
    double epsilon = 1e-5;
    DataType dataType = DataType::FLOAT;

    bool operator==(const NormSpec&) const = default;
};

// The --type and --phase names ("layernorm", "training"), also used in labels.
const std::string& normKindName(NormSpec::Kind kind);
const std::string& normPhaseName(hipdnn_frontend::NormFwdPhase phase);

template <>
const Subcommand<NormSpec>& subcommandOf<NormSpec>();

}  // namespace hipdnn_driver
