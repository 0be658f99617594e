#include "ReferenceTestHelpers.hpp"

#include <hipdnn_data_sdk/types.hpp>
#include <hipdnn_test_sdk/references/Pointwise.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace {

using namespace reference_tests;
using M = refs::PointwiseMode;

refs::PointwiseParams withMode(M mode) {
    refs::PointwiseParams params;
    params.mode = mode;
    return params;
}

std::vector<float> unary(refs::PointwiseParams params, const std::vector<float>& x) {
    auto in = packed<float>({static_cast<int64_t>(x.size())}, x);
    auto out = packedZeros<float>({static_cast<int64_t>(x.size())});
    refs::pointwise<float, float>(params, in.constView(), std::nullopt, std::nullopt, out.view());
    return out.rowMajor();
}

std::vector<float> binary(M mode, const std::vector<float>& a, const std::vector<float>& b) {
    auto in0 = packed<float>({static_cast<int64_t>(a.size())}, a);
    auto in1 = packed<float>({static_cast<int64_t>(b.size())}, b);
    auto out = packedZeros<float>({static_cast<int64_t>(a.size())});
    refs::pointwise<float, float>(withMode(mode), in0.constView(), in1.constView(), std::nullopt, out.view());
    return out.rowMajor();
}

TEST(Pointwise, UnaryHandWorked) {
    EXPECT_EQ(unary(withMode(M::ABS), {-2, 3}), (std::vector<float>{2, 3}));
    EXPECT_EQ(unary(withMode(M::CEIL), {-1.5f, 1.25f}), (std::vector<float>{-1, 2}));
    EXPECT_EQ(unary(withMode(M::FLOOR), {-1.5f, 1.25f}), (std::vector<float>{-2, 1}));
    EXPECT_EQ(unary(withMode(M::NEG), {-1, 2}), (std::vector<float>{1, -2}));
    EXPECT_EQ(unary(withMode(M::RECIPROCAL), {4, -0.5f}), (std::vector<float>{0.25f, -2}));
    EXPECT_EQ(unary(withMode(M::RSQRT), {4, 0.25f}), (std::vector<float>{0.5f, 2}));
    EXPECT_EQ(unary(withMode(M::SQRT), {9, 0.25f}), (std::vector<float>{3, 0.5f}));
    EXPECT_EQ(unary(withMode(M::LOGICAL_NOT), {0, -3}), (std::vector<float>{1, 0}));
    EXPECT_EQ(unary(withMode(M::IDENTITY), {7, -7}), (std::vector<float>{7, -7}));
    EXPECT_EQ(unary(withMode(M::EXP), {0}), (std::vector<float>{1}));
    EXPECT_EQ(unary(withMode(M::LOG), {1}), (std::vector<float>{0}));
    EXPECT_EQ(unary(withMode(M::SIGMOID_FWD), {0}), (std::vector<float>{0.5f}));
    EXPECT_EQ(unary(withMode(M::GELU_FWD), {0, 0}), (std::vector<float>{0, 0}));
    EXPECT_FLOAT_EQ(unary(withMode(M::GELU_FWD), {1})[0], 0.5f * (1.0f + std::erf(1.0f / std::sqrt(2.0f))));
    EXPECT_FLOAT_EQ(unary(withMode(M::SOFTPLUS_FWD), {0})[0], std::log(2.0f));
    EXPECT_FLOAT_EQ(unary(withMode(M::SOFTPLUS_FWD), {100})[0], 100.0f);  // no overflow
}

TEST(Pointwise, ReluClipsAndSlope) {
    refs::PointwiseParams relu = withMode(M::RELU_FWD);
    EXPECT_EQ(unary(relu, {-2, 0, 3}), (std::vector<float>{0, 0, 3}));
    relu.reluLowerClipSlope = 0.5;
    relu.reluUpperClip = 2;
    EXPECT_EQ(unary(relu, {-2, 1, 3}), (std::vector<float>{-1, 1, 2}));
    relu.reluLowerClip = 1;
    EXPECT_EQ(unary(relu, {-1, 1.5f, 3}), (std::vector<float>{0, 1.5f, 2}));
}

