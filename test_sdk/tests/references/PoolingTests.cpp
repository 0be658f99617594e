#include "ReferenceTestHelpers.hpp"

#include <hipdnn_test_sdk/references/Pooling.hpp>

#include <gtest/gtest.h>

namespace {

using namespace reference_tests;
using RM = refs::ResampleMode;

// x (1, 1, 3, 3) = 1..9, window 2x2, stride 2, padding 1 before and after: four windows
// {pad, pad, pad, 1}, {pad, pad, 2, 3}, {pad, 4, pad, 7}, {5, 6, 8, 9}.
refs::PoolingParams params(RM mode) {
    return {mode, refs::PaddingMode::NEG_INF_PAD, {1, 1}, {1, 1}, {2, 2}, {2, 2}};
}

TEST(Pooling, MaxWithWindowIndex) {
    auto x = packed<float>({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    auto y = packedZeros<float>({1, 1, 2, 2});
    auto index = packedZeros<int32_t>({1, 1, 2, 2});
    refs::poolingForward<float, int32_t>(params(RM::MAXPOOL), x.constView(), y.view(), index.view());
    EXPECT_EQ(y.rowMajor(), (std::vector<float>{1, 3, 7, 9}));
    EXPECT_EQ(index.rowMajor(), (std::vector<int32_t>{3, 3, 3, 3}));
    // Padding read as zeros makes the all-negative corner window 0 at a padded position.
    auto negative = packed<float>({1, 1, 3, 3}, {-1, -2, -3, -4, -5, -6, -7, -8, -9});
    auto zeroPadded = params(RM::MAXPOOL);
    zeroPadded.paddingMode = refs::PaddingMode::ZERO_PAD;
    refs::poolingForward<float, int32_t>(zeroPadded, negative.constView(), y.view(), index.view());
    EXPECT_EQ(y.rowMajor(), (std::vector<float>{0, 0, 0, -5}));
    EXPECT_EQ(index.rowMajor(), (std::vector<int32_t>{0, 0, 0, 0}));
}

TEST(Pooling, AverageIncludingAndExcludingPadding) {
    auto x = packed<float>({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    auto y = packedZeros<float>({1, 1, 2, 2});
    refs::poolingForward<float>(params(RM::AVGPOOL_INCLUDE_PADDING), x.constView(), y.view());
    EXPECT_EQ(y.rowMajor(), (std::vector<float>{0.25f, 1.25f, 2.75f, 7}));
    refs::poolingForward<float>(params(RM::AVGPOOL_EXCLUDE_PADDING), x.constView(), y.view());
    EXPECT_EQ(y.rowMajor(), (std::vector<float>{1, 2.5f, 5.5f, 7}));
}

TEST(Pooling, LayoutIndependentAndValidated) {
    const std::vector<int64_t> dims{2, 3, 4, 5};
    const auto values = randomValues(120, 31);
    const refs::PoolingParams p{RM::MAXPOOL, refs::PaddingMode::NEG_INF_PAD, {1, 0}, {0, 1}, {2, 2}, {2, 3}};
    const std::vector<int64_t> outDims{2, 3, 2, 2};
    std::vector<std::vector<float>> results;
    for (const bool last : {false, true}) {
        StridedTensor<float> x(dims, last ? channelsLast(dims) : refs::packedStrides(dims), values);
        StridedTensor<float> y(outDims, last ? channelsLast(outDims) : refs::packedStrides(outDims));
        refs::poolingForward<float>(p, x.constView(), y.view());
        results.push_back(y.rowMajor());
    }
    EXPECT_EQ(results[0], results[1]);
    auto x = packed<float>(dims, values);
    auto wrong = packedZeros<float>({2, 3, 3, 2});
    EXPECT_THROW(refs::poolingForward<float>(p, x.constView(), wrong.view()), std::invalid_argument);
}

}  // namespace
