// Command-line parsing: flags land in the right fields; bad flags give usage and status 2.
#include <sstream>

#include <gtest/gtest.h>

#include "Options.hpp"

namespace hipdnn_driver {
namespace {

struct Parsed {
    ParseOutcome outcome;
    std::string out;
    std::string err;
};

Parsed parse(const std::vector<std::string>& args) {
    std::ostringstream out;
    std::ostringstream err;
    Parsed parsed{parseCommandLine(args, out, err), "", ""};
    parsed.out = out.str();
    parsed.err = err.str();
    return parsed;
}

TEST(Options, ConvTakesMIOpenDriverFlags) {
    const auto parsed =
        parse({"conv",  "-n",      "4",    "-c",       "64",   "-H",       "56", "-W", "57", "-k",
               "32",    "-y",      "3",    "-x",       "5",    "-p",       "1",  "-q", "2",  "-u",
               "2",     "-v",      "3",    "-l",       "2",    "-j",       "1",  "-g", "2",  "--mode",
               "dgrad", "--dtype", "bf16", "--layout", "NHWC", "--engine", "all"});
    ASSERT_TRUE(parsed.outcome.invocation) << parsed.err;
    const auto& invocation = *parsed.outcome.invocation;
    EXPECT_EQ(invocation.command, Command::Problem);
    EXPECT_EQ(invocation.common.engine, "all");
    const auto& conv = std::get<ConvSpec>(invocation.problem);
    EXPECT_EQ(conv.n, 4);
    EXPECT_EQ(conv.c, 64);
    EXPECT_EQ(conv.h, 56);
    EXPECT_EQ(conv.w, 57);
    EXPECT_EQ(conv.k, 32);
    EXPECT_EQ(conv.filterH, 3);
    EXPECT_EQ(conv.filterW, 5);
    EXPECT_EQ(conv.padH, 1);
    EXPECT_EQ(conv.padW, 2);
    EXPECT_EQ(conv.strideH, 2);
    EXPECT_EQ(conv.strideW, 3);
    EXPECT_EQ(conv.dilationH, 2);
    EXPECT_EQ(conv.dilationW, 1);
    EXPECT_EQ(conv.groups, 2);
    EXPECT_EQ(conv.direction, ConvSpec::Direction::Dgrad);
    EXPECT_EQ(conv.dataType, DataType::BFLOAT16);
    EXPECT_EQ(conv.layout, Layout::ChannelsLast);
}

TEST(Options, VerboseIsStrideInConvButVerbosityElsewhere) {
    const auto conv = parse({"conv", "-v", "2", "--verbose"});
    ASSERT_TRUE(conv.outcome.invocation) << conv.err;
    EXPECT_EQ(std::get<ConvSpec>(conv.outcome.invocation->problem).strideW, 2);
    EXPECT_TRUE(conv.outcome.invocation->common.verbose);

    const auto matmul = parse({"matmul", "-v"});
    ASSERT_TRUE(matmul.outcome.invocation) << matmul.err;
    EXPECT_TRUE(matmul.outcome.invocation->common.verbose);
}

TEST(Options, CommonOptions) {
    const auto parsed = parse(
        {"matmul",   "-m",     "8",      "--run",  "performance", "--warmup", "0",        "--iters", "7",
         "--device", "cpu",    "--seed", "9",      "--csv",       "a.csv",    "--json",   "a.json",  "--dump",
         "d",        "--knob", "a=1",    "--knob", "b=x",         "--fuse",   "bias,gelu"});
    ASSERT_TRUE(parsed.outcome.invocation) << parsed.err;
    const auto& common = parsed.outcome.invocation->common;
    EXPECT_EQ(common.run, RunMode::Performance);
    EXPECT_EQ(common.warmup, 0);
    EXPECT_EQ(common.iterations, 7);
    EXPECT_EQ(common.device, "cpu");
    EXPECT_EQ(common.seed, 9U);
    EXPECT_EQ(common.csvPath, "a.csv");
    EXPECT_EQ(common.jsonPath, "a.json");
    EXPECT_EQ(common.dumpDir, "d");
    EXPECT_EQ(common.knobs, (std::vector<std::string>{"a=1", "b=x"}));
    const auto& matmul = std::get<MatmulSpec>(parsed.outcome.invocation->problem);
    EXPECT_EQ(matmul.m, 8);
    EXPECT_EQ(matmul.epilogue, (std::vector<EpilogueOp>{EpilogueOp::Bias, EpilogueOp::Gelu}));
}

TEST(Options, OtherSubcommands) {
    const auto graph = parse({"graph", "g.json", "--inputs", "dir"});
    ASSERT_TRUE(graph.outcome.invocation) << graph.err;
    const auto& spec = std::get<GraphSpec>(graph.outcome.invocation->problem);
    EXPECT_EQ(spec.file, "g.json");
    EXPECT_EQ(spec.inputsDir, std::filesystem::path("dir"));

    const auto batch = parse({"batch", "file.txt"});
    ASSERT_TRUE(batch.outcome.invocation);
    EXPECT_EQ(batch.outcome.invocation->command, Command::Batch);
    EXPECT_EQ(batch.outcome.invocation->batchFile, "file.txt");

    EXPECT_EQ(parse({"demo"}).outcome.invocation->command, Command::Demo);
    EXPECT_EQ(parse({"list"}).outcome.invocation->command, Command::List);
    EXPECT_EQ(parse({"support-table"}).outcome.invocation->command, Command::SupportTable);

    const auto norm = parse({"norm", "--type", "rmsnorm", "--phase", "training", "--dims", "2,3,4"});
    ASSERT_TRUE(norm.outcome.invocation) << norm.err;
    const auto& normSpec = std::get<NormSpec>(norm.outcome.invocation->problem);
    EXPECT_EQ(normSpec.kind, NormSpec::Kind::Rmsnorm);
    EXPECT_EQ(normSpec.dims, (std::vector<int64_t>{2, 3, 4}));

    const auto sdpa = parse({"sdpa", "--heads", "16", "--kv-heads", "2", "--causal", "--seq-q", "128"});
    ASSERT_TRUE(sdpa.outcome.invocation) << sdpa.err;
    const auto& sdpaSpec = std::get<SdpaSpec>(sdpa.outcome.invocation->problem);
    EXPECT_TRUE(sdpaSpec.causal);
    EXPECT_EQ(sdpaSpec.effectiveKvHeads(), 2);
    EXPECT_EQ(sdpaSpec.effectiveSeqKv(), 128);
    EXPECT_EQ(
        std::get<SdpaSpec>(parse({"sdpa", "--heads", "6"}).outcome.invocation->problem).effectiveKvHeads(),
        6);

    const auto pointwise = parse({"pointwise", "--op", "gelu", "--dims", "2,8", "--b-dims", "1,8"});
    ASSERT_TRUE(pointwise.outcome.invocation) << pointwise.err;
    EXPECT_EQ(std::get<PointwiseSpec>(pointwise.outcome.invocation->problem).mode,
              hipdnn_frontend::PointwiseMode::GELU_FWD);
}

void expectUsageError(const std::vector<std::string>& args, const std::string& named) {
    const auto parsed = parse(args);
    EXPECT_FALSE(parsed.outcome.invocation);
    EXPECT_EQ(parsed.outcome.exitCode, 2);
    EXPECT_NE(parsed.err.find(named), std::string::npos) << parsed.err;
    EXPECT_NE(parsed.err.find("Usage"), std::string::npos) << parsed.err;
}

TEST(Options, BadFlagsGiveUsageAndStatusTwo) {
    expectUsageError({"conv", "--bogus"}, "--bogus");
    expectUsageError({"conv", "-c", "abc"}, "-c");
    expectUsageError({"conv", "-c", "0"}, "-c");
    expectUsageError({"conv", "--dtype", "fp64"}, "--dtype");
    expectUsageError({"conv", "--mode", "sideways"}, "--mode");
    expectUsageError({"conv", "--mode", "dgrad", "--fuse", "relu"}, "--fuse");
    expectUsageError({"sdpa", "--heads", "8", "--kv-heads", "3"}, "--kv-heads");
    expectUsageError({"sdpa", "--dir", "sideways"}, "--dir");
    expectUsageError({"sdpa", "--layout", "bsdh"}, "--layout");
    expectUsageError({"sdpa", "--head-dim", "0"}, "--head-dim");
    expectUsageError({"conv", "-c", "6", "-g", "4"}, "-g");
    expectUsageError({"bn", "--fuse", "bias"}, "--fuse");
    expectUsageError({"bn", "--mode", "backward", "--fuse", "relu"}, "--fuse");
    expectUsageError({"matmul", "--run", "fast"}, "--run");
    expectUsageError({"matmul", "--device", "tpu"}, "--device");
    expectUsageError({"matmul", "--knob", "novalue"}, "--knob");
    expectUsageError({"pointwise", "--dims", "2,3", "--b-dims", "1,1,1"}, "--b-dims");
    expectUsageError({"graph"}, "file");
    expectUsageError({}, "subcommand");
}

TEST(Options, RealParametersMustBeFinite) {
    // NaN slips through comparisons (NaN <= 0 is false): a NaN epsilon gave NaN outputs that
    // compared equal to NaN references.
    for (const std::string value :
         {"nan", "NaN", "-nan", "inf", "-inf", "infinity", "1e999", "0", "-1", "abc"}) {
        SCOPED_TRACE(value);
        expectUsageError({"bn", "--epsilon", value},
                         "--epsilon: '" + value + "' is not a positive finite number");
        expectUsageError({"norm", "--epsilon", value},
                         "--epsilon: '" + value + "' is not a positive finite number");
    }
    for (const std::string value : {"nan", "inf", "-0.5", "1.5"}) {
        SCOPED_TRACE(value);
        expectUsageError({"bn", "--mode", "training", "--momentum", value},
                         "--momentum: '" + value + "' is not a number in [0, 1]");
    }
    const auto parsed = parse({"bn", "--epsilon", "1e-3", "--momentum", "1"});
    ASSERT_TRUE(parsed.outcome.invocation) << parsed.err;
    EXPECT_DOUBLE_EQ(std::get<BnSpec>(parsed.outcome.invocation->problem).epsilon, 1e-3);
    EXPECT_DOUBLE_EQ(std::get<BnSpec>(parsed.outcome.invocation->problem).momentum, 1.0);
}

TEST(Options, HelpExitsZero) {
    const auto parsed = parse({"conv", "--help"});
    EXPECT_FALSE(parsed.outcome.invocation);
    EXPECT_EQ(parsed.outcome.exitCode, 0);
    EXPECT_NE(parsed.out.find("-H"), std::string::npos);
}

}  // namespace
}  // namespace hipdnn_driver
