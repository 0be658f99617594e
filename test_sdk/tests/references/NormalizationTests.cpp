#include "ReferenceTestHelpers.hpp"

#include <hipdnn_test_sdk/references/Normalization.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace {

using namespace reference_tests;

TEST(Layernorm, HandWorkedTrainingAndBroadcastScale) {
    // Row 0 = {1, 3}: mean 2, variance 1; row 1 = {0, 4}: mean 2, variance 4 (epsilon 0).
    auto x = packed<float>({2, 2, 1}, {1, 3, 0, 4});
    auto scale = packed<float>({1, 1, 1}, {2});  // broadcast over the row
    auto bias = packed<float>({1, 2, 1}, {1, -1});
    auto y = packedZeros<float>({2, 2, 1});
    auto mean = packedZeros<float>({2, 1, 1});
    auto invVariance = packedZeros<float>({2, 1, 1});
    refs::layernormForward<float, float>(x.constView(), scale.constView(), bias.constView(), 0.0, y.view(),
                                         mean.view(), invVariance.view());
    EXPECT_EQ(y.rowMajor(), (std::vector<float>{-1, 1, -1, 1}));
    EXPECT_EQ(mean.rowMajor(), (std::vector<float>{2, 2}));
    EXPECT_EQ(invVariance.rowMajor(), (std::vector<float>{1, 0.5f}));
    EXPECT_THROW((refs::layernormForward<float, float>(x.constView(), scale.constView(), bias.constView(),
                                                       0.0, y.view(), mean.view(), std::nullopt)),
                 std::invalid_argument);
}

TEST(RmsNorm, HandWorkedForward) {
    // Row {3, 4}: mean square 12.5; row {1, 1}: 1 (epsilon 0).
    auto x = packed<float>({2, 2}, {3, 4, 1, 1});
    auto scale = packed<float>({1, 2}, {1, 2});
    auto bias = packed<float>({1, 2}, {0.5f, 0});
    auto y = packedZeros<float>({2, 2});
    auto invRms = packedZeros<float>({2, 1});
    refs::rmsnormForward<float, float>(x.constView(), scale.constView(), bias.constView(), 0.0, y.view(),
                                       invRms.view());
    const float r = 1.0f / std::sqrt(12.5f);
    const auto values = y.rowMajor();
    EXPECT_FLOAT_EQ(values[0], 3 * r + 0.5f);
    EXPECT_FLOAT_EQ(values[1], 8 * r);
    EXPECT_FLOAT_EQ(values[2], 1.5f);
    EXPECT_FLOAT_EQ(values[3], 2);
    EXPECT_FLOAT_EQ(invRms.storage[0], r);
    EXPECT_FLOAT_EQ(invRms.storage[1], 1);
}

TEST(RmsNorm, BackwardMatchesFiniteDifferences) {
    const std::vector<int64_t> dims{3, 2, 2};
    const auto xValues = randomValues(12, 21);
    const auto dyValues = randomValues(12, 22);
    const std::vector<float> scaleValues{1.5f, -0.5f, 0.25f, 2.0f};
    const double epsilon = 1e-3;
    auto loss = [&](const std::vector<double>& x, const std::vector<double>& scale) {
        double total = 0;
        for (size_t n = 0; n < 3; ++n) {
            double squares = 0;
            for (size_t i = 0; i < 4; ++i) {
                squares += x[n * 4 + i] * x[n * 4 + i];
            }
            const double r = 1.0 / std::sqrt(squares / 4 + epsilon);
            for (size_t i = 0; i < 4; ++i) {
                total += dyValues[n * 4 + i] * (x[n * 4 + i] * r * scale[i] + 0.5);
            }
        }
        return total;
    };
    auto x = packed<float>(dims, xValues);
    auto dy = packed<float>(dims, dyValues);
    auto scale = packed<float>({1, 2, 2}, scaleValues);
    auto y = packedZeros<float>(dims);
    auto invRms = packedZeros<float>({3, 1, 1});
    refs::rmsnormForward<float, float, double>(x.constView(), scale.constView(), std::nullopt, epsilon,
                                               y.view(), invRms.view());
    auto dx = packedZeros<float>(dims);
    auto dscale = packedZeros<float>({1, 2, 2});
    auto dbias = packedZeros<float>({1, 2, 2});
    refs::rmsnormBackward<float, float, double>(dy.constView(), x.constView(), scale.constView(),
                                                invRms.constView(), dx.view(), dscale.view(), dbias.view());
    std::vector<double> xd(xValues.begin(), xValues.end());
    std::vector<double> sd(scaleValues.begin(), scaleValues.end());
    for (size_t i = 0; i < xd.size(); ++i) {
        auto plus = xd;
        auto minus = xd;
        plus[i] += 1e-5;
        minus[i] -= 1e-5;
        EXPECT_NEAR(dx.storage[i], (loss(plus, sd) - loss(minus, sd)) / 2e-5, 1e-3) << i;
    }
    for (size_t i = 0; i < sd.size(); ++i) {
        auto plus = sd;
        auto minus = sd;
        plus[i] += 1e-5;
        minus[i] -= 1e-5;
        EXPECT_NEAR(dscale.storage[i], (loss(xd, plus) - loss(xd, minus)) / 2e-5, 1e-3) << i;
        EXPECT_FLOAT_EQ(dbias.storage[i], dyValues[i] + dyValues[4 + i] + dyValues[8 + i]);
    }
    // A broadcast scale (1, 2, 1) gets the gradient summed over the broadcast dim.
    auto scaleBroadcast = packed<float>({1, 2, 1}, {1.5f, -0.5f});
    auto dscaleBroadcast = packedZeros<float>({1, 2, 1});
    refs::rmsnormBackward<float, float, double>(dy.constView(), x.constView(), scaleBroadcast.constView(),
                                                invRms.constView(), dx.view(), dscaleBroadcast.view(),
                                                std::nullopt);
    EXPECT_NEAR(dscaleBroadcast.storage[0], dscale.storage[0] + dscale.storage[1], 1e-5);
    EXPECT_NEAR(dscaleBroadcast.storage[1], dscale.storage[2] + dscale.storage[3], 1e-5);
}

