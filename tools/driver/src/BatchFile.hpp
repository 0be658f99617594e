// Batch files: one problem per line in the subcommand syntax ("conv -n 4 -c 64 ..."), '#' starts
// a comment, blank lines are skipped, words may be quoted. Graph paths are relative to the file.
#pragma once

#include <cstddef>
#include <filesystem>
#include <istream>
#include <string>
#include <vector>

#include "Options.hpp"

namespace hipdnn_driver {

struct BatchEntry {
    size_t line = 0;
    std::string text;  // the line without its comment
    Invocation invocation;
};

// Every line is checked before anything runs; all bad lines are reported at once in a UsageError
// whose lines read "<file>:<line>: <flag>: <problem>".
std::vector<BatchEntry> parseBatch(std::istream& in, const std::string& fileName,
                                   const std::filesystem::path& baseDirectory, const CommonOptions& defaults);
std::vector<BatchEntry> parseBatchFile(const std::filesystem::path& file, const CommonOptions& defaults);

// Splits a line into words at blanks; single or double quotes group words; '#' outside quotes
// ends the line. Throws UsageError on an unterminated quote.
std::vector<std::string> splitWords(const std::string& line);

}  // namespace hipdnn_driver
