#include <gtest/gtest.h>

#include "Ceilings.hpp"
#include "GraphMetrics.hpp"
#include "Problem.hpp"

namespace hipdnn_driver {
namespace {

using hipdnn_flatbuffers_sdk::GraphWrapper;

Ceilings twoLevelCeilings() {
    Ceilings ceilings;
    ceilings.peaks[MathKind::Fp32] = {1e12, "test"};
    ceilings.peaks[MathKind::Bf16] = {8e12, "test"};
    ceilings.bandwidths = {{1e6, 1e12}, {1e9, 1e11}};
    return ceilings;
}

TEST(Ceilings, MathWithoutAUnitOfItsOwnRunsAtTheFp32Peak) {
    const Ceilings ceilings = twoLevelCeilings();
    EXPECT_EQ(ceilings.peakFor(MathKind::Bf16)->flops, 8e12);
    EXPECT_EQ(ceilings.peakFor(MathKind::Fp16)->flops, 1e12);
    EXPECT_EQ(Ceilings{}.peakFor(MathKind::Fp32), nullptr);
}

TEST(Ceilings, AWorkingSetMovesAtTheRateOfTheLargestSampleItCovers) {
    const Ceilings ceilings = twoLevelCeilings();
    EXPECT_EQ(*ceilings.bandwidthFor(1e3), 1e12);  // smaller than every sample: the fastest
    EXPECT_EQ(*ceilings.bandwidthFor(5e8), 1e12);  // fits the cache sample
    EXPECT_EQ(*ceilings.bandwidthFor(1e9), 1e11);
    EXPECT_EQ(*ceilings.bandwidthFor(1e12), 1e11);
    EXPECT_FALSE(Ceilings{}.bandwidthFor(1e6));
}

TEST(Ceilings, FloorSumsTheMathKindsAndTakesTheLargerBound) {
    const Ceilings ceilings = twoLevelCeilings();
    // 1e9 fp32 flops = 1 ms, 8e9 bf16 flops = 1 ms; 1e9 bytes at 1e11 B/s = 10 ms.
    EXPECT_DOUBLE_EQ(*floorMilliseconds(ceilings, {{MathKind::Fp32, 1e9}, {MathKind::Bf16, 8e9}}, 1e3), 2.0);
    EXPECT_DOUBLE_EQ(*floorMilliseconds(ceilings, {{MathKind::Fp32, 1e9}}, 1e9), 10.0);
    EXPECT_FALSE(floorMilliseconds(Ceilings{}, {{MathKind::Fp32, 1e9}}, 1e9));
}

TEST(GraphMetrics, FlopsRunInTheMathOfTheirOperands) {
    ConvSpec conv;
    conv.dataType = DataType::BFLOAT16;
    const Problem bf16 = makeConvProblem(conv);
    const GraphWrapper bf16Graph(bf16.graph.data(), bf16.graph.size());
    const auto bf16Flops = graphFlopsByMath(bf16Graph, false);
    ASSERT_EQ(bf16Flops.size(), 1U);
    EXPECT_EQ(bf16Flops.begin()->first, MathKind::Bf16);
    EXPECT_DOUBLE_EQ(bf16Flops.begin()->second, graphFlops(bf16Graph));
    EXPECT_DOUBLE_EQ(graphFlops(bf16Graph), 2.0 * 64 * 54 * 54 * 64 * 9);

    MatmulSpec matmul;
    const Problem fp32 = makeMatmulProblem(matmul);
    const GraphWrapper fp32Graph(fp32.graph.data(), fp32.graph.size());
    EXPECT_EQ(graphFlopsByMath(fp32Graph, false).begin()->first, MathKind::Fp32);
    EXPECT_EQ(graphFlopsByMath(fp32Graph, true).begin()->first, MathKind::Tf32);
}

TEST(Ceilings, TheCpuIsMeasuredInEveryMathItHas) {
    const Ceilings ceilings = measureCpuCeilings();
    ASSERT_TRUE(ceilings.peaks.contains(MathKind::Fp32));
    EXPECT_GT(ceilings.peaks.at(MathKind::Fp32).flops, 1e9);
    EXPECT_NE(ceilings.peaks.at(MathKind::Fp32).method.find("measured"), std::string::npos);
    // bf16 units do two products per fp32 lane.
    EXPECT_EQ(ceilings.peaks.contains(MathKind::Bf16), cpuHasBf16Math());
    if (cpuHasBf16Math()) {
        EXPECT_GT(ceilings.peaks.at(MathKind::Bf16).flops, ceilings.peaks.at(MathKind::Fp32).flops);
    }
    ASSERT_GE(ceilings.bandwidths.size(), 2U);
    for (size_t i = 1; i < ceilings.bandwidths.size(); ++i) {
        EXPECT_GT(ceilings.bandwidths[i].workingSetBytes, ceilings.bandwidths[i - 1].workingSetBytes);
        EXPECT_GT(ceilings.bandwidths[i].bytesPerSecond, 1e8);
    }
}

}  // namespace
}  // namespace hipdnn_driver
