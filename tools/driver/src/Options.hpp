// The command line: the options every run shares and the wiring of the subcommands, whose own
// flags are in their folders' flag tables (conv/ConvFlags.cpp, ...; see FlagTable.hpp). CLI11 is
// used only in Options.cpp and FlagTable.cpp; everything else sees these plain values.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "FlagTable.hpp"
#include "ProblemSpecs.hpp"

namespace hipdnn_driver {

enum class RunMode { Correctness, Performance, Both };

// --device gpu:all: the problems run on every GPU at once (EveryGpu.hpp).
inline constexpr std::string_view kEveryGpu = "gpu:all";

struct CommonOptions {
    // "" = the heuristics' first choice; "all" = every applicable engine; else a comma list.
    std::string engine;
    RunMode run = RunMode::Both;
    int warmup = 3;
    int iterations = 20;
    std::string device;            // "" = hipdnnCreate's choice; "cpu", "gpu", "gpu:N", kEveryGpu
    std::optional<uint32_t> seed;  // unset = HIPDNN_GLOBAL_TEST_SEED (default 1)
    std::string csvPath;
    std::string jsonPath;
    std::string dumpDir;
    std::vector<std::string> knobs;  // "id=value"
    bool verbose = false;
};

enum class DbAction { Show, Merge, Prune, Export };

enum class Command { Problem, Batch, Tune, Db, Demo, List, SupportTable };

struct Invocation {
    Command command = Command::Demo;
    CommonOptions common;
    ProblemSpec problem;
    std::string batchFile;  // batch and tune
    DbAction dbAction = DbAction::Show;
    std::vector<std::string> dbFiles;  // db show [FILE], db merge FILE..., db export PATH
};

// Parses argv without the program name. Returns the invocation, or nothing when the command
// line was handled here: --help (usage printed to `out`, exitCode 0) or an error (message and
// usage printed to `err`, exitCode 2).
struct ParseOutcome {
    std::optional<Invocation> invocation;
    int exitCode = 0;
};
ParseOutcome parseCommandLine(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// Parses one problem (a batch-file line split into words: "conv -n 4 ..."). Options not given on
// the line keep the values of `defaults`. Throws UsageError naming the offending flag.
Invocation parseProblemWords(const std::vector<std::string>& words, const CommonOptions& defaults);

}  // namespace hipdnn_driver
