#include "Options.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <ostream>
#include <regex>

#include <hipdnn_flatbuffers_sdk/data_objects/operations_generated.h>
#include <CLI/CLI.hpp>

#include "Demo.hpp"

namespace hipdnn_driver {
namespace {

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;

const std::map<std::string, DataType> kDataTypes{
    {"fp32", DataType::FLOAT}, {"fp16", DataType::HALF}, {"bf16", DataType::BFLOAT16}};
const std::map<std::string, RunMode> kRunModes{
    {"correctness", RunMode::Correctness}, {"performance", RunMode::Performance}, {"both", RunMode::Both}};
const std::map<std::string, EpilogueOp> kEpilogueOps{
    {"bias", EpilogueOp::Bias},  {"add", EpilogueOp::Add},         {"relu", EpilogueOp::Relu},
    {"gelu", EpilogueOp::Gelu},  {"sigmoid", EpilogueOp::Sigmoid}, {"tanh", EpilogueOp::Tanh},
    {"swish", EpilogueOp::Swish}};

template <typename Map>
std::vector<std::string> keysOf(const Map& map) {
    std::vector<std::string> keys;
    for (const auto& entry : map) {
        keys.push_back(entry.first);
    }
    return keys;
}

// Every schema pointwise mode by its lower-case name ("relu_fwd", "add", "max_op"), plus the
// short names of the forward activations ("relu", "gelu", ...).
std::map<std::string, hipdnn_frontend::PointwiseMode> pointwiseModes() {
    std::map<std::string, hipdnn_frontend::PointwiseMode> modes;
    for (auto value = static_cast<int>(fbs::PointwiseMode::MIN) + 1;
         value <= static_cast<int>(fbs::PointwiseMode::MAX); ++value) {
        std::string name = fbs::EnumNamePointwiseMode(static_cast<fbs::PointwiseMode>(value));
        if (name.empty()) {
            continue;
        }
        std::transform(name.begin(), name.end(), name.begin(),
                       [](unsigned char ch) { return std::tolower(ch); });
        modes[name] = static_cast<hipdnn_frontend::PointwiseMode>(value);
    }
    for (const char* activation : {"relu", "gelu", "sigmoid", "tanh", "swish", "elu", "softplus"}) {
        modes[activation] = modes.at(std::string(activation) + "_fwd");
    }
    return modes;
}

// Values of enum-like flags are parsed as strings checked against their names and converted once
// the subcommand is known, so that CLI11 never has to convert into the enums itself.
struct ParseState {
    Invocation invocation;
    ConvSpec conv;
    BnSpec bn;
    PointwiseSpec pointwise;
    MatmulSpec matmul;
    NormSpec norm;
    PoolSpec pool;
    GraphSpec graph;
    DemoCaseSpec demoCase;
    std::string demoDataType;  // empty: the device's own
    std::string demoLayout;
    std::string run = "both";
    std::string dataType = "fp32";
    std::string layout = "NCHW";
    std::string convMode = "fprop";
    std::string bnMode = "inference";
    std::string pointwiseOp = "relu";
    std::string normType = "layernorm";
    std::string normPhase = "inference";
    std::string poolType = "max";
    std::vector<std::string> fuse;
    std::string inputsDir;
    std::string graphFile;

