#include <hipdnn_test_sdk/AllClose.hpp>
#include <hipdnn_test_sdk/Seed.hpp>
#include <hipdnn_test_sdk/Tolerances.hpp>

#include <hipdnn_data_sdk/types.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace {

using hipdnn_flatbuffers_sdk::data_objects::DataType;
using namespace hipdnn_test_sdk;

ErasedTensorView view(const std::vector<float>& data, std::vector<int64_t> dims,
                      std::vector<int64_t> strides) {
    return ErasedTensorView{DataType::FLOAT, data.data(), std::move(dims), std::move(strides)};
}

TEST(TestTolerances, FixedTableMatchesUpstreamNumbers) {
    EXPECT_DOUBLE_EQ(fixedTolerance(ToleranceOp::BatchnormInference, DataType::HALF).absolute, 5e-4);
    EXPECT_DOUBLE_EQ(fixedTolerance(ToleranceOp::ConvolutionFwd, DataType::HALF).absolute, 1e-1);
    EXPECT_DOUBLE_EQ(fixedTolerance(ToleranceOp::ConvolutionFwd, DataType::BFLOAT16).relative, 2e-2);
    EXPECT_DOUBLE_EQ(fixedTolerance(ToleranceOp::ConvolutionBwd, DataType::FLOAT).absolute, 8.5e-6);
    EXPECT_DOUBLE_EQ(fixedTolerance(ToleranceOp::Pointwise, DataType::BFLOAT16).relative, 1e-2);
    EXPECT_DOUBLE_EQ(fixedTolerance(ToleranceOp::RmsNorm, DataType::BFLOAT16).absolute, 8e-3);
    EXPECT_DOUBLE_EQ(fixedTolerance(ToleranceOp::Matmul, DataType::INT32).absolute, 0.0);
    EXPECT_THROW(fixedTolerance(ToleranceOp::Matmul, DataType::FP8_E4M3), std::invalid_argument);
}

TEST(TestTolerances, AccumulationBoundGrowsWithLengthAndShrinksWithPrecision) {
    EXPECT_DOUBLE_EQ(unitRoundoff(DataType::HALF), std::ldexp(1.0, -11));
    const double shortSum = accumulationGamma(10, unitRoundoff(DataType::FLOAT));
    const double longSum = accumulationGamma(10000, unitRoundoff(DataType::FLOAT));
    EXPECT_NEAR(shortSum, 10 * std::ldexp(1.0, -24), 1e-12);
    EXPECT_GT(longSum, shortSum);
    // Past k*u = 0.01 the probabilistic sqrt(k) form applies and stays finite.
    EXPECT_TRUE(std::isfinite(accumulationGamma(1 << 20, unitRoundoff(DataType::BFLOAT16))));
    EXPECT_LT(accumulationBound(4608, 4608.0, DataType::DOUBLE, DataType::FLOAT),
              accumulationBound(4608, 4608.0, DataType::FLOAT, DataType::FLOAT));
    // Long half reductions get more than the fixed 1e-2; short float ones keep the table value.
    EXPECT_GT(reductionTolerance(ToleranceOp::Matmul, DataType::HALF, DataType::FLOAT, 4096, 1.0).absolute,
              1e-2);
    EXPECT_DOUBLE_EQ(
        reductionTolerance(ToleranceOp::Matmul, DataType::FLOAT, DataType::FLOAT, 4, 1.0).absolute, 1e-5);
}

TEST(TestAllClose, PassesWithinToleranceAcrossLayouts) {
    // The same 2x3 tensor row-major and column-major.
    const std::vector<float> rowMajor{1, 2, 3, 4, 5, 6};
    const std::vector<float> columnMajor{1, 4, 2.00001f, 5, 3, 6};
    const auto report =
        allClose(view(rowMajor, {2, 3}, {3, 1}), view(columnMajor, {2, 3}, {1, 2}), {1e-4, 0});
    EXPECT_TRUE(report.passed) << report.describe();
    EXPECT_EQ(report.elementCount, 6);
    EXPECT_EQ(report.mismatchCount, 0);
}