TEST(Pointwise, ActivationParameters) {
    refs::PointwiseParams elu = withMode(M::ELU_FWD);
    elu.eluAlpha = 2;
    EXPECT_FLOAT_EQ(unary(elu, {-1})[0], 2.0f * (std::exp(-1.0f) - 1.0f));
    refs::PointwiseParams swish = withMode(M::SWISH_FWD);
    swish.swishBeta = 2;
    EXPECT_FLOAT_EQ(unary(swish, {1})[0], 1.0f / (1.0f + std::exp(-2.0f)));
    refs::PointwiseParams softplus = withMode(M::SOFTPLUS_FWD);
    softplus.softplusBeta = 2;
    EXPECT_FLOAT_EQ(unary(softplus, {1})[0], std::log1p(std::exp(2.0f)) / 2.0f);
}

TEST(Pointwise, BinaryAndComparisons) {
    EXPECT_EQ(binary(M::ADD, {1, 2}, {3, 4}), (std::vector<float>{4, 6}));
    EXPECT_EQ(binary(M::SUB, {1, 2}, {3, 4}), (std::vector<float>{-2, -2}));
    EXPECT_EQ(binary(M::MUL, {1, 2}, {3, 4}), (std::vector<float>{3, 8}));
    EXPECT_EQ(binary(M::DIV, {1, 2}, {4, 4}), (std::vector<float>{0.25f, 0.5f}));
    EXPECT_EQ(binary(M::ADD_SQUARE, {1, 2}, {3, -4}), (std::vector<float>{10, 18}));
    EXPECT_EQ(binary(M::MAX_OP, {1, 5}, {3, 4}), (std::vector<float>{3, 5}));
    EXPECT_EQ(binary(M::MIN_OP, {1, 5}, {3, 4}), (std::vector<float>{1, 4}));
    EXPECT_EQ(binary(M::POW, {2, 9}, {3, 0.5f}), (std::vector<float>{8, 3}));
    EXPECT_EQ(binary(M::MOD, {7, -7}, {3, 3}), (std::vector<float>{1, -1}));
    EXPECT_EQ(binary(M::CMP_EQ, {1, 2}, {1, 3}), (std::vector<float>{1, 0}));
    EXPECT_EQ(binary(M::CMP_NEQ, {1, 2}, {1, 3}), (std::vector<float>{0, 1}));
    EXPECT_EQ(binary(M::CMP_GT, {1, 2, 3}, {2, 2, 2}), (std::vector<float>{0, 0, 1}));
    EXPECT_EQ(binary(M::CMP_GE, {1, 2, 3}, {2, 2, 2}), (std::vector<float>{0, 1, 1}));
    EXPECT_EQ(binary(M::CMP_LT, {1, 2, 3}, {2, 2, 2}), (std::vector<float>{1, 0, 0}));
    EXPECT_EQ(binary(M::CMP_LE, {1, 2, 3}, {2, 2, 2}), (std::vector<float>{1, 1, 0}));
    EXPECT_EQ(binary(M::LOGICAL_AND, {0, 2, 0, 3}, {0, 0, 1, 1}), (std::vector<float>{0, 0, 0, 1}));
    EXPECT_EQ(binary(M::LOGICAL_OR, {0, 2, 0, 3}, {0, 0, 1, 1}), (std::vector<float>{0, 1, 1, 1}));
}

