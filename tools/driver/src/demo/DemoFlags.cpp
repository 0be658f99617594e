// The demo subcommand's flags, in the order they are printed. Each narrows the demo; none has a
// default value of its own.
#include "demo/Demo.hpp"
#include "demo/DemoSpec.hpp"

namespace hipdnn_driver {

template <>
const Subcommand<DemoCaseSpec>& subcommandOf<DemoCaseSpec>() {
    using S = DemoCaseSpec;
    static const NameTable<Layout> layouts{{"NCHW", Layout::ChannelsFirst}, {"NHWC", Layout::ChannelsLast}};
    static const Subcommand<S> subcommand{
        "demo",
        "the README demo: four graphs on every engine of the device",
        {
            flags::custom<S>(
                "--case", rules::oneOf(demoCaseNames()), "run one demo graph only",
                [](S& s, const std::vector<std::string>& words) { s.name = words.at(0); },
                [](const S& s) { return s.name; })
                .noDefaultShown(),
            flags::optionalChoice("--dtype", &S::dataType, dataTypeNames(),
                                  "fp32 | fp16 | bf16 (default: the device's own)"),
            flags::optionalChoice("--layout", &S::layout, layouts, "NCHW | NHWC (default: the device's own)",
                                  true),
        },
        {}};
    return subcommand;
}

}  // namespace hipdnn_driver
