#include "Options.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <regex>

#include <CLI/CLI.hpp>

namespace hipdnn_driver {
namespace {

const std::map<std::string, RunMode> kRunModes{
    {"correctness", RunMode::Correctness}, {"performance", RunMode::Performance}, {"both", RunMode::Both}};

template <typename Map>
std::vector<std::string> keysOf(const Map& map) {
    std::vector<std::string> keys;
    for (const auto& entry : map) {
        keys.push_back(entry.first);
    }
    return keys;
}

// A subcommand generated from its spec's flag table (conv, ..., graph, demo): once parsed, its
// checked spec.
struct SpecSubcommand {
    CLI::App* app = nullptr;
    Command command = Command::Problem;
    std::function<ProblemSpec()> spec;
};

struct ParseState {
    Invocation invocation;
    // Parsed as a string checked against the names and converted once parsing is done.
    std::string run = "both";
    std::vector<SpecSubcommand> specSubcommands;

    CLI::App* batchApp = nullptr;
    CLI::App* tuneApp = nullptr;
    CLI::App* dbApp = nullptr;
    std::vector<std::pair<CLI::App*, DbAction>> dbActions;
    CLI::App* listApp = nullptr;
    CLI::App* supportApp = nullptr;
};

const CLI::Validator kDeviceValidator(
    [](const std::string& value) {
        static const std::regex pattern("cpu|gpu(:([0-9]+|all))?");
        return std::regex_match(value, pattern) ? std::string()
                                                : "device '" + value + "' is not cpu, gpu, gpu:N or gpu:all";
    },
    "cpu|gpu[:N|:all]");

const CLI::Validator kKnobValidator(
    [](const std::string& value) {
        const auto equals = value.find('=');
        return equals != std::string::npos && equals > 0 ? std::string()
                                                         : "knob '" + value + "' is not of the form id=value";
    },
    "ID=VALUE");

void addCommonOptions(CLI::App& app, ParseState& state) {
    auto& common = state.invocation.common;
    app.add_option("--engine", common.engine,
                   "engine name, a comma-separated list, or 'all' (default: the heuristics' first choice)");
    app.add_option("--run", state.run, "correctness | performance | both")
        ->check(CLI::IsMember(keysOf(kRunModes)))
        ->capture_default_str();
    app.add_option("--warmup", common.warmup, "untimed runs before timing")
        ->check(validatorOf(rules::nonNegativeInteger()))
        ->capture_default_str();
    app.add_option("--iters", common.iterations, "timed runs (fewer on CPU_REFERENCE_ENGINE, see docs)")
        ->check(validatorOf(rules::positiveInteger()))
        ->capture_default_str();
    app.add_option("--device", common.device,
                   "cpu | gpu | gpu:N | gpu:all (every GPU at once, one thread each; default: GPU 0 when "
                   "usable, else CPU)")
        ->check(kDeviceValidator);
    app.add_option("--seed", common.seed, "input seed (default: HIPDNN_GLOBAL_TEST_SEED, else 1)");
    app.add_option("--csv", common.csvPath, "also write the results as CSV to FILE");
    app.add_option("--json", common.jsonPath, "also write the results as a JSON array to FILE");
    app.add_option(
        "--dump", common.dumpDir,
        "write graph.json, manifest.json and tensor files (inputs and each engine's outputs) under DIR");
    app.add_option("--knob", common.knobs, "knob setting ID=VALUE for the engine under test (repeatable)")
        ->check(kKnobValidator);
    app.add_flag("-v,--verbose", common.verbose, "more detail (declined engines' reasons, tolerances)");
}

// Registers the subcommand of `Spec` from its flag table; the spec it parses into lives as long
// as the parse state.
template <typename Spec>
void addSpecSubcommand(CLI::App& app, ParseState& state, Command command) {
    const Subcommand<Spec>& subcommand = subcommandOf<Spec>();
    auto spec = std::make_shared<Spec>();
    CLI::App* sub = addSubcommand(app, subcommand, *spec);
    state.specSubcommands.push_back({sub, command, [spec, &subcommand]() -> ProblemSpec {
                                         if (subcommand.check) {
                                             subcommand.check(*spec);
                                         }
                                         return *spec;
                                     }});
}

void addDbCommands(CLI::App& app, ParseState& state) {
    state.dbApp = app.add_subcommand("db", "the tuning database: show, merge, prune, export");
    state.dbApp->fallthrough();
    // No require_subcommand: an unknown word is then reported by name ("not expected: WORD").
    auto& files = state.invocation.dbFiles;
    CLI::App* show =
        state.dbApp->add_subcommand("show", "list the records (of FILE, else the current database)");
    show->add_option("file", files, "a database file")->expected(0, 1);
    CLI::App* merge = state.dbApp->add_subcommand(
        "merge", "merge database files into the current one (the faster record per graph and device wins)");
    merge->add_option("files", files, "database files")->required()->expected(1, -1);
    CLI::App* prune = state.dbApp->add_subcommand(
        "prune", "drop records of plugins or CPUs this machine does not have, and malformed lines");
    CLI::App* exported =
        state.dbApp->add_subcommand("export", "write the current database's records to PATH");
    exported->add_option("path", files, "destination file")->required()->expected(1);
    for (CLI::App* sub : {show, merge, prune, exported}) {
        sub->fallthrough();
    }
    state.dbActions = {{show, DbAction::Show},
                       {merge, DbAction::Merge},
                       {prune, DbAction::Prune},
                       {exported, DbAction::Export}};
}

void addOtherCommands(CLI::App& app, ParseState& state) {
    state.batchApp = app.add_subcommand("batch", "run one problem per line of FILE ('#' starts a comment)");
    state.batchApp->fallthrough();
    state.batchApp->add_option("file", state.invocation.batchFile, "batch file")->required();
    state.tuneApp = app.add_subcommand(
        "tune",
        "time every plan of every engine on each problem of FILE; record the fastest in the tuning database");
    state.tuneApp->fallthrough();
    state.tuneApp->add_option("file", state.invocation.batchFile, "batch file")->required();
    addDbCommands(app, state);
    addSpecSubcommand<DemoCaseSpec>(app, state, Command::Demo);
    state.listApp = app.add_subcommand("list", "loaded plugins, engines, knobs and the handle's device");
    state.listApp->fallthrough();
    state.supportApp = app.add_subcommand(
        "support-table",
        "ask every loaded engine about one small graph per op x dtype x layout; print Markdown");
    state.supportApp->fallthrough();
}

void buildApp(CLI::App& app, ParseState& state) {
    app.require_subcommand(1);
    addCommonOptions(app, state);
    addSpecSubcommand<ConvSpec>(app, state, Command::Problem);
    addSpecSubcommand<BnSpec>(app, state, Command::Problem);
    addSpecSubcommand<PointwiseSpec>(app, state, Command::Problem);
    addSpecSubcommand<MatmulSpec>(app, state, Command::Problem);
    addSpecSubcommand<NormSpec>(app, state, Command::Problem);
    addSpecSubcommand<PoolSpec>(app, state, Command::Problem);
    addSpecSubcommand<SdpaSpec>(app, state, Command::Problem);
    addSpecSubcommand<GraphSpec>(app, state, Command::Problem);
    addOtherCommands(app, state);
}

// Turns the parsed values into the invocation of the subcommand that was given; a spec's checks
// (UsageError) run here.
Invocation finish(ParseState& state) {
    Invocation invocation = state.invocation;
    invocation.common.run = kRunModes.at(state.run);
    for (const auto& sub : state.specSubcommands) {
        if (sub.app->parsed()) {
            invocation.command = sub.command;
            invocation.problem = sub.spec();
            return invocation;
        }
    }
    for (const auto& [sub, action] : state.dbActions) {
        if (sub->parsed()) {
            invocation.command = Command::Db;
            invocation.dbAction = action;
            return invocation;
        }
    }
    if (state.dbApp->parsed()) {
        throw UsageError("db: a subcommand is required (show, merge, prune or export)");
    }
    invocation.command = state.batchApp->parsed()  ? Command::Batch
                         : state.tuneApp->parsed() ? Command::Tune
                         : state.listApp->parsed() ? Command::List
                                                   : Command::SupportTable;
    return invocation;
}

std::vector<std::string> reversed(const std::vector<std::string>& words) {
    return {words.rbegin(), words.rend()};
}

const CLI::App& failingApp(const CLI::App& app) {
    for (const CLI::App* sub : app.get_subcommands()) {
        return *sub;
    }
    return app;
}

}  // namespace

ParseOutcome parseCommandLine(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    CLI::App app("hipdnn-driver: validates and times hipdnn graphs on every engine", "hipdnn-driver");
    ParseState state;
    buildApp(app, state);
    try {
        auto words = reversed(args);
        app.parse(words);
        return {finish(state), 0};
    } catch (const CLI::CallForHelp&) {
        out << failingApp(app).help();
        return {std::nullopt, 0};
    } catch (const CLI::CallForAllHelp&) {
        out << app.help("", CLI::AppFormatMode::All);
        return {std::nullopt, 0};
    } catch (const CLI::ParseError& error) {
        err << "hipdnn-driver: error: " << error.what() << "\n\n" << failingApp(app).help();
        return {std::nullopt, 2};
    } catch (const UsageError& error) {
        err << "hipdnn-driver: error: " << error.what() << "\n\n" << failingApp(app).help();
        return {std::nullopt, 2};
    }
}

Invocation parseProblemWords(const std::vector<std::string>& words, const CommonOptions& defaults) {
    CLI::App app("hipdnn-driver batch line", "hipdnn-driver");
    ParseState state;
    state.invocation.common = defaults;
    state.run = defaults.run == RunMode::Correctness   ? "correctness"
                : defaults.run == RunMode::Performance ? "performance"
                                                       : "both";
    buildApp(app, state);
    std::string problemNames;
    bool isProblem = false;
    for (const auto& sub : state.specSubcommands) {
        if (sub.command == Command::Problem) {
            problemNames += (problemNames.empty() ? "" : ", ") + sub.app->get_name();
            isProblem = isProblem || sub.app->get_name() == words.front();
        }
    }
    if (!isProblem) {
        throw UsageError("'" + words.front() + "' is not a problem subcommand (" + problemNames + ")");
    }
    try {
        auto reversedWords = reversed(words);
        app.parse(reversedWords);
    } catch (const CLI::CallForHelp&) {
        throw UsageError("--help is not allowed here");
    } catch (const CLI::ParseError& error) {
        throw UsageError(error.what());
    }
    return finish(state);
}

}  // namespace hipdnn_driver
