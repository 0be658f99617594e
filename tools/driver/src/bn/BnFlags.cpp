// The bn subcommand's flags, in the order they are printed.
#include "bn/BnSpec.hpp"

namespace hipdnn_driver {
namespace {

using S = BnSpec;

const NameTable<S::Mode> kModes{
    {"inference", S::Mode::Inference}, {"training", S::Mode::Training}, {"backward", S::Mode::Backward}};

bool is3d(const S& s) {
    return s.depth > 0;
}
bool training(const S& s) {
    return s.mode == S::Mode::Training;
}

void check(const S& s) {
    for (EpilogueOp op : s.epilogue) {
        if (op == EpilogueOp::Bias) {
            throw UsageError("--fuse: 'bias' is not available for bn");
        }
    }
    if (!s.epilogue.empty() && s.mode == S::Mode::Backward) {
        throw UsageError("--fuse: epilogues apply to --mode inference and training, not " +
                         bnModeName(s.mode));
    }
}

}  // namespace

const std::string& bnModeName(BnSpec::Mode mode) {
    return nameOrFirst(kModes, mode);
}

template <>
const Subcommand<BnSpec>& subcommandOf<BnSpec>() {
    static const Subcommand<S> subcommand{
        "bn",
        "batch normalization",
        {
            flags::choice("--mode", &S::mode, kModes, "inference | training | backward"),
            flags::positive("-n", &S::n, "batch size").always(),
            flags::positive("-c", &S::c, "channels").always(),
            flags::positive("-D", &S::depth, "depth (3-D when given)").always().when(is3d).noDefaultShown(),
            flags::positive("-H", &S::h, "height").always(),
            flags::positive("-W", &S::w, "width").always(),
            flags::real("--epsilon", &S::epsilon, rules::positiveFinite(), "epsilon"),
            flags::real("--momentum", &S::momentum, rules::unitInterval(),
                        "running-statistics momentum (training)")
                .when(training),
            flags::dataType(&S::dataType),
            flags::layout(&S::layout),
            flags::fuse(
                &S::epilogue,
                "epilogue on y (inference, training), applied in order: add,relu,gelu,sigmoid,tanh,swish"),
        },
        check};
    return subcommand;
}

}  // namespace hipdnn_driver
