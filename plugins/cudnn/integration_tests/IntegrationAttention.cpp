// Attention forward and backward on CUDNN_ENGINE (cuDNN's fused flash attention) against the CPU
// reference: bf16 and fp16, BHSD and BSHD, grouped- and multi-query heads, causal top-left and
// bottom-right, an additive bias, a scale, the statistics, padding masks (full, partial and empty
// query sequences, rows without keys); random shapes; what it declines and why; plans rebuilt from
// their serialized bytes, replayed, or chosen by timing.
#include "CudnnHarness.hpp"

#include <hipdnn_test_sdk/AttentionGraphs.hpp>
#include <hipdnn_test_sdk/ElementAccess.hpp>
#include <hipdnn_test_sdk/Seed.hpp>
#include <hipdnn_test_sdk/SkipIfNoDevice.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace cudnn_integration {
namespace {

using hipdnn_test_sdk::attentionBackwardGraph;
using hipdnn_test_sdk::AttentionCase;
using hipdnn_test_sdk::attentionGraph;
using hipdnn_test_sdk::ToleranceOp;

AttentionCase llmCase(fb::DataType type) {
    AttentionCase c;
    c.type = type;
    c.batch = 2;
    c.heads = 4;
    c.kvHeads = 4;
    c.seqQ = 200;
    c.seqKv = 320;
    c.dim = 64;
    c.valueDim = 64;
    c.scale = 0.125F;
    return c;
}

// Without a padding mask, cuDNN declines a bottom-right mask with more queries than keys (rows
// without keys).
bool cudnnDeclines(const AttentionCase& c) {
    return c.causal && c.bottomRight && !c.padding && c.seqQ > c.seqKv;
}

// seq_len_q and seq_len_kv of batch b of a padded case, by b % 4: every query and key; about two
// thirds of the queries and half the keys; no query (an empty sequence); all queries but one and
// at most half as many keys (bottom-right: the first rows see no key). Every batch with queries
// keeps a key: cuDNN before 9.25 computes NaN for the query rows of a batch without keys.
std::pair<int64_t, int64_t> paddedLengths(const AttentionCase& c, int64_t b) {
    switch (b % 4) {
        case 0:
            return {c.seqQ, c.seqKv};
        case 1:
            return {(2 * c.seqQ + 2) / 3, (c.seqKv + 1) / 2};
        case 2:
            return {0, (c.seqKv + 2) / 3};
        default:
            return {c.seqQ - 1, std::clamp<int64_t>(c.seqQ / 2, 1, c.seqKv)};
    }
}

// The case's lengths in seq_len_q (uid 11) and seq_len_kv (uid 12), when it has a padding mask.
void fillLengths(const AttentionCase& c, std::map<int64_t, HostTensor>& tensors) {
    if (!c.padding) {
        return;
    }
    for (int64_t b = 0; b < c.batch; ++b) {
        const auto [queries, keys] = paddedLengths(c, b);
        hipdnn_test_sdk::writeElement(fb::DataType::INT32, tensors.at(11).bytes.data(), b,
                                      static_cast<double>(queries));
        hipdnn_test_sdk::writeElement(fb::DataType::INT32, tensors.at(12).bytes.data(), b,
                                      static_cast<double>(keys));
    }
}

// Forward inputs: random, with the case's lengths.
std::map<int64_t, HostTensor> forwardInputs(const AttentionCase& c) {
    const std::vector<uint8_t> bytes = attentionGraph(c).build();
    const hipdnn_flatbuffers_sdk::GraphWrapper graph(bytes.data(), bytes.size());
    std::map<int64_t, HostTensor> tensors = makeHostTensors(graph);
    fillLengths(c, tensors);
    return tensors;
}

// Backward inputs as training has them: O and the statistics from the reference forward pass on
// the same Q, K, V and bias (random ones make softmax rows that do not sum to 1, whose gradients
// cancel far beyond the io type's precision), dO random.
std::map<int64_t, HostTensor> backwardInputs(const AttentionCase& c) {
    AttentionCase forward = c;
    forward.stats = true;
    std::map<int64_t, HostTensor> computed = forwardInputs(forward);
    runReference(attentionGraph(forward).build(), computed);

    const std::vector<uint8_t> bytes = attentionBackwardGraph(c).build();
    const hipdnn_flatbuffers_sdk::GraphWrapper graph(bytes.data(), bytes.size());
    std::map<int64_t, HostTensor> tensors = makeHostTensors(graph);
    fillLengths(c, tensors);
    // Forward uids q 1, k 2, v 3, o 4, stats 5, bias 6; backward q 1, k 2, v 3, o 4, stats 6, bias 10
    // (the lengths are 11 and 12 in both).
    for (const auto& [backwardUid, forwardUid] : {std::pair{1, 1}, std::pair{2, 2}, std::pair{3, 3},
                                                  std::pair{4, 4}, std::pair{6, 5}, std::pair{10, 6}}) {
        if (tensors.contains(backwardUid)) {
            tensors.at(backwardUid) = computed.at(forwardUid);
        }
    }
    return tensors;
}

enum class Pass { Forward, Backward };

void expectMatches(const AttentionCase& c, Pass pass) {
    const bool backward = pass == Pass::Backward;
    SCOPED_TRACE(c.describe() + (backward ? " backward" : ""));
    const GraphBuilder graph = backward ? attentionBackwardGraph(c) : attentionGraph(c);
    if (cudnnDeclines(c)) {
        const auto [ranked, declined] = Backend::instance().gpuHeuristics(graph.build());
        EXPECT_TRUE(ranked.empty());
        EXPECT_NE(declined.find("rows without keys"), std::string::npos) << declined;
        return;
    }
    RunOptions options;
    if (backward) {
        options.tolerance = hipdnn_test_sdk::attentionBackwardTolerance(c);
        expectMatchesReferenceOn(graph, backwardInputs(c), ToleranceOp::SdpaBackward, options);
    } else {
        options.tolerance = hipdnn_test_sdk::attentionForwardTolerance(c);
        expectMatchesReferenceOn(graph, forwardInputs(c), ToleranceOp::Sdpa, options);
    }
}

void expectForwardMatches(const AttentionCase& c) {
    expectMatches(c, Pass::Forward);
}
void expectBackwardMatches(const AttentionCase& c) {
    expectMatches(c, Pass::Backward);
}

// One shape without a mask, causal top-left, causal bottom-right, and with a bias.
void expectMaskVariantsMatch(AttentionCase c, Pass pass) {
    expectMatches(c, pass);
    c.causal = true;
    expectMatches(c, pass);
    c.bottomRight = true;
    expectMatches(c, pass);
    c.causal = false;
    c.bias = true;
    expectMatches(c, pass);
}

// A batch of four with paddedLengths' lengths, heads grouped 4:2.
AttentionCase paddedCase(fb::DataType type) {
    AttentionCase c = llmCase(type);
    c.batch = 4;
    c.kvHeads = 2;
    c.padding = true;
    return c;
}

// A padded case without a mask, with a causal mask (and a bias), bottom-right (with more queries
// than keys too), and multi-query in BSHD.
void expectPaddingVariantsMatch(AttentionCase c, Pass pass) {
    expectMatches(c, pass);
    c.causal = true;
    expectMatches(c, pass);
    c.bias = true;
    expectMatches(c, pass);
    c.bias = false;
    c.bottomRight = true;
    expectMatches(c, pass);
    const int64_t keys = c.seqKv;
    c.seqKv = c.seqQ * 3 / 4;
    expectMatches(c, pass);
    c.seqKv = keys;
    c.bottomRight = false;
    c.kvHeads = 1;
    c.bshd = true;
    expectMatches(c, pass);
}

// The case run through the plugin's own C API with `run` against the reference. Its outputs start
// as NaN on the device, and again before the last, replayed execute when `replayed`: what the plan
// leaves unwritten cannot pass.
void expectPluginRunMatches(const AttentionCase& c, Pass pass, PluginRun run, bool replayed) {
    const bool backward = pass == Pass::Backward;
    SCOPED_TRACE(c.describe() + (backward ? " backward" : ""));
    const std::vector<uint8_t> bytes = (backward ? attentionBackwardGraph(c) : attentionGraph(c)).build();
    const hipdnn_flatbuffers_sdk::GraphWrapper graph(bytes.data(), bytes.size());
    std::map<int64_t, HostTensor> reference = backward ? backwardInputs(c) : forwardInputs(c);
    std::map<int64_t, HostTensor> poisoned = reference;
    for (const int64_t uid : graph.outputUids()) {
        std::fill(poisoned.at(uid).bytes.begin(), poisoned.at(uid).bytes.end(), std::byte{0xFF});
    }
    std::map<int64_t, HostTensor> actual = poisoned;
    ASSERT_NO_FATAL_FAILURE(runReference(bytes, reference));
    if (replayed) {
        run.replayInputs = &poisoned;
    }
    ASSERT_NO_FATAL_FAILURE(runThroughPlugin(bytes, actual, run));
    expectOutputsClose(graph, reference, actual, backward ? ToleranceOp::SdpaBackward : ToleranceOp::Sdpa, 0,
                       backward ? hipdnn_test_sdk::attentionBackwardTolerance(c)
                                : hipdnn_test_sdk::attentionForwardTolerance(c));
}

TEST(SmokeAttention, ForwardVariants) {
    SKIP_IF_NO_DEVICE();
    for (const fb::DataType type : {fb::DataType::BFLOAT16, fb::DataType::HALF}) {
        AttentionCase c = llmCase(type);
        expectForwardMatches(c);  // the unified operation without statistics
        c.stats = true;
        expectMaskVariantsMatch(c, Pass::Forward);
    }
}

TEST(SmokeAttention, GroupedQueryHeadsInBshd) {
    SKIP_IF_NO_DEVICE();
    AttentionCase c = llmCase(fb::DataType::BFLOAT16);
    c.heads = 8;
    c.kvHeads = 2;
    c.bshd = true;
    c.stats = true;
    expectForwardMatches(c);
    c.kvHeads = 1;  // multi-query
    c.causal = true;
    expectForwardMatches(c);
}

// Multi-query heads in BSHD, fp16, bottom-right alignment, with and without statistics, at every
// head-dim size class.
TEST(SmokeAttention, BottomRightAcrossHeadDims) {
    SKIP_IF_NO_DEVICE();
    for (const int64_t dim : {8, 16, 32, 64, 128}) {
        AttentionCase c = llmCase(fb::DataType::HALF);
        c.batch = 2;
        c.heads = 2;
        c.kvHeads = 1;
        c.seqQ = 64;
        c.seqKv = 520;
        c.dim = dim;
        c.valueDim = dim;
        c.bshd = true;
        c.causal = true;
        c.bottomRight = true;
        expectForwardMatches(c);
        c.stats = true;
        expectForwardMatches(c);
    }
}

TEST(SmokeAttention, RandomShapes) {
    SKIP_IF_NO_DEVICE();
    std::mt19937 random(hipdnn_test_sdk::globalTestSeed());
    hipdnn_test_sdk::AttentionCaseSpace space;
    space.dims = {8, 16, 64, 128};
    for (int trial = 0; trial < 24; ++trial) {
        AttentionCase c = hipdnn_test_sdk::randomAttentionCase(random, space);
        c.type = trial % 2 == 0 ? fb::DataType::BFLOAT16 : fb::DataType::HALF;
        expectForwardMatches(c);
    }
}

TEST(SmokeAttention, PaddingMasks) {
    SKIP_IF_NO_DEVICE();
    for (const fb::DataType type : {fb::DataType::BFLOAT16, fb::DataType::HALF}) {
        expectPaddingVariantsMatch(paddedCase(type), Pass::Forward);
    }
}

// cuDNN writes -inf as the statistics of rows past seq_len_q, where the graph defines +inf.
TEST(SmokeAttention, PaddingWithAStatsOutputIsDeclinedWithTheReason) {
    SKIP_IF_NO_DEVICE();
    AttentionCase c = paddedCase(fb::DataType::BFLOAT16);
    c.stats = true;
    const auto [ranked, declined] = Backend::instance().gpuHeuristics(attentionGraph(c).build());
    EXPECT_TRUE(ranked.empty());
    EXPECT_NE(declined.find("a padding mask with a stats output is not mapped"), std::string::npos)
        << declined;
}

// O's rows past seq_len_q are zeroed before cuDNN runs: by a plan rebuilt from its bytes, and
// before the replayed CUDA graph of repeated executes.
TEST(SmokeAttention, PaddedRowsAreZeroedByRebuiltAndReplayedPlans) {
    SKIP_IF_NO_DEVICE();
    AttentionCase c = paddedCase(fb::DataType::BFLOAT16);
    c.causal = true;
    PluginRun run;
    run.roundTripSerialization = true;
    expectPluginRunMatches(c, Pass::Forward, run, true);
    expectPluginRunMatches(c, Pass::Backward, run, true);
}

// global.benchmarking times the plans on scratch lengths of the full sequences (its byte pattern
// would be lengths far beyond the tensors), then the chosen plan runs the case's lengths.
TEST(SmokeAttention, PaddedPlanChosenByTimingMatches) {
    SKIP_IF_NO_DEVICE();
    AttentionCase c = paddedCase(fb::DataType::HALF);
    c.causal = true;
    PluginRun run;
    run.intKnobs = {{"global.benchmarking", 1}};
    expectPluginRunMatches(c, Pass::Forward, run, false);
    expectPluginRunMatches(c, Pass::Backward, run, false);
}

TEST(SmokeAttentionBackward, Variants) {
    SKIP_IF_NO_DEVICE();
    for (const fb::DataType type : {fb::DataType::BFLOAT16, fb::DataType::HALF}) {
        expectMaskVariantsMatch(llmCase(type), Pass::Backward);
    }
}

TEST(SmokeAttentionBackward, GroupedQueryHeadsInBshd) {
    SKIP_IF_NO_DEVICE();
    AttentionCase c = llmCase(fb::DataType::BFLOAT16);
    c.heads = 8;
    c.kvHeads = 2;
    c.bshd = true;
    c.causal = true;
    expectBackwardMatches(c);
    c.kvHeads = 1;
    expectBackwardMatches(c);
}

TEST(SmokeAttentionBackward, PaddingMasks) {
    SKIP_IF_NO_DEVICE();
    for (const fb::DataType type : {fb::DataType::BFLOAT16, fb::DataType::HALF}) {
        expectPaddingVariantsMatch(paddedCase(type), Pass::Backward);
    }
}

TEST(SmokeAttentionBackward, RandomShapes) {
    SKIP_IF_NO_DEVICE();
    std::mt19937 random(hipdnn_test_sdk::globalTestSeed() + 1);
    hipdnn_test_sdk::AttentionCaseSpace space;
    space.seqQ = {17, 64, 130, 260};
    space.seqKv = {5, 64, 130, 520};
    space.dims = {8, 16, 64, 128};
    for (int trial = 0; trial < 16; ++trial) {
        AttentionCase c = hipdnn_test_sdk::randomAttentionCase(random, space);
        c.type = trial % 2 == 0 ? fb::DataType::BFLOAT16 : fb::DataType::HALF;
        c.stats = false;  // backward always reads them
        expectBackwardMatches(c);
    }
}

TEST(SmokeAttentionBackward, DeterministicEngineDeclinesTheAtomicAccumulation) {
    SKIP_IF_NO_DEVICE();
    const auto [ranked, declined] =
        Backend::instance().gpuHeuristics(attentionBackwardGraph(llmCase(fb::DataType::BFLOAT16)).build());
    EXPECT_FALSE(ranked.empty());
    EXPECT_NE(
        declined.find("CUDNN_ENGINE_DETERMINISTIC\tcudnn\tcuDNN's fused attention backward accumulates dQ "
                      "with atomic additions"),
        std::string::npos)
        << declined;
}

TEST(SmokeAttention, DeclinesFloatWithTheReason) {
    SKIP_IF_NO_DEVICE();
    AttentionCase c = llmCase(fb::DataType::FLOAT);
    const auto [ranked, declined] = Backend::instance().gpuHeuristics(attentionGraph(c).build());
    EXPECT_TRUE(ranked.empty());
    EXPECT_NE(declined.find("q has data type FLOAT; cuDNN's fused attention runs HALF and BFLOAT16"),
              std::string::npos)
        << declined;
}

// The workspace-resident tensors (softmax_sum, the dQ accumulator) travel in the serialized plan.
TEST(SmokeAttentionBackward, PlanRebuiltFromItsBytesMatches) {
    SKIP_IF_NO_DEVICE();
    AttentionCase c = llmCase(fb::DataType::BFLOAT16);
    c.causal = true;
    const std::vector<uint8_t> bytes = attentionBackwardGraph(c).build();
    const hipdnn_flatbuffers_sdk::GraphWrapper graph(bytes.data(), bytes.size());
    std::map<int64_t, HostTensor> reference = backwardInputs(c);
    std::map<int64_t, HostTensor> actual = reference;
    ASSERT_NO_FATAL_FAILURE(runReference(bytes, reference));
    PluginRun run;
    run.roundTripSerialization = true;
    ASSERT_NO_FATAL_FAILURE(runThroughPlugin(bytes, actual, run));
    expectOutputsClose(graph, reference, actual, ToleranceOp::SdpaBackward, 0,
                       hipdnn_test_sdk::attentionBackwardTolerance(c));
}

// LLM shapes: head dim 128, 1024 tokens, grouped heads 8:1.
TEST(FullAttention, LongSequencesWithGroupedHeads) {
    SKIP_IF_NO_DEVICE();
    AttentionCase c = llmCase(fb::DataType::BFLOAT16);
    c.batch = 1;
    c.heads = 8;
    c.kvHeads = 1;
    c.seqQ = 1024;
    c.seqKv = 1024;
    c.dim = 128;
    c.valueDim = 128;
    c.scale = 0.088F;
    c.causal = true;
    c.stats = true;
    expectForwardMatches(c);
    expectBackwardMatches(c);
    c.causal = false;
    expectForwardMatches(c);
    expectBackwardMatches(c);
}

}  // namespace
}  // namespace cudnn_integration
