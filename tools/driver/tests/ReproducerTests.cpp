// Reproducers: a graph that is one of the driver's problems turns back into that command line;
// any other graph into `hipdnn-driver graph FILE`.
#include <gtest/gtest.h>

#include <hipdnn_flatbuffers_sdk/CanonicalGraph.hpp>

#include "Problem.hpp"
#include "Reproducer.hpp"
#include "demo/Demo.hpp"

namespace hipdnn_driver {
namespace {

TEST(Reproducer, ConvWithEpilogueRoundTrips) {
    ConvSpec spec;
    spec.n = 4;
    spec.c = 32;
    spec.k = 16;
    spec.padH = 1;
    spec.padW = 1;
    spec.strideW = 2;
    spec.groups = 2;
    spec.layout = Layout::ChannelsLast;
    spec.dataType = DataType::HALF;
    spec.epilogue = {EpilogueOp::Bias, EpilogueOp::Add, EpilogueOp::Relu};
    const Problem problem = makeConvProblem(spec);
    EXPECT_EQ(driverCommandForGraph(problem.graph, "g.json", "ONEDNN_ENGINE", {"k=1"}),
              "hipdnn-driver conv -n 4 -c 32 -H 56 -W 56 -k 16 -y 3 -x 3 -p 1 -q 1 -v 2 -g 2 --dtype fp16 "
              "--layout NHWC "
              "--fuse bias,add,relu "
              "--engine ONEDNN_ENGINE --knob k=1");
}

TEST(Reproducer, EveryRecognizedKindRebuildsTheSameGraph) {
    ConvSpec dgrad;
    dgrad.direction = ConvSpec::Direction::Dgrad;
    dgrad.depth = 4;
    dgrad.c = 8;
    dgrad.k = 8;
    dgrad.h = 6;
    dgrad.w = 6;
    ConvSpec wgrad;
    wgrad.direction = ConvSpec::Direction::Wgrad;
    wgrad.dilationH = 2;
    MatmulSpec matmul;
    matmul.batch = 3;
    matmul.epilogue = {EpilogueOp::Bias, EpilogueOp::Gelu};
    PoolSpec pool;
    pool.kind = PoolSpec::Kind::AvgIncludePadding;
    PointwiseSpec pointwise;
    pointwise.mode = hipdnn_frontend::PointwiseMode::MUL;
    pointwise.secondDims = {1, 64, 1, 1};
    SdpaSpec attention;
    attention.direction = SdpaSpec::Direction::Backward;
    attention.heads = 4;
    attention.kvHeads = 2;
    attention.seqQ = 16;
    attention.seqKv = 24;
    attention.causal = true;
    attention.order = SdpaSpec::MemoryOrder::Bshd;
    attention.dataType = DataType::BFLOAT16;
    SdpaSpec plainAttention;
    plainAttention.seqQ = 8;
    for (const ProblemSpec& spec :
         std::vector<ProblemSpec>{dgrad, wgrad, matmul, pool, pointwise, attention, plainAttention}) {
        const Problem problem = makeProblem(spec);
        const auto recognized = recognizeGraph(problem.graph);
        ASSERT_TRUE(recognized) << problem.label;
        EXPECT_EQ(commandWordsFor(*recognized), problem.commandWords) << problem.label;
    }
}

TEST(Reproducer, OtherGraphsBecomeGraphFile) {
    const Problem bottleneck =
        makeDemoCaseProblem(DemoCaseSpec{"resnet50-bottleneck", std::nullopt, std::nullopt});
    EXPECT_FALSE(recognizeGraph(bottleneck.graph));
    EXPECT_EQ(driverCommandForGraph(bottleneck.graph, "/tmp/graph_0123.json", "CPU_REFERENCE_ENGINE"),
              "hipdnn-driver graph /tmp/graph_0123.json --engine CPU_REFERENCE_ENGINE");
    BnSpec bn;
    EXPECT_EQ(driverCommandForGraph(makeBnProblem(bn).graph, "bn.json"), "hipdnn-driver graph bn.json");
    EXPECT_EQ(driverCommandForGraph({1, 2, 3}, "junk.bin"), "hipdnn-driver graph junk.bin");
}

TEST(Reproducer, CanonicalFormIgnoresNamesAndUidNumbering) {
    MatmulSpec spec;
    const Problem first = makeMatmulProblem(spec);
    spec.m = 7;
    const Problem other = makeMatmulProblem(spec);
    EXPECT_EQ(hipdnn_flatbuffers_sdk::canonicalGraph(first.graph),
              hipdnn_flatbuffers_sdk::canonicalGraph(makeMatmulProblem(MatmulSpec{}).graph));
    EXPECT_NE(hipdnn_flatbuffers_sdk::canonicalGraph(first.graph),
              hipdnn_flatbuffers_sdk::canonicalGraph(other.graph));
}

}  // namespace
}  // namespace hipdnn_driver
