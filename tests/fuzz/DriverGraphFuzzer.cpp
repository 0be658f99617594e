// libFuzzer target for hipdnn-driver's graph files: the text of a `graph FILE` (JSON or a binary
// Graph FlatBuffer) through the parser and verifier, then the recognizer that turns a verified
// graph back into a subcommand line. Bad input must end in ProblemError; anything else escaping,
// a crash or a sanitizer report is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "Problem.hpp"
#include "Reproducer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::vector<uint8_t> graph;
    try {
        graph = hipdnn_driver::parseGraphText(text, "fuzz.json");
    } catch (const hipdnn_driver::ProblemError&) {
        return 0;
    }
    if (auto spec = hipdnn_driver::recognizeGraph(graph)) {
        (void)hipdnn_driver::commandWordsFor(*spec);
    }
    return 0;
}
