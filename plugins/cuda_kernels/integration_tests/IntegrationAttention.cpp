// CUDA_SDPA_ENGINE against the CPU reference, forward and backward: fp32, fp16 and bf16, BHSD and
// BSHD, causal top-left and bottom-right, an additive bias, the statistics, grouped- and
// multi-query heads, padding masks (with a batch whose keys are all padding), dropout (the mask is
// the reference's, so outputs compare element by element), a scale tensor, every tile size class of
// head dims up to 512, more queries than keys, and random shapes that are no multiple of a tile.
// Backward inputs are what training has: O and the statistics from the reference forward pass on
// the same Q, K, V, bias and masks; dO random.
#include "EngineHarness.hpp"

#include <hipdnn_test_sdk/AttentionGraphs.hpp>
#include <hipdnn_test_sdk/Seed.hpp>
#include <hipdnn_test_sdk/SkipIfNoDevice.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <tuple>

namespace cuda_kernels_integration {
namespace {

using hipdnn_test_sdk::AttentionCase;

// Forward uids q 1, k 2, v 3, o 4, stats 5, bias 6; backward q 1, k 2, v 3, o 4, stats 6, bias 10
// (the lengths, seed, offset and scale share uids 11 to 15 and their values).
constexpr std::pair<int64_t, int64_t> kBackwardFromForward[] = {{1, 1}, {2, 2}, {3, 3},
                                                                {4, 4}, {6, 5}, {10, 6}};

// The values a case's scale, lengths and dropout tensors hold: batch b keeps all of its queries and
// keys when b is 0, about two thirds of the queries and half the keys when 1, one query and no key
// when 2 (every row sees nothing), and alternates after that.
std::map<int64_t, std::vector<double>> caseValues(const AttentionCase& c) {
    std::map<int64_t, std::vector<double>> values;
    if (c.scaleTensor) {
        values[15] = {c.scale};
    }
    if (c.padding) {
        for (int64_t b = 0; b < c.batch; ++b) {
            const int64_t kind = b % 3;
            values[11].push_back(static_cast<double>(kind == 0   ? c.seqQ
                                                     : kind == 1 ? (2 * c.seqQ + 2) / 3
                                                                 : 1));
            values[12].push_back(static_cast<double>(kind == 0   ? c.seqKv
                                                     : kind == 1 ? (c.seqKv + 1) / 2
                                                                 : 0));
        }
    }
    if (c.dropout > 0.0F) {
        values[13] = {static_cast<double>(hipdnn_test_sdk::globalTestSeed() % 100000 + 12345)};
        values[14] = {64.0};
    }
    return values;
}

RunOptions sdpaOptions(const AttentionCase& c, bool backward) {
    RunOptions options;
    options.engineId = hipdnn_data_sdk::utilities::CUDA_SDPA_ENGINE_ID;
    options.bounds = backward ? hipdnn_test_sdk::attentionBackwardTolerance(c)
                              : hipdnn_test_sdk::attentionForwardTolerance(c);
    options.values = caseValues(c);
    return options;
}

void expectForwardMatches(const AttentionCase& c) {
    SCOPED_TRACE(c.describe());
    expectMatchesReference(hipdnn_test_sdk::attentionGraph(c), sdpaOptions(c, false));
}

void expectBackwardMatches(const AttentionCase& c) {
    SCOPED_TRACE(c.describe() + " backward");
    AttentionCase forward = c;
    forward.stats = true;
    const auto computed =
        referenceTensors(hipdnn_test_sdk::attentionGraph(forward), sdpaOptions(forward, false));
    RunOptions options = sdpaOptions(c, true);
    for (const auto& [backwardUid, forwardUid] : kBackwardFromForward) {
        if (const auto found = computed.find(forwardUid); found != computed.end()) {
            options.values[backwardUid] = found->second;
        }
    }
    expectMatchesReference(hipdnn_test_sdk::attentionBackwardGraph(c), options);
}

void expectMatches(const AttentionCase& c, bool backward) {
    if (backward) {
        expectBackwardMatches(c);
    } else {
        expectForwardMatches(c);
    }
}

// Sizes that are no multiple of any tile, more keys than queries, grouped heads 4:2.
AttentionCase baseCase(fb::DataType type, bool bshd) {
    AttentionCase c;
    c.type = type;
    c.batch = 2;
    c.heads = 4;
    c.kvHeads = 2;
    c.seqQ = 37;
    c.seqKv = 70;
    c.dim = 40;
    c.valueDim = 24;
    c.bshd = bshd;
    c.scale = 0.158F;
    return c;
}

TEST(SmokeAttentionSerialization, SerializedPlansReloadAndRunBitIdentically) {
    SKIP_IF_NO_DEVICE();
    AttentionCase c = baseCase(fb::DataType::BFLOAT16, true);
    c.causal = true;
    RunOptions options = sdpaOptions(c, false);
    options.roundTripSerialization = true;
    expectMatchesReference(hipdnn_test_sdk::attentionGraph(c), options);
}

using Variant = std::tuple<fb::DataType, bool, bool>;  // type, BSHD, backward

std::string variantName(const testing::TestParamInfo<Variant>& info) {
    return std::string(fb::EnumNameDataType(std::get<0>(info.param))) +
           (std::get<1>(info.param) ? "_bshd" : "_bhsd") +
           (std::get<2>(info.param) ? "_backward" : "_forward");
}

class Attention : public testing::TestWithParam<Variant> {};

TEST_P(Attention, MaskVariants) {
    SKIP_IF_NO_DEVICE();
    const auto [type, bshd, backward] = GetParam();
    AttentionCase c = baseCase(type, bshd);
    expectMatches(c, backward);
    c.stats = true;
    expectMatches(c, backward);
    c.causal = true;
    expectMatches(c, backward);
    c.bottomRight = true;
    expectMatches(c, backward);
    c.bias = true;
    expectMatches(c, backward);
    c.causal = false;
    expectMatches(c, backward);
}

TEST_P(Attention, PaddingWithEmptyRows) {
    SKIP_IF_NO_DEVICE();
    const auto [type, bshd, backward] = GetParam();
    AttentionCase c = baseCase(type, bshd);
    c.batch = 3;
    c.padding = true;
    c.stats = true;
    expectMatches(c, backward);
    c.causal = true;
    expectMatches(c, backward);
    c.bottomRight = true;
    c.bias = true;
    expectMatches(c, backward);
}

TEST_P(Attention, Dropout) {
    SKIP_IF_NO_DEVICE();
    const auto [type, bshd, backward] = GetParam();
    AttentionCase c = baseCase(type, bshd);
    c.dropout = 0.2F;
    c.stats = true;
    expectMatches(c, backward);
    c.causal = true;
    c.bias = true;
    c.dropout = 0.5F;
    expectMatches(c, backward);
    c.padding = true;
    c.batch = 3;
    c.bottomRight = true;
    expectMatches(c, backward);
}

TEST_P(Attention, ScaleTensorAndMultiQueryHeads) {
    SKIP_IF_NO_DEVICE();
    const auto [type, bshd, backward] = GetParam();
    AttentionCase c = baseCase(type, bshd);
    c.scaleTensor = true;
    c.heads = 8;
    c.kvHeads = 1;
    c.causal = true;
    c.stats = true;
    expectMatches(c, backward);
}

TEST_P(Attention, MoreQueriesThanKeys) {
    SKIP_IF_NO_DEVICE();
    const auto [type, bshd, backward] = GetParam();
    AttentionCase c = baseCase(type, bshd);
    c.seqQ = 90;
    c.seqKv = 33;
    c.stats = true;
    expectMatches(c, backward);
    c.causal = true;  // top-left: every query sees a key
    expectMatches(c, backward);
    c.bottomRight = true;  // the first 57 queries see none: o 0, stats +inf, no gradient
    expectMatches(c, backward);
}

INSTANTIATE_TEST_SUITE_P(Smoke, Attention,
                         testing::Combine(testing::Values(fb::DataType::FLOAT, fb::DataType::HALF,
                                                          fb::DataType::BFLOAT16),
                                          testing::Bool(), testing::Bool()),
                         variantName);

// Every tile size class (32 rows up to D 64, 16 up to 128, 8 up to 256, 4 up to 512), with a
// value head dim unlike the head dim.
TEST(SmokeAttentionHeadDims, EveryTileSize) {
    SKIP_IF_NO_DEVICE();
    for (const fb::DataType type : {fb::DataType::FLOAT, fb::DataType::BFLOAT16}) {
        for (const auto& [dim, valueDim] :
             {std::pair<int64_t, int64_t>{8, 8}, {64, 64}, {128, 96}, {256, 256}, {72, 512}}) {
            AttentionCase c = baseCase(type, true);
            c.seqQ = 33;
            c.seqKv = 65;
            c.dim = dim;
            c.valueDim = valueDim;
            c.scale = 1.0F / std::sqrt(static_cast<float>(dim));
            c.causal = true;
            c.stats = true;
            expectForwardMatches(c);
            expectBackwardMatches(c);
        }
    }
}

TEST(SmokeAttentionRandom, ForwardAndBackward) {
    SKIP_IF_NO_DEVICE();
    std::mt19937 random(hipdnn_test_sdk::globalTestSeed() + 7);
    hipdnn_test_sdk::AttentionCaseSpace space;
    space.dims = {8, 16, 40, 64, 100, 128};
    const fb::DataType types[] = {fb::DataType::FLOAT, fb::DataType::HALF, fb::DataType::BFLOAT16};
    for (int trial = 0; trial < 24; ++trial) {
        AttentionCase c = hipdnn_test_sdk::randomAttentionCase(random, space);
        c.type = types[trial % 3];
        c.padding = std::uniform_int_distribution<int>(0, 2)(random) == 0;
        c.dropout = std::uniform_int_distribution<int>(0, 3)(random) == 0 ? 0.25F : 0.0F;
        c.scaleTensor = trial % 5 == 0;
        expectForwardMatches(c);
        expectBackwardMatches(c);
    }
}

// Model shapes: 1024 tokens, head dim 128, grouped heads 8:2, fp32 and bf16.
TEST(FullAttention, LongSequences) {
    SKIP_IF_NO_DEVICE();
    for (const fb::DataType type : {fb::DataType::FLOAT, fb::DataType::BFLOAT16}) {
        AttentionCase c;
        c.type = type;
        c.batch = 2;
        c.heads = 8;
        c.kvHeads = 2;
        c.seqQ = 1024;
        c.seqKv = 1024;
        c.dim = 128;
        c.valueDim = 128;
        c.scale = 0.088F;
        c.bshd = true;
        c.causal = true;
        c.stats = true;
        expectForwardMatches(c);
        expectBackwardMatches(c);
        c.causal = false;
        c.dropout = 0.1F;
        expectForwardMatches(c);
        expectBackwardMatches(c);
    }
}

}  // namespace
}  // namespace cuda_kernels_integration
