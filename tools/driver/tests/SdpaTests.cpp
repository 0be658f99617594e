// The sdpa problem: its FLOP count and tolerance, and the LLM batch file of tests/data.
#include <set>

#include <gtest/gtest.h>

#include "BatchFile.hpp"
#include "GraphMetrics.hpp"
#include "Problem.hpp"

namespace hipdnn_driver {
namespace {

hipdnn_flatbuffers_sdk::GraphWrapper graphOf(const SdpaSpec& spec, std::vector<uint8_t>& storage) {
    storage = makeProblem(spec).graph;
    return hipdnn_flatbuffers_sdk::GraphWrapper(storage.data(), storage.size());
}

TEST(Sdpa, FlopsCountBothProductsHalvedByTheCausalMask) {
    SdpaSpec spec;
    spec.batch = 2;
    spec.heads = 8;
    spec.kvHeads = 2;
    spec.seqQ = 256;
    spec.seqKv = 512;
    spec.headDim = 64;
    std::vector<uint8_t> storage;
    const double forward = 4.0 * 2 * 8 * 256 * 512 * 64;
    EXPECT_DOUBLE_EQ(graphFlops(graphOf(spec, storage)), forward);
    spec.causal = true;
    EXPECT_DOUBLE_EQ(graphFlops(graphOf(spec, storage)), forward / 2);
    spec.direction = SdpaSpec::Direction::Backward;
    EXPECT_DOUBLE_EQ(graphFlops(graphOf(spec, storage)), 2.5 * forward / 2);
}

TEST(Sdpa, ToleranceFollowsTheOperandsAndTheReductionLength) {
    SdpaSpec spec;
    spec.heads = 8;
    spec.kvHeads = 2;
    spec.seqQ = 64;
    spec.seqKv = 2048;
    spec.dataType = DataType::HALF;
    std::vector<uint8_t> storage;
    const auto forward = graphTolerance(graphOf(spec, storage));
    EXPECT_EQ(forward.op, hipdnn_test_sdk::ToleranceOp::Sdpa);
    EXPECT_EQ(forward.reductionLength, 2048);
    EXPECT_EQ(forward.attentionOperandType, hipdnn_flatbuffers_sdk::data_objects::DataType::HALF);
    spec.direction = SdpaSpec::Direction::Backward;
    spec.seqKv = 32;
    const auto backward = graphTolerance(graphOf(spec, storage));
    EXPECT_EQ(backward.op, hipdnn_test_sdk::ToleranceOp::SdpaBackward);
    // dK and dV sum over the 64 query rows of each of the 4 query heads of a KV head.
    EXPECT_EQ(backward.reductionLength, 256);
}

TEST(Sdpa, LlmBatchFileHoldsGroupedQueryShapesThatBuild) {
    const auto entries = parseBatchFile(HIPDNN_DRIVER_TEST_DATA "/sdpa_llm.batch", CommonOptions{});
    ASSERT_GE(entries.size(), 32U);
    std::set<int64_t> headDims;
    std::set<int64_t> sequences;
    std::set<bool> causal;
    std::set<SdpaSpec::Direction> directions;
    for (const auto& entry : entries) {
        SCOPED_TRACE(entry.text);
        const auto& spec = std::get<SdpaSpec>(entry.invocation.problem);
        EXPECT_EQ(spec.heads, 8 * spec.effectiveKvHeads());
        headDims.insert(spec.headDim);
        sequences.insert(spec.seqQ);
        causal.insert(spec.causal);
        directions.insert(spec.direction);
        EXPECT_FALSE(makeProblem(spec).graph.empty());
    }
    EXPECT_EQ(headDims, (std::set<int64_t>{64, 128}));
    EXPECT_EQ(*sequences.begin(), 512);
    EXPECT_EQ(*sequences.rbegin(), 16384);
    EXPECT_EQ(causal.size(), 2U);
    EXPECT_EQ(directions.size(), 2U);
}

}  // namespace
}  // namespace hipdnn_driver