// *_BWD modes take in_0 = dy and in_1 = x (the forward input).
TEST(Pointwise, BackwardConventionIsDyThenX) {
    EXPECT_EQ(binary(M::RELU_BWD, {5, 5, 5}, {-1, 0, 2}), (std::vector<float>{0, 0, 5}));
    EXPECT_EQ(binary(M::SIGMOID_BWD, {4}, {0}), (std::vector<float>{1}));
    EXPECT_EQ(binary(M::TANH_BWD, {3}, {0}), (std::vector<float>{3}));
    EXPECT_EQ(binary(M::GELU_BWD, {2}, {0}), (std::vector<float>{1}));
    EXPECT_EQ(binary(M::GELU_APPROX_TANH_BWD, {2}, {0}), (std::vector<float>{1}));
    EXPECT_EQ(binary(M::SOFTPLUS_BWD, {2}, {0}), (std::vector<float>{1}));
    EXPECT_EQ(binary(M::SWISH_BWD, {2}, {0}), (std::vector<float>{1}));
    EXPECT_EQ(binary(M::ELU_BWD, {2, 2}, {1, 0}), (std::vector<float>{2, 2}));
    // Each backward mode is the derivative of its forward mode (central differences).
    for (const auto& [forward, backward] :
         {std::pair{M::SIGMOID_FWD, M::SIGMOID_BWD}, std::pair{M::TANH_FWD, M::TANH_BWD},
          std::pair{M::ELU_FWD, M::ELU_BWD}, std::pair{M::GELU_FWD, M::GELU_BWD},
          std::pair{M::GELU_APPROX_TANH_FWD, M::GELU_APPROX_TANH_BWD},
          std::pair{M::SOFTPLUS_FWD, M::SOFTPLUS_BWD}, std::pair{M::SWISH_FWD, M::SWISH_BWD}}) {
        for (const float x : {-1.3f, -0.4f, 0.7f, 1.9f}) {
            const float h = 1e-2f;
            const auto values = unary(withMode(forward), {x - h, x + h});
            const float numeric = (values[1] - values[0]) / (2 * h);
            EXPECT_NEAR(binary(backward, {1}, {x})[0], numeric, 1e-3f)
                << static_cast<int>(backward) << " at " << x;
        }
    }
}

TEST(Pointwise, BroadcastsPerChannelAndSelects) {
    // x (1, 2, 1, 2) + bias (1, 2, 1, 1), output in NHWC strides.
    auto x = packed<float>({1, 2, 1, 2}, {1, 2, 3, 4});
    auto bias = packed<float>({1, 2, 1, 1}, {10, 20});
    StridedTensor<float> out({1, 2, 1, 2}, channelsLast({1, 2, 1, 2}));
    refs::pointwise<float, float>(withMode(M::ADD), x.constView(), bias.constView(), std::nullopt,
                                  out.view());
    EXPECT_EQ(out.rowMajor(), (std::vector<float>{11, 12, 23, 24}));
    // A lower-rank in_1 aligns from the right.
    auto row = packed<float>({2}, {100, 200});
    refs::pointwise<float, float>(withMode(M::ADD), x.constView(), row.constView(), std::nullopt, out.view());
    EXPECT_EQ(out.rowMajor(), (std::vector<float>{101, 202, 103, 204}));
    auto mask = packed<float>({1, 2, 1, 2}, {1, 0, 0, 2});
    refs::pointwise<float, float>(withMode(M::BINARY_SELECT), x.constView(), bias.constView(),
                                  mask.constView(), out.view());
    EXPECT_EQ(out.rowMajor(), (std::vector<float>{1, 10, 20, 4}));
    auto wrong = packed<float>({1, 3, 1, 1}, {1, 2, 3});
    EXPECT_THROW((refs::pointwise<float, float>(withMode(M::ADD), x.constView(), wrong.constView(),
                                                std::nullopt, out.view())),
                 std::invalid_argument);
    EXPECT_THROW((refs::pointwise<float, float>(withMode(M::ADD), x.constView(), std::nullopt, std::nullopt,
                                                out.view())),
                 std::invalid_argument);
}

TEST(Pointwise, GenIndexAndMixedOutputType) {
    auto x = packedZeros<float>({2, 3});
    auto out = packedZeros<hipdnn_data_sdk::types::half>({2, 3});
    refs::PointwiseParams params = withMode(M::GEN_INDEX);
    params.axis = 1;
    refs::pointwise<float, hipdnn_data_sdk::types::half>(params, x.constView(), std::nullopt, std::nullopt,
                                                         out.view());
    std::vector<float> values;
    for (const auto v : out.rowMajor()) {
        values.push_back(static_cast<float>(v));
    }
    EXPECT_EQ(values, (std::vector<float>{0, 1, 2, 0, 1, 2}));
    params.axis = 2;
    EXPECT_THROW((refs::pointwise<float, hipdnn_data_sdk::types::half>(params, x.constView(), std::nullopt,
                                                                       std::nullopt, out.view())),
                 std::invalid_argument);
}

}  // namespace