TEST(TestAllClose, ReportsWorstElementAndMismatchCount) {
    const std::vector<float> expected{1, 2, 3, 4, 5, 6};
    const std::vector<float> actual{1, 2.5f, 3, 4, 9, 6};
    const auto report = allClose(view(expected, {2, 3}, {3, 1}), view(actual, {2, 3}, {3, 1}), {0.1, 0.0});
    EXPECT_FALSE(report.passed);
    EXPECT_EQ(report.mismatchCount, 2);
    EXPECT_EQ(report.worstIndex, (std::vector<int64_t>{1, 1}));
    EXPECT_DOUBLE_EQ(report.worstExpected, 5.0);
    EXPECT_DOUBLE_EQ(report.worstActual, 9.0);
    EXPECT_DOUBLE_EQ(report.worstAbsoluteError, 4.0);
    EXPECT_DOUBLE_EQ(report.worstRelativeError, 0.8);
    const std::string text = report.describe();
    EXPECT_NE(text.find("2 of 6 elements"), std::string::npos) << text;
    EXPECT_NE(text.find("[1, 1]"), std::string::npos) << text;
}

TEST(TestAllClose, NanInTheResultNeverMatchesByDefault) {
    // A NaN parameter (epsilon = NaN) makes the reference and the engine both NaN: that is a
    // failure, not a match, and the report says how many NaNs there were.
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const std::vector<float> expected{nan, 2, nan, 4};
    const auto bothNan = allClose(view(expected, {4}, {1}), view({nan, 2, nan, 4}, {4}, {1}), {1e9, 1e9});
    EXPECT_FALSE(bothNan.passed);
    EXPECT_EQ(bothNan.mismatchCount, 2);
    EXPECT_NE(bothNan.describe().find("the result holds 2 NaN"), std::string::npos) << bothNan.describe();
    EXPECT_NE(bothNan.describe().find("the reference holds 2 NaN"), std::string::npos) << bothNan.describe();

    const auto resultNan = allClose(view({1, 2, 3, 4}, {4}, {1}), view({1, nan, 3, 4}, {4}, {1}), {1e9, 1e9});
    EXPECT_FALSE(resultNan.passed);
    EXPECT_EQ(resultNan.mismatchCount, 1);
    EXPECT_EQ(resultNan.worstIndex, (std::vector<int64_t>{1}));
    EXPECT_NE(resultNan.describe().find("the result holds 1 NaN"), std::string::npos) << resultNan.describe();
}

TEST(TestAllClose, NanMatchesOnlyWhereAllowedAndExpected) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<float> expected{nan, inf, 1};
    const auto allowed = allClose(view(expected, {3}, {1}), view({nan, inf, 1}, {3}, {1}), {0, 0},
                                  NanPolicy::MatchExpectedNan);
    EXPECT_TRUE(allowed.passed) << allowed.describe();
    const auto nanMoved = allClose(view(expected, {3}, {1}), view({1, inf, nan}, {3}, {1}), {1e9, 1e9},
                                   NanPolicy::MatchExpectedNan);
    EXPECT_FALSE(nanMoved.passed);
    EXPECT_EQ(nanMoved.mismatchCount, 2);
    EXPECT_FALSE(allClose(view(expected, {3}, {1}), view({nan, -inf, 1}, {3}, {1}), {1e9, 1e9},
                          NanPolicy::MatchExpectedNan)
                     .passed);
    // Infinities match the same infinity under either policy.
    EXPECT_TRUE(allClose(view({inf, -inf}, {2}, {1}), view({inf, -inf}, {2}, {1}), {0, 0}).passed);
}

TEST(TestAllClose, ComparesDifferentElementTypesAndRejectsDimMismatch) {
    using hipdnn_data_sdk::types::half;
    const std::vector<half> halves{half(1.5f), half(-2.0f)};
    const std::vector<float> floats{1.5f, -2.0f};
    const ErasedTensorView halfView{DataType::HALF, halves.data(), {2}, {1}};
    EXPECT_TRUE(allClose(view(floats, {2}, {1}), halfView, {0, 0}).passed);
    const auto mismatch = allClose(view(floats, {2}, {1}), view(floats, {1, 2}, {2, 1}), {0, 0});
    EXPECT_FALSE(mismatch.passed);
    EXPECT_NE(mismatch.describe().find("dims"), std::string::npos);
}

TEST(TestSeed, ParsesNumbersRandomAndDefault) {
    EXPECT_EQ(parseTestSeed(std::nullopt), 1u);
    EXPECT_EQ(parseTestSeed(""), 1u);
    EXPECT_EQ(parseTestSeed("42"), 42u);
    EXPECT_EQ(parseTestSeed("4294967295"), 4294967295u);
    EXPECT_EQ(parseTestSeed("random"), std::nullopt);
    EXPECT_EQ(parseTestSeed("RANDOM"), std::nullopt);
    EXPECT_THROW(parseTestSeed("12abc"), std::invalid_argument);
    EXPECT_THROW(parseTestSeed("-3"), std::invalid_argument);
    // Stable within a process.
    EXPECT_EQ(globalTestSeed(), globalTestSeed());
}

}  // namespace
