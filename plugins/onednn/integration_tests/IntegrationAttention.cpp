// Attention forward and backward on ONEDNN_ENGINE against the CPU reference: random shapes
// (tails of both tiles, one key, one query), grouped-query heads, BHSD and BSHD strides, causal
// top-left and bottom-right, a broadcast additive bias, a scale, the statistics output, bf16
// where the CPU has it; what it declines.
#include "OnednnHarness.hpp"

#include <hipdnn_test_sdk/AttentionGraphs.hpp>
#include <hipdnn_test_sdk/Seed.hpp>

#include <gtest/gtest.h>

#include <random>

namespace onednn_test {
namespace {

using hipdnn_test_sdk::attentionBackwardGraph;
using hipdnn_test_sdk::AttentionCase;
using hipdnn_test_sdk::attentionGraph;

void expectAttentionMatches(const AttentionCase& c) {
    SCOPED_TRACE(c.describe());
    expectMatchesReference(attentionGraph(c), hipdnn_test_sdk::attentionForwardTolerance(c));
}

TEST(SmokeOnednnAttention, TilesTailsAndOptions) {
    // Past one query tile (256) and one key tile (512), with remainders of both.
    AttentionCase tiles;
    tiles.seqQ = 300;
    tiles.seqKv = 600;
    tiles.dim = 32;
    tiles.valueDim = 16;
    tiles.stats = true;
    tiles.scale = 0.25F;
    expectAttentionMatches(tiles);
    tiles.causal = true;
    expectAttentionMatches(tiles);
    tiles.bottomRight = true;
    expectAttentionMatches(tiles);
    tiles.bias = true;
    expectAttentionMatches(tiles);
}

TEST(SmokeOnednnAttention, GroupedQueryHeadsInBshd) {
    AttentionCase gqa;
    gqa.batch = 2;
    gqa.heads = 8;
    gqa.kvHeads = 2;
    gqa.seqQ = 33;
    gqa.seqKv = 70;
    gqa.dim = 16;
    gqa.valueDim = 16;
    gqa.bshd = true;
    gqa.stats = true;
    gqa.scale = 0.25F;
    expectAttentionMatches(gqa);
    gqa.kvHeads = 1;  // multi-query
    gqa.causal = true;
    expectAttentionMatches(gqa);
}

// Bottom-right with fewer keys than queries: the first Sq - Skv rows see no key (O = 0, stats +inf).
TEST(SmokeOnednnAttention, RowsWithoutKeys) {
    AttentionCase c;
    c.seqQ = 20;
    c.seqKv = 5;
    c.causal = true;
    c.bottomRight = true;
    c.stats = true;
    expectAttentionMatches(c);
}

TEST(SmokeOnednnAttention, RandomShapes) {
    std::mt19937 random(hipdnn_test_sdk::globalTestSeed());
    for (int trial = 0; trial < 24; ++trial) {
        expectAttentionMatches(hipdnn_test_sdk::randomAttentionCase(random));
    }
}

// bf16 where oneDNN has bf16 matmuls on this CPU (the probabilities are rounded to bf16 for the
// second matmul, as flash attention does on GPUs); declined with a reason elsewhere.
TEST(SmokeOnednnAttention, Bfloat16FollowsTheCpu) {
    AttentionCase c;
    c.type = fb::DataType::BFLOAT16;
    c.heads = 4;
    c.kvHeads = 2;
    c.seqQ = 270;
    c.seqKv = 530;
    c.dim = 64;
    c.valueDim = 64;
    c.causal = true;
    c.stats = true;
    c.scale = 0.125F;
    if (!cpuHasBf16()) {
        const Applicability verdict = OnednnPlugin::instance().applicability(attentionGraph(c).build());
        EXPECT_FALSE(verdict.applicable);
        EXPECT_NE(verdict.reasons.find("BFLOAT16"), std::string::npos) << verdict.reasons;
        return;
    }
    expectAttentionMatches(c);
    c.causal = false;
    c.bias = true;
    c.bshd = true;
    expectAttentionMatches(c);
}

// The thread tasks of the forward pass: query tiles of 128 with a tail (129, 257), two full key
// tiles of 512 and a tail, an odd head count (uneven task split over the threads), GQA, bias and
// both causal alignments with fewer queries than keys; fp32 and, where the CPU has it, bf16.
TEST(SmokeOnednnAttention, ThreadTasksWithTails) {
    for (const fb::DataType type : {fb::DataType::FLOAT, fb::DataType::BFLOAT16}) {
        if (type == fb::DataType::BFLOAT16 && !cpuHasBf16()) {
            continue;
        }
        AttentionCase c;
        c.type = type;
        c.heads = 6;
        c.kvHeads = 3;
        c.seqQ = 257;
        c.seqKv = 1030;
        c.dim = 48;
        c.valueDim = 32;
        c.stats = true;
        c.scale = 0.15F;
        expectAttentionMatches(c);
        c.seqQ = 129;
        c.causal = true;
        c.bottomRight = true;
        c.bias = true;
        expectAttentionMatches(c);
        c.bottomRight = false;
        c.bshd = true;
        expectAttentionMatches(c);
    }
}

void expectAttentionBackwardMatches(const AttentionCase& c) {
    SCOPED_TRACE(c.describe() + " backward");
    expectMatchesReference(attentionBackwardGraph(c), hipdnn_test_sdk::attentionBackwardTolerance(c));
}

TEST(SmokeOnednnAttentionBackward, TilesTailsAndOptions) {
    AttentionCase c;
    c.seqQ = 300;
    c.seqKv = 600;
    c.dim = 32;
    c.valueDim = 16;
    c.scale = 0.25F;
    expectAttentionBackwardMatches(c);
    c.causal = true;
    expectAttentionBackwardMatches(c);
    c.bottomRight = true;
    c.bias = true;
    expectAttentionBackwardMatches(c);
}

TEST(SmokeOnednnAttentionBackward, GroupedQueryHeadsInBshd) {
    AttentionCase c;
    c.batch = 2;
    c.heads = 8;
    c.kvHeads = 2;
    c.seqQ = 33;
    c.seqKv = 70;
    c.dim = 16;
    c.valueDim = 16;
    c.bshd = true;
    c.causal = true;
    c.scale = 0.25F;
    expectAttentionBackwardMatches(c);
}

TEST(SmokeOnednnAttentionBackward, RandomShapes) {
    std::mt19937 random(hipdnn_test_sdk::globalTestSeed() + 1);
    for (int trial = 0; trial < 12; ++trial) {
        AttentionCase c = hipdnn_test_sdk::randomAttentionCase(random);
        c.stats = false;  // backward always reads them
        expectAttentionBackwardMatches(c);
    }
}

TEST(SmokeOnednnAttentionBackward, Bfloat16FollowsTheCpu) {
    AttentionCase c;
    c.type = fb::DataType::BFLOAT16;
    c.heads = 4;
    c.kvHeads = 2;
    c.seqQ = 130;
    c.seqKv = 530;
    c.dim = 64;
    c.valueDim = 64;
    c.causal = true;
    c.scale = 0.125F;
    if (!cpuHasBf16()) {
        const Applicability verdict =
            OnednnPlugin::instance().applicability(attentionBackwardGraph(c).build());
        EXPECT_FALSE(verdict.applicable);
        EXPECT_NE(verdict.reasons.find("BFLOAT16"), std::string::npos) << verdict.reasons;
        return;
    }
    expectAttentionBackwardMatches(c);
}

// Many query heads per KV head (8:1, two batches): every head's dK and dV go into the KV head's
// fp32 sums from whichever thread ran it. Query tails past 128, a key tail past 512, causal and
// bias; fp32 and, where the CPU has it, bf16.
TEST(SmokeOnednnAttentionBackward, GroupedHeadsShareKeyGradients) {
    for (const fb::DataType type : {fb::DataType::FLOAT, fb::DataType::BFLOAT16}) {
        if (type == fb::DataType::BFLOAT16 && !cpuHasBf16()) {
            continue;
        }
        AttentionCase c;
        c.type = type;
        c.batch = 2;
        c.heads = 8;
        c.kvHeads = 1;
        c.seqQ = 140;
        c.seqKv = 530;
        c.dim = 32;
        c.valueDim = 32;
        c.scale = 0.2F;
        expectAttentionBackwardMatches(c);
        c.causal = true;
        c.bias = true;
        c.bshd = true;
        expectAttentionBackwardMatches(c);
    }
}

TEST(SmokeOnednnAttention, DeclinesWhatItDoesNotRun) {
    AttentionCase c;
    c.seqQ = 4;
    c.seqKv = 4;
    c.type = fb::DataType::HALF;
    const Applicability half = OnednnPlugin::instance().applicability(attentionGraph(c).build());
    EXPECT_FALSE(half.applicable);
    EXPECT_NE(half.reasons.find("HALF is not supported"), std::string::npos) << half.reasons;
}

}  // namespace
}  // namespace onednn_test
