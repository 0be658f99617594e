// The norm subcommand's flags, in the order they are printed.
#include "norm/NormSpec.hpp"

namespace hipdnn_driver {
namespace {

using S = NormSpec;
using Phase = hipdnn_frontend::NormFwdPhase;

const NameTable<S::Kind> kKinds{{"layernorm", S::Kind::Layernorm}, {"rmsnorm", S::Kind::Rmsnorm}};
const NameTable<Phase> kPhases{{"inference", Phase::INFERENCE}, {"training", Phase::TRAINING}};
const NameTable<S::Direction> kDirections{{"fwd", S::Direction::Forward}, {"bwd", S::Direction::Backward}};

void check(const S& s) {
    if (s.dims.size() < 2) {
        throw UsageError("--dims: needs a batch dim and at least one normalized dim");
    }
}

}  // namespace

const std::string& normKindName(NormSpec::Kind kind) {
    return nameOrFirst(kKinds, kind);
}

const std::string& normPhaseName(hipdnn_frontend::NormFwdPhase phase) {
    return nameOrFirst(kPhases, phase);
}

const std::string& normDirectionName(NormSpec::Direction direction) {
    return nameOrFirst(kDirections, direction);
}

template <>
const Subcommand<NormSpec>& subcommandOf<NormSpec>() {
    static const Subcommand<S> subcommand{
        "norm",
        "layer or RMS normalization",
        {
            flags::choice("--type", &S::kind, kKinds, "layernorm | rmsnorm"),
            flags::choice("--phase", &S::phase, kPhases, "inference | training (forward)"),
            flags::choice("--dir", &S::direction, kDirections,
                          "fwd | bwd (bwd: from the saved mean and inv_variance, or inv_rms)"),
            flags::dims("--dims", &S::dims, "dims; the first is the batch, the rest are normalized").always(),
            flags::real("--epsilon", &S::epsilon, rules::positiveFinite(), "epsilon"),
            flags::dataType(&S::dataType),
        },
        check};
    return subcommand;
}

}  // namespace hipdnn_driver
