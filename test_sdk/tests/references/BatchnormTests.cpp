#include "ReferenceTestHelpers.hpp"

#include <hipdnn_data_sdk/types.hpp>
#include <hipdnn_test_sdk/references/Batchnorm.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace {

using namespace reference_tests;
using hipdnn_data_sdk::types::half;

TEST(Batchnorm, InferenceHandWorked) {
    // Channel 0: (x - 1) * 2 * 3 + 1; channel 1: (x - 0) * 0.5 * 1 - 1.
    auto x = packed<float>({1, 2, 1, 2}, {1, 2, 4, 6});
    auto mean = packed<float>({1, 2, 1, 1}, {1, 0});
    auto invVariance = packed<float>({1, 2, 1, 1}, {2, 0.5f});
    auto scale = packed<float>({1, 2, 1, 1}, {3, 1});
    auto bias = packed<float>({1, 2, 1, 1}, {1, -1});
    auto y = packedZeros<float>({1, 2, 1, 2});
    refs::batchnormInference<float, float>(x.constView(), mean.constView(), invVariance.constView(),
                                           scale.constView(), bias.constView(), y.view());
    EXPECT_EQ(y.rowMajor(), (std::vector<float>{1, 7, 1, 2}));
    // Variance form: variance 0.25 - eps gives inv_variance 2 for channel 0, 4 - eps gives 0.5.
    const float epsilon = 1e-3f;
    auto variance = packed<float>({1, 2, 1, 1}, {0.25f - epsilon, 4.0f - epsilon});
    refs::batchnormInferenceWithVariance<float, float>(x.constView(), mean.constView(), variance.constView(),
                                                       scale.constView(), bias.constView(), epsilon,
                                                       y.view());
    const auto values = y.rowMajor();
    const std::vector<float> expected{1, 7, 1, 2};
    for (size_t i = 0; i < values.size(); ++i) {
        EXPECT_NEAR(values[i], expected[i], 1e-5f);
    }
}

TEST(Batchnorm, TrainingStatisticsAndRunningUpdate) {
    // One channel, x = {1, 3, 5, 7}: mean 4, biased variance 5, unbiased 20/3.
    auto x = packed<float>({2, 1, 1, 2}, {1, 3, 5, 7});
    auto scale = packed<float>({1, 1, 1, 1}, {2});
    auto bias = packed<float>({1, 1, 1, 1}, {1});
    auto prevMean = packed<float>({1, 1, 1, 1}, {10});
    auto prevVariance = packed<float>({1, 1, 1, 1}, {1});
    auto nextMean = packedZeros<float>({1, 1, 1, 1});
    auto nextVariance = packedZeros<float>({1, 1, 1, 1});
    auto mean = packedZeros<float>({1, 1, 1, 1});
    auto invVariance = packedZeros<float>({1, 1, 1, 1});
    auto y = packedZeros<float>({2, 1, 1, 2});
    refs::BatchnormRunningStats<float> running{prevMean.constView(), prevVariance.constView(),
                                               nextMean.view(), nextVariance.view(), 0.25};
    refs::batchnormTraining<float, float>(x.constView(), scale.constView(), bias.constView(), 0.0, y.view(),
                                          mean.view(), invVariance.view(), running);
    EXPECT_FLOAT_EQ(mean.storage[0], 4.0f);
    EXPECT_FLOAT_EQ(invVariance.storage[0], 1.0f / std::sqrt(5.0f));
    EXPECT_FLOAT_EQ(nextMean.storage[0], 0.75f * 10 + 0.25f * 4);
    EXPECT_FLOAT_EQ(nextVariance.storage[0], 0.75f * 1 + 0.25f * 20.0f / 3.0f);
    const auto values = y.rowMajor();
    for (size_t i = 0; i < values.size(); ++i) {
        EXPECT_NEAR(values[i], 2.0f * (static_cast<float>(2 * i + 1) - 4.0f) / std::sqrt(5.0f) + 1.0f, 1e-6f);
    }
}

