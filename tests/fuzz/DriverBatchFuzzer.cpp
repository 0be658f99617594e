// libFuzzer target for hipdnn-driver's batch files: every line through the word splitter and the
// subcommand parsers. Bad lines must end in UsageError; anything else escaping, a crash or a
// sanitizer report is a finding.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "BatchFile.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try {
        (void)hipdnn_driver::parseBatch(in, "fuzz.txt", "/nonexistent", hipdnn_driver::CommonOptions{});
    } catch (const hipdnn_driver::UsageError&) {
    }
    return 0;
}