TEST(Layernorm, BackwardMatchesFiniteDifferences) {
    const std::vector<int64_t> dims{3, 2, 2};
    const auto xValues = randomValues(12, 31);
    const auto dyValues = randomValues(12, 32);
    const std::vector<float> scaleValues{1.5f, -0.5f, 0.25f, 2.0f};
    const double epsilon = 1e-3;
    // sum(dy * y) with y the forward pass from x: its gradient includes the statistics' dependence
    // on x, which the backward formula accounts for.
    auto loss = [&](const std::vector<double>& x, const std::vector<double>& scale) {
        double total = 0;
        for (size_t n = 0; n < 3; ++n) {
            double sum = 0;
            for (size_t i = 0; i < 4; ++i) {
                sum += x[n * 4 + i];
            }
            const double mean = sum / 4;
            double squares = 0;
            for (size_t i = 0; i < 4; ++i) {
                squares += (x[n * 4 + i] - mean) * (x[n * 4 + i] - mean);
            }
            const double r = 1.0 / std::sqrt(squares / 4 + epsilon);
            for (size_t i = 0; i < 4; ++i) {
                total += dyValues[n * 4 + i] * ((x[n * 4 + i] - mean) * r * scale[i] + 0.5);
            }
        }
        return total;
    };
    auto x = packed<float>(dims, xValues);
    auto dy = packed<float>(dims, dyValues);
    auto scale = packed<float>({1, 2, 2}, scaleValues);
    auto bias = packed<float>({1, 2, 2}, {0.5f, 0.5f, 0.5f, 0.5f});
    auto y = packedZeros<float>(dims);
    auto mean = packedZeros<float>({3, 1, 1});
    auto invVariance = packedZeros<float>({3, 1, 1});
    refs::layernormForward<float, float, double>(x.constView(), scale.constView(), bias.constView(), epsilon,
                                                 y.view(), mean.view(), invVariance.view());
    auto dx = packedZeros<float>(dims);
    auto dscale = packedZeros<float>({1, 2, 2});
    auto dbias = packedZeros<float>({1, 2, 2});
    refs::layernormBackward<float, float, double>(dy.constView(), x.constView(), scale.constView(),
                                                  mean.constView(), invVariance.constView(), dx.view(),
                                                  dscale.view(), dbias.view());
    std::vector<double> xd(xValues.begin(), xValues.end());
    std::vector<double> sd(scaleValues.begin(), scaleValues.end());
    for (size_t i = 0; i < xd.size(); ++i) {
        auto plus = xd;
        auto minus = xd;
        plus[i] += 1e-5;
        minus[i] -= 1e-5;
        EXPECT_NEAR(dx.storage[i], (loss(plus, sd) - loss(minus, sd)) / 2e-5, 1e-3) << i;
    }
    for (size_t i = 0; i < sd.size(); ++i) {
        auto plus = sd;
        auto minus = sd;
        plus[i] += 1e-5;
        minus[i] -= 1e-5;
        EXPECT_NEAR(dscale.storage[i], (loss(xd, plus) - loss(xd, minus)) / 2e-5, 1e-3) << i;
        EXPECT_FLOAT_EQ(dbias.storage[i], dyValues[i] + dyValues[4 + i] + dyValues[8 + i]);
    }
    // A broadcast scale (1, 2, 1) gets its gradients summed over the broadcast dim.
    auto scaleBroadcast = packed<float>({1, 2, 1}, {1.5f, -0.5f});
    auto dscaleBroadcast = packedZeros<float>({1, 2, 1});
    auto dbiasBroadcast = packedZeros<float>({1, 2, 1});
    refs::layernormBackward<float, float, double>(dy.constView(), x.constView(), scaleBroadcast.constView(),
                                                  mean.constView(), invVariance.constView(), dx.view(),
                                                  dscaleBroadcast.view(), dbiasBroadcast.view());
    EXPECT_NEAR(dscaleBroadcast.storage[0], dscale.storage[0] + dscale.storage[1], 1e-5);
    EXPECT_NEAR(dscaleBroadcast.storage[1], dscale.storage[2] + dscale.storage[3], 1e-5);
    EXPECT_NEAR(dbiasBroadcast.storage[1], dbias.storage[2] + dbias.storage[3], 1e-5);
    // Statistics of the wrong shape are named.
    auto wrongMean = packedZeros<float>({1, 1, 1});
    try {
        refs::layernormBackward<float, float, double>(dy.constView(), x.constView(), scale.constView(),
                                                      wrongMean.constView(), invVariance.constView(),
                                                      dx.view(), dscale.view(), dbias.view());
        FAIL() << "a (1, 1, 1) mean for 3 rows was accepted";
    } catch (const std::invalid_argument& error) {
        EXPECT_NE(std::string(error.what()).find("layernorm backward mean dims [1, 1, 1]"), std::string::npos)
            << error.what();
    }
}

}  // namespace
