// The pool subcommand's flags (MIOpenDriver's letters for shape, window, padding and stride), in
// the order they are printed.
#include "pool/PoolSpec.hpp"

namespace hipdnn_driver {
namespace {

using S = PoolSpec;

const NameTable<S::Kind> kKinds{
    {"max", S::Kind::Max}, {"avg", S::Kind::Avg}, {"avg-include-pad", S::Kind::AvgIncludePadding}};

}  // namespace

const std::string& poolKindName(PoolSpec::Kind kind) {
    return nameOrFirst(kKinds, kind);
}

template <>
const Subcommand<PoolSpec>& subcommandOf<PoolSpec>() {
    static const Subcommand<S> subcommand{
        "pool",
        "max or average pooling (2-D)",
        {
            flags::choice("--type", &S::kind, kKinds, "max | avg | avg-include-pad"),
            flags::positive("-n", &S::n, "batch size").always(),
            flags::positive("-c", &S::c, "channels").always(),
            flags::positive("-H", &S::h, "height").always(),
            flags::positive("-W", &S::w, "width").always(),
            flags::positive("-y", &S::windowH, "window height"),
            flags::positive("-x", &S::windowW, "window width"),
            flags::nonNegative("-p", &S::padH, "padding height"),
            flags::nonNegative("-q", &S::padW, "padding width"),
            flags::positive("-u", &S::strideH, "stride height"),
            flags::positive("-v", &S::strideW, "stride width (use --verbose for verbosity)"),
            flags::dataType(&S::dataType),
            flags::layout(&S::layout),
        },
        {}};
    return subcommand;
}

}  // namespace hipdnn_driver