TEST(Batchnorm, BackwardMatchesFiniteDifferencesWithAndWithoutSavedStats) {
    const std::vector<int64_t> dims{2, 2, 2, 3};
    const auto xValues = randomValues(24, 11);
    const auto dyValues = randomValues(24, 12);
    const std::vector<double> scaleValues{1.5, -0.5};
    const double epsilon = 1e-3;
    // Loss L = sum(dy * y) with y from training-mode batch norm, in double.
    auto loss = [&](const std::vector<double>& x) {
        double total = 0;
        for (int64_t c = 0; c < 2; ++c) {
            double sum = 0;
            double squares = 0;
            std::vector<size_t> indices;
            for (size_t i = 0; i < x.size(); ++i) {
                if (static_cast<int64_t>(i / 6) % 2 == c) {
                    indices.push_back(i);
                    sum += x[i];
                }
            }
            const double mean = sum / static_cast<double>(indices.size());
            for (size_t i : indices) {
                squares += (x[i] - mean) * (x[i] - mean);
            }
            const double invStd = 1.0 / std::sqrt(squares / static_cast<double>(indices.size()) + epsilon);
            for (size_t i : indices) {
                total += dyValues[i] * scaleValues[static_cast<size_t>(c)] * (x[i] - mean) * invStd;
            }
        }
        return total;
    };
    std::vector<double> xDouble(xValues.begin(), xValues.end());
    // The references are instantiated for float I/O; compute in double.
    auto xf = packed<float>(dims, xValues);
    auto dyf = packed<float>(dims, dyValues);
    auto scalef = packed<float>({1, 2, 1, 1}, {1.5f, -0.5f});
    auto dxf = packedZeros<float>(dims);
    auto dscalef = packedZeros<float>({1, 2, 1, 1});
    auto dbiasf = packedZeros<float>({1, 2, 1, 1});
    refs::batchnormBackward<float, float, double>(dyf.constView(), xf.constView(), std::nullopt, std::nullopt,
                                                  scalef.constView(), epsilon, dxf.view(), dscalef.view(),
                                                  dbiasf.view());
    for (size_t i = 0; i < xDouble.size(); ++i) {
        auto plus = xDouble;
        auto minus = xDouble;
        plus[i] += 1e-5;
        minus[i] -= 1e-5;
        const double numeric = (loss(plus) - loss(minus)) / 2e-5;
        EXPECT_NEAR(dxf.storage[i], numeric, 1e-3) << i;
    }
    // dbias = sum(dy) per channel.
    for (int64_t c = 0; c < 2; ++c) {
        double sum = 0;
        for (size_t i = 0; i < dyValues.size(); ++i) {
            sum += static_cast<int64_t>(i / 6) % 2 == c ? dyValues[i] : 0.0;
        }
        EXPECT_FLOAT_EQ(dbiasf.storage[static_cast<size_t>(c)], static_cast<float>(sum));
    }
    // With the statistics saved by training, backward gives the same gradients.
    auto mean = packedZeros<float>({1, 2, 1, 1});
    auto invVariance = packedZeros<float>({1, 2, 1, 1});
    auto bias = packed<float>({1, 2, 1, 1}, {0, 0});
    auto y = packedZeros<float>(dims);
    refs::batchnormTraining<float, float>(xf.constView(), scalef.constView(), bias.constView(), epsilon,
                                          y.view(), mean.view(), invVariance.view(), std::nullopt);
    auto dxSaved = packedZeros<float>(dims);
    auto dscaleSaved = packedZeros<float>({1, 2, 1, 1});
    auto dbiasSaved = packedZeros<float>({1, 2, 1, 1});
    refs::batchnormBackward<float, float>(dyf.constView(), xf.constView(), mean.constView(),
                                          invVariance.constView(), scalef.constView(), std::nullopt,
                                          dxSaved.view(), dscaleSaved.view(), dbiasSaved.view());
    for (size_t i = 0; i < dxSaved.storage.size(); ++i) {
        EXPECT_NEAR(dxSaved.storage[i], dxf.storage[i], 1e-4f);
    }
    for (size_t c = 0; c < 2; ++c) {
        EXPECT_NEAR(dscaleSaved.storage[c], dscalef.storage[c], 1e-4f);
    }
    // Without saved statistics, epsilon is required.
    EXPECT_THROW((refs::batchnormBackward<float, float>(
                     dyf.constView(), xf.constView(), std::nullopt, std::nullopt, scalef.constView(),
                     std::nullopt, dxSaved.view(), dscaleSaved.view(), dbiasSaved.view())),
                 std::invalid_argument);
}

TEST(Batchnorm, HalfActivationsWithFloatParametersAreLayoutIndependent) {
    const std::vector<int64_t> dims{2, 3, 2, 2};
    const auto values = randomValues(24, 13);
    std::vector<half> halfValues;
    for (float v : values) {
        halfValues.push_back(half(v));
    }
    auto scale = packed<float>({1, 3, 1, 1}, {1, 2, 0.5f});
    auto bias = packed<float>({1, 3, 1, 1}, {0, 1, -1});
    std::vector<std::vector<half>> results;
    for (const bool last : {false, true}) {
        const auto strides = last ? channelsLast(dims) : refs::packedStrides(dims);
        StridedTensor<half> x(dims, strides, halfValues);
        StridedTensor<half> y(dims, strides);
        refs::batchnormTraining<half, float>(x.constView(), scale.constView(), bias.constView(), 1e-5,
                                             y.view(), std::nullopt, std::nullopt, std::nullopt);
        results.push_back(y.rowMajor());
    }
    ASSERT_EQ(results[0].size(), results[1].size());
    for (size_t i = 0; i < results[0].size(); ++i) {
        EXPECT_EQ(results[0][i].bits(), results[1][i].bits()) << i;
    }
}

}  // namespace