    CLI::App* convApp = nullptr;
    CLI::App* bnApp = nullptr;
    CLI::App* pointwiseApp = nullptr;
    CLI::App* matmulApp = nullptr;
    CLI::App* normApp = nullptr;
    CLI::App* poolApp = nullptr;
    CLI::App* graphApp = nullptr;
    CLI::App* batchApp = nullptr;
    CLI::App* demoApp = nullptr;
    CLI::App* listApp = nullptr;
    CLI::App* supportApp = nullptr;
};

const CLI::Validator kDeviceValidator(
    [](const std::string& value) {
        static const std::regex pattern("cpu|gpu(:[0-9]+)?");
        return std::regex_match(value, pattern) ? std::string()
                                                : "device '" + value + "' is not cpu, gpu or gpu:N";
    },
    "cpu|gpu[:N]");

// Integer flags: CLI11's number validators print the full double range for a non-number.
CLI::Validator integerAtLeast(int64_t minimum, const std::string& what) {
    return CLI::Validator(
        [minimum, what](const std::string& value) {
            size_t used = 0;
            try {
                const long long number = std::stoll(value, &used);
                if (used == value.size() && number >= minimum) {
                    return std::string();
                }
            } catch (const std::exception&) {
                // reported below
            }
            return "'" + value + "' is not " + what;
        },
        what);
}

const CLI::Validator kPositive = integerAtLeast(1, "a positive integer");
const CLI::Validator kNonNegative = integerAtLeast(0, "a non-negative integer");

// Real flags must be finite numbers in range. CLI11's PositiveNumber and Range let NaN through
// (every comparison with NaN is false) and take inf: a NaN epsilon made NaN outputs that compared
// equal to NaN references.
CLI::Validator finiteNumber(double minimum, bool minimumAllowed, double maximum, const std::string& what) {
    return CLI::Validator(
        [=](const std::string& value) {
            size_t used = 0;
            try {
                const double number = std::stod(value, &used);
                if (used == value.size() && std::isfinite(number) &&
                    (minimumAllowed ? number >= minimum : number > minimum) && number <= maximum) {
                    return std::string();
                }
            } catch (const std::exception&) {
                // reported below
            }
            return "'" + value + "' is not " + what;
        },
        what);
}

const CLI::Validator kPositiveFinite =
    finiteNumber(0.0, false, std::numeric_limits<double>::max(), "a positive finite number");
const CLI::Validator kUnitInterval = finiteNumber(0.0, true, 1.0, "a number in [0, 1]");

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
        ->check(kNonNegative)
        ->capture_default_str();
    app.add_option("--iters", common.iterations, "timed runs (fewer on CPU_REFERENCE_ENGINE, see docs)")
        ->check(kPositive)
        ->capture_default_str();
    app.add_option("--device", common.device, "cpu | gpu | gpu:N (default: GPU 0 when usable, else CPU)")
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

void addDataTypeOption(CLI::App& app, ParseState& state) {
    app.add_option("--dtype", state.dataType, "fp32 | fp16 | bf16")
        ->check(CLI::IsMember(keysOf(kDataTypes)))
        ->capture_default_str();
}

void addLayoutOption(CLI::App& app, ParseState& state) {
    app.add_option("--layout", state.layout, "NCHW | NHWC (NCDHW / NDHWC in 3-D)")
        ->check(CLI::IsMember({"NCHW", "NHWC", "NCDHW", "NDHWC"}, CLI::ignore_case))
        ->capture_default_str();
}

void addFuseOption(CLI::App& app, ParseState& state, const std::string& what) {
    app.add_option("--fuse", state.fuse, what)->delimiter(',')->check(CLI::IsMember(keysOf(kEpilogueOps)));
}

void addConv(CLI::App& app, ParseState& state) {
    auto& s = state.conv;
    auto* conv = state.convApp =
        app.add_subcommand("conv", "convolution fprop / dgrad / wgrad (MIOpenDriver flags)");
    conv->fallthrough();
    conv->add_option("--mode", state.convMode, "fprop | dgrad | wgrad")
        ->check(CLI::IsMember({"fprop", "dgrad", "wgrad"}))
        ->capture_default_str();
    conv->add_option("-n", s.n, "batch size")->check(kPositive)->capture_default_str();
    conv->add_option("-c", s.c, "input channels")->check(kPositive)->capture_default_str();
    conv->add_option("-H", s.h, "input height")->check(kPositive)->capture_default_str();
    conv->add_option("-W", s.w, "input width")->check(kPositive)->capture_default_str();
    conv->add_option("-k", s.k, "output channels")->check(kPositive)->capture_default_str();
    conv->add_option("-y", s.filterH, "filter height")->check(kPositive)->capture_default_str();
    conv->add_option("-x", s.filterW, "filter width")->check(kPositive)->capture_default_str();
    conv->add_option("-p", s.padH, "padding height")->check(kNonNegative)->capture_default_str();
    conv->add_option("-q", s.padW, "padding width")->check(kNonNegative)->capture_default_str();
    conv->add_option("-u", s.strideH, "stride height")->check(kPositive)->capture_default_str();
    conv->add_option("-v", s.strideW, "stride width (use --verbose for verbosity)")
        ->check(kPositive)
        ->capture_default_str();
    conv->add_option("-l", s.dilationH, "dilation height")->check(kPositive)->capture_default_str();
    conv->add_option("-j", s.dilationW, "dilation width")->check(kPositive)->capture_default_str();
    conv->add_option("-g", s.groups, "groups")->check(kPositive)->capture_default_str();
    conv->add_option("-D", s.depth, "input depth (3-D convolution when given)")->check(kPositive);
    conv->add_option("-z", s.filterD, "filter depth (3-D)")->check(kPositive)->capture_default_str();
    conv->add_option("--pad-d", s.padD, "padding depth (3-D)")->check(kNonNegative)->capture_default_str();
    conv->add_option("--stride-d", s.strideD, "stride depth (3-D)")->check(kPositive)->capture_default_str();
    conv->add_option("--dilation-d", s.dilationD, "dilation depth (3-D)")
        ->check(kPositive)
        ->capture_default_str();
    addDataTypeOption(*conv, state);
    addLayoutOption(*conv, state);
    addFuseOption(*conv, state, "fprop epilogue, applied in order: bias,add,relu,gelu,sigmoid,tanh,swish");
}

void addBn(CLI::App& app, ParseState& state) {
    auto& s = state.bn;
    auto* bn = state.bnApp = app.add_subcommand("bn", "batch normalization");
    bn->fallthrough();
    bn->add_option("--mode", state.bnMode, "inference | training | backward")
        ->check(CLI::IsMember({"inference", "training", "backward"}))
        ->capture_default_str();
    bn->add_option("-n", s.n, "batch size")->check(kPositive)->capture_default_str();
    bn->add_option("-c", s.c, "channels")->check(kPositive)->capture_default_str();
    bn->add_option("-H", s.h, "height")->check(kPositive)->capture_default_str();
    bn->add_option("-W", s.w, "width")->check(kPositive)->capture_default_str();
    bn->add_option("-D", s.depth, "depth (3-D when given)")->check(kPositive);
    bn->add_option("--epsilon", s.epsilon, "epsilon")->check(kPositiveFinite)->capture_default_str();
    bn->add_option("--momentum", s.momentum, "running-statistics momentum (training)")
        ->check(kUnitInterval)
        ->capture_default_str();
    addDataTypeOption(*bn, state);
    addLayoutOption(*bn, state);
    addFuseOption(*bn, state, "inference epilogue, applied in order: add,relu,gelu,sigmoid,tanh,swish");
}

void addPointwise(CLI::App& app, ParseState& state) {
    auto& s = state.pointwise;
    auto* pointwise = state.pointwiseApp = app.add_subcommand("pointwise", "one elementwise operation");
    pointwise->fallthrough();
    pointwise
        ->add_option("--op", state.pointwiseOp,
                     "mode: relu, gelu, add, mul, ... or any schema name (relu_fwd)")
        ->check(CLI::IsMember(keysOf(pointwiseModes())))
        ->capture_default_str();
    pointwise->add_option("--dims", s.dims, "dims of the first input, e.g. 8,64,56,56")
        ->delimiter(',')
        ->check(kPositive)
        ->capture_default_str();
    pointwise->add_option("--b-dims", s.secondDims, "dims of the other inputs (broadcast; default: --dims)")
        ->delimiter(',')
        ->check(kPositive);
    addDataTypeOption(*pointwise, state);
    addLayoutOption(*pointwise, state);
}

void addMatmul(CLI::App& app, ParseState& state) {
    auto& s = state.matmul;
    auto* matmul = state.matmulApp = app.add_subcommand("matmul", "batched matrix product C = A x B");
    matmul->fallthrough();
    matmul->add_option("-b", s.batch, "batch")->check(kPositive)->capture_default_str();
    matmul->add_option("-m", s.m, "rows of A and C")->check(kPositive)->capture_default_str();
    matmul->add_option("-n", s.n, "columns of B and C")->check(kPositive)->capture_default_str();
    matmul->add_option("-k", s.k, "columns of A, rows of B")->check(kPositive)->capture_default_str();
    addDataTypeOption(*matmul, state);
    addFuseOption(*matmul, state, "epilogue, applied in order: bias,add,relu,gelu,sigmoid,tanh,swish");
}

void addNorm(CLI::App& app, ParseState& state) {
    auto& s = state.norm;
    auto* norm = state.normApp = app.add_subcommand("norm", "layer or RMS normalization");
    norm->fallthrough();
    norm->add_option("--type", state.normType, "layernorm | rmsnorm")
        ->check(CLI::IsMember({"layernorm", "rmsnorm"}))
        ->capture_default_str();
    norm->add_option("--phase", state.normPhase, "inference | training")
        ->check(CLI::IsMember({"inference", "training"}))
        ->capture_default_str();
    norm->add_option("--dims", s.dims, "dims; the first is the batch, the rest are normalized")
        ->delimiter(',')
        ->check(kPositive)
        ->capture_default_str();
    norm->add_option("--epsilon", s.epsilon, "epsilon")->check(kPositiveFinite)->capture_default_str();
    addDataTypeOption(*norm, state);
}

void addPool(CLI::App& app, ParseState& state) {
    auto& s = state.pool;
    auto* pool = state.poolApp = app.add_subcommand("pool", "max or average pooling (2-D)");
    pool->fallthrough();
    pool->add_option("--type", state.poolType, "max | avg | avg-include-pad")
        ->check(CLI::IsMember({"max", "avg", "avg-include-pad"}))
        ->capture_default_str();
    pool->add_option("-n", s.n, "batch size")->check(kPositive)->capture_default_str();
    pool->add_option("-c", s.c, "channels")->check(kPositive)->capture_default_str();
    pool->add_option("-H", s.h, "height")->check(kPositive)->capture_default_str();
    pool->add_option("-W", s.w, "width")->check(kPositive)->capture_default_str();
    pool->add_option("-y", s.windowH, "window height")->check(kPositive)->capture_default_str();
    pool->add_option("-x", s.windowW, "window width")->check(kPositive)->capture_default_str();
    pool->add_option("-p", s.padH, "padding height")->check(kNonNegative)->capture_default_str();
    pool->add_option("-q", s.padW, "padding width")->check(kNonNegative)->capture_default_str();
    pool->add_option("-u", s.strideH, "stride height")->check(kPositive)->capture_default_str();
    pool->add_option("-v", s.strideW, "stride width (use --verbose for verbosity)")
        ->check(kPositive)
        ->capture_default_str();
    addDataTypeOption(*pool, state);
    addLayoutOption(*pool, state);
}

void addOtherCommands(CLI::App& app, ParseState& state) {
    state.graphApp = app.add_subcommand("graph", "run a serialized graph (JSON or binary FlatBuffer)");
    state.graphApp->fallthrough();
    state.graphApp->add_option("file", state.graphFile, "graph file")->required();
    state.graphApp->add_option("--inputs", state.inputsDir,
                               "read input tensors from a golden-data directory (--dump output)");

    state.batchApp = app.add_subcommand("batch", "run one problem per line of FILE ('#' starts a comment)");
    state.batchApp->fallthrough();
    state.batchApp->add_option("file", state.invocation.batchFile, "batch file")->required();

    state.demoApp = app.add_subcommand("demo", "the README demo: four graphs on every engine of the device");
    state.demoApp->fallthrough();
    state.demoApp->add_option("--case", state.demoCase.name, "run one demo graph only")
        ->check(CLI::IsMember(demoCaseNames()));
    state.demoApp->add_option("--dtype", state.demoDataType, "fp32 | fp16 | bf16 (default: the device's own)")
        ->check(CLI::IsMember(keysOf(kDataTypes)));
    state.demoApp->add_option("--layout", state.demoLayout, "NCHW | NHWC (default: the device's own)")
        ->check(CLI::IsMember({"NCHW", "NHWC"}, CLI::ignore_case));

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
    addConv(app, state);
    addBn(app, state);
    addPointwise(app, state);
    addMatmul(app, state);
    addNorm(app, state);
    addPool(app, state);
    addOtherCommands(app, state);
}

Layout layoutOf(const std::string& name) {
    std::string upper = name;
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char ch) { return std::toupper(ch); });
    return upper == "NHWC" || upper == "NDHWC" ? Layout::ChannelsLast : Layout::ChannelsFirst;
}

