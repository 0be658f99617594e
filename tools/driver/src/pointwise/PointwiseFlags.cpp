// The pointwise subcommand's flags, in the order they are printed.
#include "pointwise/PointwiseSpec.hpp"

#include <algorithm>
#include <cctype>

#include <hipdnn_flatbuffers_sdk/data_objects/graph_generated.h>

namespace hipdnn_driver {
namespace {

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;
using S = PointwiseSpec;
using Mode = hipdnn_frontend::PointwiseMode;

std::string lowerCase(std::string name) {
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char ch) { return std::tolower(ch); });
    return name;
}

// Every schema pointwise mode by its lower-case name ("relu_fwd", "add", "max_op"), then the short
// names of the forward activations ("relu", "gelu", ...).
NameTable<Mode> modeNames() {
    NameTable<Mode> names;
    for (auto value = static_cast<int>(fbs::PointwiseMode::MIN) + 1;
         value <= static_cast<int>(fbs::PointwiseMode::MAX); ++value) {
        std::string name = fbs::EnumNamePointwiseMode(static_cast<fbs::PointwiseMode>(value));
        if (!name.empty()) {
            names.emplace_back(lowerCase(name), static_cast<Mode>(value));
        }
    }
    const size_t schemaNames = names.size();
    for (const std::string activation : {"relu", "gelu", "sigmoid", "tanh", "swish", "elu", "softplus"}) {
        const auto forward =
            std::find_if(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(schemaNames),
                         [&](const auto& entry) { return entry.first == activation + "_fwd"; });
        if (forward != names.begin() + static_cast<std::ptrdiff_t>(schemaNames)) {
            names.emplace_back(activation, forward->second);
        }
    }
    return names;
}

Flag<S> opFlag() {
    const NameTable<Mode> names = modeNames();
    auto flag = flags::choice("--op", &S::mode, names,
                              "mode: relu, gelu, add, mul, ... or any schema name (relu_fwd)")
                    .formattedBy([](const S& s) { return pointwiseModeName(s.mode); });
    // --help lists the names in alphabetical order.
    std::sort(flag.rule.names.begin(), flag.rule.names.end());
    return flag;
}

void check(const S& s) {
    if (!s.secondDims.empty() && s.secondDims.size() != s.dims.size()) {
        throw UsageError("--b-dims: rank " + std::to_string(s.secondDims.size()) +
                         " differs from the rank of --dims, " + std::to_string(s.dims.size()));
    }
}

}  // namespace

std::string pointwiseModeName(hipdnn_frontend::PointwiseMode mode) {
    return lowerCase(hipdnn_frontend::to_string(mode));
}

template <>
const Subcommand<PointwiseSpec>& subcommandOf<PointwiseSpec>() {
    static const Subcommand<S> subcommand{
        "pointwise",
        "one elementwise operation",
        {
            opFlag(),
            flags::dims("--dims", &S::dims, "dims of the first input, e.g. 8,64,56,56").always(),
            flags::dims("--b-dims", &S::secondDims, "dims of the other inputs (broadcast; default: --dims)")
                .noDefaultShown(),
            flags::dataType(&S::dataType),
            flags::layout(&S::layout),
        },
        check};
    return subcommand;
}

}  // namespace hipdnn_driver
