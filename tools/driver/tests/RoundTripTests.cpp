// Each subcommand's flag table both parses and prints its command line: for a few non-default
// specs of every subcommand, the printed words are what the driver has always printed (byte for
// byte), and parsing them gives back an equal spec.
#include <sstream>
#include <type_traits>

#include <gtest/gtest.h>

#include "Options.hpp"
#include "Problem.hpp"

namespace hipdnn_driver {
namespace {

std::string joined(const std::vector<std::string>& words) {
    std::string text;
    for (const auto& word : words) {
        text += (text.empty() ? "" : " ") + word;
    }
    return text;
}

// The printed words parse back into `spec`: as a batch line, and as a command line with global
// options after them (the reproducer's form).
template <typename Spec>
void expectRoundTrip(const Spec& spec, const std::string& printed) {
    const auto words = commandWordsFor(spec);
    EXPECT_EQ(joined(words), printed);

    if constexpr (!std::is_same_v<Spec, DemoCaseSpec>) {
        const Invocation line = parseProblemWords(words, CommonOptions{});
        EXPECT_EQ(line.command, Command::Problem) << printed;
        ASSERT_TRUE(std::holds_alternative<Spec>(line.problem)) << printed;
        EXPECT_TRUE(std::get<Spec>(line.problem) == spec) << printed;
    }

    auto args = words;
    args.insert(args.end(), {"--engine", "CPU_REFERENCE_ENGINE", "--knob", "k=1"});
    std::ostringstream out;
    std::ostringstream err;
    const ParseOutcome outcome = parseCommandLine(args, out, err);
    ASSERT_TRUE(outcome.invocation) << printed << "\n" << err.str();
    const Command command = std::is_same_v<Spec, DemoCaseSpec> ? Command::Demo : Command::Problem;
    EXPECT_EQ(outcome.invocation->command, command) << printed;
    EXPECT_EQ(outcome.invocation->common.engine, "CPU_REFERENCE_ENGINE");
    ASSERT_TRUE(std::holds_alternative<Spec>(outcome.invocation->problem)) << printed;
    EXPECT_TRUE(std::get<Spec>(outcome.invocation->problem) == spec) << printed;
}

TEST(RoundTrip, Conv) {
    expectRoundTrip(ConvSpec{}, "conv -n 1 -c 64 -H 56 -W 56 -k 64 -y 3 -x 3");

    ConvSpec fprop;
    fprop.n = 4;
    fprop.c = 32;
    fprop.h = 28;
    fprop.w = 30;
    fprop.k = 16;
    fprop.filterH = 5;
    fprop.filterW = 1;
    fprop.padH = 2;
    fprop.padW = 1;
    fprop.strideH = 2;
    fprop.strideW = 3;
    fprop.dilationH = 2;
    fprop.dilationW = 3;
    fprop.groups = 4;
    fprop.dataType = DataType::BFLOAT16;
    fprop.layout = Layout::ChannelsLast;
    fprop.epilogue = {EpilogueOp::Bias, EpilogueOp::Relu, EpilogueOp::Add};
    expectRoundTrip(
        fprop,
        "conv -n 4 -c 32 -H 28 -W 30 -k 16 -y 5 -x 1 -p 2 -q 1 -u 2 -v 3 -l 2 -j 3 -g 4 --dtype bf16 "
        "--layout NHWC --fuse bias,relu,add");

    ConvSpec dgrad;
    dgrad.direction = ConvSpec::Direction::Dgrad;
    dgrad.depth = 4;
    dgrad.filterD = 3;
    dgrad.padD = 1;
    dgrad.strideD = 2;
    dgrad.dilationD = 2;
    dgrad.c = 8;
    dgrad.k = 8;
    dgrad.h = 6;
    dgrad.w = 6;
    dgrad.dataType = DataType::HALF;
    expectRoundTrip(dgrad,
                    "conv --mode dgrad -n 1 -c 8 -D 4 -H 6 -W 6 -k 8 -z 3 -y 3 -x 3 --pad-d 1 --stride-d 2 "
                    "--dilation-d 2 --dtype fp16");

    ConvSpec wgrad;
    wgrad.direction = ConvSpec::Direction::Wgrad;
    wgrad.depth = 5;
    wgrad.n = 2;
    wgrad.filterH = 1;
    wgrad.layout = Layout::ChannelsLast;
    expectRoundTrip(wgrad,
                    "conv --mode wgrad -n 2 -c 64 -D 5 -H 56 -W 56 -k 64 -z 1 -y 1 -x 3 --layout NHWC");
}

TEST(RoundTrip, Bn) {
    expectRoundTrip(BnSpec{}, "bn -n 8 -c 64 -H 56 -W 56");

    BnSpec inference;
    inference.depth = 3;
    inference.epsilon = 1e-3;
    inference.dataType = DataType::BFLOAT16;
    inference.layout = Layout::ChannelsLast;
    inference.epilogue = {EpilogueOp::Add, EpilogueOp::Relu};
    expectRoundTrip(
        inference,
        "bn -n 8 -c 64 -D 3 -H 56 -W 56 --epsilon 0.001 --dtype bf16 --layout NHWC --fuse add,relu");

    BnSpec training;
    training.mode = BnSpec::Mode::Training;
    training.n = 2;
    training.c = 3;
    training.h = 4;
    training.w = 5;
    training.epsilon = 2e-5;
    training.momentum = 0.25;
    expectRoundTrip(training, "bn --mode training -n 2 -c 3 -H 4 -W 5 --epsilon 2e-05 --momentum 0.25");

    BnSpec backward;
    backward.mode = BnSpec::Mode::Backward;
    backward.dataType = DataType::HALF;
    backward.layout = Layout::ChannelsLast;
    expectRoundTrip(backward, "bn --mode backward -n 8 -c 64 -H 56 -W 56 --dtype fp16 --layout NHWC");
}

TEST(RoundTrip, Pointwise) {
    using hipdnn_frontend::PointwiseMode;
    expectRoundTrip(PointwiseSpec{}, "pointwise --dims 8,64,56,56");

    PointwiseSpec mul;
    mul.mode = PointwiseMode::MUL;
    mul.secondDims = {1, 64, 1, 1};
    mul.dataType = DataType::HALF;
    mul.layout = Layout::ChannelsLast;
    expectRoundTrip(mul, "pointwise --op mul --dims 8,64,56,56 --b-dims 1,64,1,1 --dtype fp16 --layout NHWC");

    PointwiseSpec tanh;
    tanh.mode = PointwiseMode::TANH_FWD;
    tanh.dims = {2, 3, 4, 5, 6};
    tanh.dataType = DataType::BFLOAT16;
    tanh.layout = Layout::ChannelsLast;
    expectRoundTrip(tanh, "pointwise --op tanh_fwd --dims 2,3,4,5,6 --dtype bf16 --layout NHWC");

    PointwiseSpec max;
    max.mode = PointwiseMode::MAX;
    max.dims = {7};
    max.secondDims = {1};
    expectRoundTrip(max, "pointwise --op max_op --dims 7 --b-dims 1");

    PointwiseSpec select;
    select.mode = PointwiseMode::BINARY_SELECT;
    select.dims = {2, 3};
    select.secondDims = {2, 1};
    expectRoundTrip(select, "pointwise --op binary_select --dims 2,3 --b-dims 2,1");
}

TEST(RoundTrip, Matmul) {
    expectRoundTrip(MatmulSpec{}, "matmul -m 512 -n 512 -k 512");

    MatmulSpec biasGelu;
    biasGelu.batch = 3;
    biasGelu.m = 7;
    biasGelu.n = 9;
    biasGelu.k = 11;
    biasGelu.dataType = DataType::BFLOAT16;
    biasGelu.epilogue = {EpilogueOp::Bias, EpilogueOp::Gelu};
    expectRoundTrip(biasGelu, "matmul -b 3 -m 7 -n 9 -k 11 --dtype bf16 --fuse bias,gelu");

    MatmulSpec chain;
    chain.m = 1;
    chain.n = 2;
    chain.k = 3;
    chain.dataType = DataType::HALF;
    chain.epilogue = {EpilogueOp::Swish, EpilogueOp::Tanh, EpilogueOp::Add, EpilogueOp::Sigmoid};
    expectRoundTrip(chain, "matmul -m 1 -n 2 -k 3 --dtype fp16 --fuse swish,tanh,add,sigmoid");
}

TEST(RoundTrip, Norm) {
    expectRoundTrip(NormSpec{}, "norm --dims 32,1024");

    NormSpec rms;
    rms.kind = NormSpec::Kind::Rmsnorm;
    rms.phase = hipdnn_frontend::NormFwdPhase::TRAINING;
    rms.dims = {2, 3, 4};
    rms.epsilon = 1e-3;
    rms.dataType = DataType::BFLOAT16;
    expectRoundTrip(rms, "norm --type rmsnorm --phase training --dims 2,3,4 --epsilon 0.001 --dtype bf16");

    NormSpec layer;
    layer.phase = hipdnn_frontend::NormFwdPhase::TRAINING;
    layer.dims = {16, 8};
    layer.epsilon = 0.5;
    layer.dataType = DataType::HALF;
    expectRoundTrip(layer, "norm --phase training --dims 16,8 --epsilon 0.5 --dtype fp16");

    NormSpec layerBackward;
    layerBackward.direction = NormSpec::Direction::Backward;
    layerBackward.dims = {8, 3, 4, 4};
    layerBackward.dataType = DataType::BFLOAT16;
    expectRoundTrip(layerBackward, "norm --dir bwd --dims 8,3,4,4 --dtype bf16");
}

TEST(RoundTrip, Sdpa) {
    expectRoundTrip(SdpaSpec{}, "sdpa -b 1 --heads 8 --seq-q 512 --head-dim 64");

    SdpaSpec gqa;
    gqa.direction = SdpaSpec::Direction::Backward;
    gqa.batch = 2;
    gqa.heads = 32;
    gqa.kvHeads = 4;
    gqa.seqQ = 1024;
    gqa.seqKv = 4096;
    gqa.headDim = 128;
    gqa.causal = true;
    gqa.order = SdpaSpec::MemoryOrder::Bshd;
    gqa.dataType = DataType::BFLOAT16;
    expectRoundTrip(gqa,
                    "sdpa --dir bwd -b 2 --heads 32 --kv-heads 4 --seq-q 1024 --seq-kv 4096 --head-dim 128 "
                    "--causal --layout bshd --dtype bf16");
}

TEST(RoundTrip, Pool) {
    expectRoundTrip(PoolSpec{}, "pool -n 8 -c 64 -H 56 -W 56");

    PoolSpec avg;
    avg.kind = PoolSpec::Kind::AvgIncludePadding;
    avg.n = 2;
    avg.c = 3;
    avg.h = 10;
    avg.w = 12;
    avg.windowH = 2;
    avg.windowW = 4;
    avg.padH = 0;
    avg.padW = 2;
    avg.strideH = 1;
    avg.strideW = 3;
    avg.dataType = DataType::HALF;
    avg.layout = Layout::ChannelsLast;
    expectRoundTrip(
        avg,
        "pool --type avg-include-pad -n 2 -c 3 -H 10 -W 12 -y 2 -x 4 -p 0 -q 2 -u 1 -v 3 --dtype fp16 "
        "--layout NHWC");

    PoolSpec max;
    max.windowH = 5;
    max.dataType = DataType::BFLOAT16;
    expectRoundTrip(max, "pool -n 8 -c 64 -H 56 -W 56 -y 5 --dtype bf16");
}

TEST(RoundTrip, Graph) {
    expectRoundTrip(GraphSpec{"g.json", std::nullopt}, "graph g.json");
    expectRoundTrip(GraphSpec{"dir/g.bin", std::filesystem::path("golden/000_conv/ONEDNN_ENGINE")},
                    "graph dir/g.bin --inputs golden/000_conv/ONEDNN_ENGINE");
}

TEST(RoundTrip, Demo) {
    expectRoundTrip(DemoCaseSpec{}, "demo");
    expectRoundTrip(DemoCaseSpec{"bn-training", DataType::HALF, Layout::ChannelsLast},
                    "demo --case bn-training --dtype fp16 --layout NHWC");
    expectRoundTrip(DemoCaseSpec{"", DataType::BFLOAT16, std::nullopt}, "demo --dtype bf16");
    expectRoundTrip(DemoCaseSpec{"", std::nullopt, Layout::ChannelsFirst}, "demo --layout NCHW");
}

// The printed words of every problem a spec builds are its subcommand's.
TEST(RoundTrip, ProblemsCarryTheirCommandWords) {
    ConvSpec conv;
    conv.padH = 1;
    conv.epilogue = {EpilogueOp::Gelu};
    EXPECT_EQ(makeProblem(conv).commandWords, commandWordsFor(conv));
    const Problem stage =
        makeDemoCaseProblem({"resnet50-bottleneck-conv2", DataType::HALF, Layout::ChannelsLast});
    EXPECT_EQ(joined(stage.commandWords), "demo --case resnet50-bottleneck-conv2 --dtype fp16 --layout NHWC");
}

// A window larger than the padded input is refused with the driver's message.
TEST(RoundTrip, WindowThatDoesNotFit) {
    ConvSpec conv;
    conv.h = 2;
    conv.filterH = 3;
    conv.dilationH = 2;
    try {
        makeProblem(conv);
        ADD_FAILURE() << "no error";
    } catch (const ProblemError& error) {
        EXPECT_STREQ(error.what(), "the window (5 with dilation) is larger than the padded input (2)");
    }
    PoolSpec pool;
    pool.w = 1;
    pool.windowW = 4;
    pool.padW = 1;
    try {
        makeProblem(pool);
        ADD_FAILURE() << "no error";
    } catch (const ProblemError& error) {
        EXPECT_STREQ(error.what(), "the window (4 with dilation) is larger than the padded input (3)");
    }
}

}  // namespace
}  // namespace hipdnn_driver