std::vector<EpilogueOp> epilogueOf(const std::vector<std::string>& names) {
    std::vector<EpilogueOp> ops;
    for (const auto& name : names) {
        ops.push_back(kEpilogueOps.at(name));
    }
    return ops;
}

// Semantic checks CLI11's per-flag validators cannot express; messages name the flag.
void checkEpilogue(const std::vector<EpilogueOp>& ops, bool allowBias, const char* command) {
    for (EpilogueOp op : ops) {
        if (op == EpilogueOp::Bias && !allowBias) {
            throw UsageError(std::string("--fuse: 'bias' is not available for ") + command);
        }
    }
}

// Turns the parsed strings into the invocation of the subcommand that was given.
Invocation finish(ParseState& state) {
    Invocation invocation = state.invocation;
    invocation.common.run = kRunModes.at(state.run);
    const DataType dataType = kDataTypes.at(state.dataType);
    const Layout layout = layoutOf(state.layout);
    invocation.command = Command::Problem;
    if (state.convApp->parsed()) {
        ConvSpec spec = state.conv;
        spec.direction = state.convMode == "fprop"   ? ConvSpec::Direction::Fprop
                         : state.convMode == "dgrad" ? ConvSpec::Direction::Dgrad
                                                     : ConvSpec::Direction::Wgrad;
        spec.dataType = dataType;
        spec.layout = layout;
        spec.epilogue = epilogueOf(state.fuse);
        if (!spec.epilogue.empty() && spec.direction != ConvSpec::Direction::Fprop) {
            throw UsageError("--fuse: epilogues apply to --mode fprop only, not " + state.convMode);
        }
        if (spec.c % spec.groups != 0 || spec.k % spec.groups != 0) {
            throw UsageError("-g: " + std::to_string(spec.groups) + " groups do not divide -c " +
                             std::to_string(spec.c) + " and -k " + std::to_string(spec.k));
        }
        invocation.problem = spec;
    } else if (state.bnApp->parsed()) {
        BnSpec spec = state.bn;
        spec.mode = state.bnMode == "inference"  ? BnSpec::Mode::Inference
                    : state.bnMode == "training" ? BnSpec::Mode::Training
                                                 : BnSpec::Mode::Backward;
        spec.dataType = dataType;
        spec.layout = layout;
        spec.epilogue = epilogueOf(state.fuse);
        checkEpilogue(spec.epilogue, false, "bn");
        if (!spec.epilogue.empty() && spec.mode != BnSpec::Mode::Inference) {
            throw UsageError("--fuse: epilogues apply to --mode inference only, not " + state.bnMode);
        }
        invocation.problem = spec;
    } else if (state.pointwiseApp->parsed()) {
        PointwiseSpec spec = state.pointwise;
        spec.mode = pointwiseModes().at(state.pointwiseOp);
        spec.dataType = dataType;
        spec.layout = layout;
        if (!spec.secondDims.empty() && spec.secondDims.size() != spec.dims.size()) {
            throw UsageError("--b-dims: rank " + std::to_string(spec.secondDims.size()) +
                             " differs from the rank of --dims, " + std::to_string(spec.dims.size()));
        }
        invocation.problem = spec;
    } else if (state.matmulApp->parsed()) {
        MatmulSpec spec = state.matmul;
        spec.dataType = dataType;
        spec.epilogue = epilogueOf(state.fuse);
        invocation.problem = spec;
    } else if (state.normApp->parsed()) {
        NormSpec spec = state.norm;
        spec.kind = state.normType == "layernorm" ? NormSpec::Kind::Layernorm : NormSpec::Kind::Rmsnorm;
        spec.phase = state.normPhase == "training" ? hipdnn_frontend::NormFwdPhase::TRAINING
                                                   : hipdnn_frontend::NormFwdPhase::INFERENCE;
        spec.dataType = dataType;
        if (spec.dims.size() < 2) {
            throw UsageError("--dims: needs a batch dim and at least one normalized dim");
        }
        invocation.problem = spec;
    } else if (state.poolApp->parsed()) {
        PoolSpec spec = state.pool;
        spec.kind = state.poolType == "max"   ? PoolSpec::Kind::Max
                    : state.poolType == "avg" ? PoolSpec::Kind::Avg
                                              : PoolSpec::Kind::AvgIncludePadding;
        spec.dataType = dataType;
        spec.layout = layout;
        invocation.problem = spec;
    } else if (state.graphApp->parsed()) {
        GraphSpec spec;
        spec.file = state.graphFile;
        if (!state.inputsDir.empty()) {
            spec.inputsDir = std::filesystem::path(state.inputsDir);
        }
        invocation.problem = spec;
    } else if (state.batchApp->parsed()) {
        invocation.command = Command::Batch;
    } else if (state.demoApp->parsed()) {
        invocation.command = Command::Demo;
        DemoCaseSpec spec = state.demoCase;
        if (!state.demoDataType.empty()) {
            spec.dataType = kDataTypes.at(state.demoDataType);
        }
        if (!state.demoLayout.empty()) {
            spec.layout = layoutOf(state.demoLayout);
        }
        invocation.problem = spec;
    } else if (state.listApp->parsed()) {
        invocation.command = Command::List;
    } else {
        invocation.command = Command::SupportTable;
    }
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
    static const std::vector<std::string> problemCommands{"conv", "bn",   "pointwise", "matmul",
                                                          "norm", "pool", "graph"};
    if (std::find(problemCommands.begin(), problemCommands.end(), words.front()) == problemCommands.end()) {
        throw UsageError("'" + words.front() +
                         "' is not a problem subcommand (conv, bn, pointwise, matmul, norm, pool, graph)");
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
