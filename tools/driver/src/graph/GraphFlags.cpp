// The graph subcommand's arguments: the file, then --inputs.
#include "graph/GraphSpec.hpp"

namespace hipdnn_driver {

template <>
const Subcommand<GraphSpec>& subcommandOf<GraphSpec>() {
    using S = GraphSpec;
    static const Subcommand<S> subcommand{
        "graph",
        "run a serialized graph (JSON or binary FlatBuffer)",
        {
            flags::custom<S>(
                "file", rules::text(), "graph file",
                [](S& s, const std::vector<std::string>& words) { s.file = words.at(0); },
                [](const S& s) { return s.file.string(); })
                .always()
                .required(),
            flags::custom<S>(
                "--inputs", rules::text(), "read input tensors from a golden-data directory (--dump output)",
                [](S& s, const std::vector<std::string>& words) {
                    if (!words.at(0).empty()) {
                        s.inputsDir = std::filesystem::path(words.at(0));
                    }
                },
                [](const S& s) { return s.inputsDir ? s.inputsDir->string() : std::string(); })
                .always()
                .when([](const S& s) { return s.inputsDir.has_value(); })
                .noDefaultShown(),
        },
        {}};
    return subcommand;
}

}  // namespace hipdnn_driver
