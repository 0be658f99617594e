// The conv subcommand's flags: MIOpenDriver's (-n -c -H -W -k -y -x -p -q -u -v -l -j -g), the
// 3-D ones, and the direction, data type, layout and epilogue. Printed in this order.
#include "conv/ConvSpec.hpp"

namespace hipdnn_driver {
namespace {

using S = ConvSpec;

const NameTable<S::Direction> kDirections{
    {"fprop", S::Direction::Fprop}, {"dgrad", S::Direction::Dgrad}, {"wgrad", S::Direction::Wgrad}};

bool is3d(const S& s) {
    return s.depth > 0;
}

void check(const S& s) {
    if (!s.epilogue.empty() && s.direction != S::Direction::Fprop) {
        throw UsageError("--fuse: epilogues apply to --mode fprop only, not " +
                         convDirectionName(s.direction));
    }
    if (s.c % s.groups != 0 || s.k % s.groups != 0) {
        throw UsageError("-g: " + std::to_string(s.groups) + " groups do not divide -c " +
                         std::to_string(s.c) + " and -k " + std::to_string(s.k));
    }
}

}  // namespace

const std::string& convDirectionName(ConvSpec::Direction direction) {
    return nameOrFirst(kDirections, direction);
}

template <>
const Subcommand<ConvSpec>& subcommandOf<ConvSpec>() {
    static const Subcommand<S> subcommand{
        "conv",
        "convolution fprop / dgrad / wgrad (MIOpenDriver flags)",
        {
            flags::choice("--mode", &S::direction, kDirections, "fprop | dgrad | wgrad"),
            flags::positive("-n", &S::n, "batch size").always(),
            flags::positive("-c", &S::c, "input channels").always(),
            flags::positive("-D", &S::depth, "input depth (3-D convolution when given)")
                .always()
                .when(is3d)
                .noDefaultShown(),
            flags::positive("-H", &S::h, "input height").always(),
            flags::positive("-W", &S::w, "input width").always(),
            flags::positive("-k", &S::k, "output channels").always(),
            flags::positive("-z", &S::filterD, "filter depth (3-D)").always().when(is3d),
            flags::positive("-y", &S::filterH, "filter height").always(),
            flags::positive("-x", &S::filterW, "filter width").always(),
            flags::nonNegative("-p", &S::padH, "padding height"),
            flags::nonNegative("-q", &S::padW, "padding width"),
            flags::positive("-u", &S::strideH, "stride height"),
            flags::positive("-v", &S::strideW, "stride width (use --verbose for verbosity)"),
            flags::positive("-l", &S::dilationH, "dilation height"),
            flags::positive("-j", &S::dilationW, "dilation width"),
            flags::positive("-g", &S::groups, "groups"),
            flags::nonNegative("--pad-d", &S::padD, "padding depth (3-D)").when(is3d),
            flags::positive("--stride-d", &S::strideD, "stride depth (3-D)").when(is3d),
            flags::positive("--dilation-d", &S::dilationD, "dilation depth (3-D)").when(is3d),
            flags::dataType(&S::dataType),
            flags::layout(&S::layout),
            flags::fuse(&S::epilogue,
                        "fprop epilogue, applied in order: bias,add,relu,gelu,sigmoid,tanh,swish"),
        },
        check};
    return subcommand;
}

}  // namespace hipdnn_driver
