// Every fusion pattern against the CPU reference (which runs the nodes one by one): conv + bias
// + activation + residual, batch norm + ReLU, matmul + bias + activation, binary + post-ops, and
// a multi-stage graph whose intermediate lives in the workspace.
#include "OnednnHarness.hpp"

#include <gtest/gtest.h>

namespace {

using namespace onednn_test;
using hipdnn_test_sdk::PointwiseOptions;
using hipdnn_test_sdk::ToleranceOp;
using Mode = fb::PointwiseMode;
constexpr auto F32 = fb::DataType::FLOAT;

struct Activation {
    std::string name;
    Mode mode;
    PointwiseOptions options;
};

const std::vector<Activation> kActivations{
    {"Relu", Mode::RELU_FWD, {}},
    {"ClippedRelu", Mode::RELU_FWD, reluClip(0.0F, 0.5F)},
    {"LeakyRelu", Mode::RELU_FWD, leakyRelu(0.1F)},
    {"Gelu", Mode::GELU_FWD, {}},
    {"GeluTanh", Mode::GELU_APPROX_TANH_FWD, {}},
    {"Sigmoid", Mode::SIGMOID_FWD, {}},
    {"Tanh", Mode::TANH_FWD, {}},
    {"Swish", Mode::SWISH_FWD, swish(1.5F)},
    {"Elu", Mode::ELU_FWD, elu(0.7F)},
};

struct FusionParam {
    Activation activation;
    bool channelsLast;
    bool residual;
};

class ConvBiasActivation : public testing::TestWithParam<FusionParam> {};

/// conv(x, w) + bias -> activation [-> + residual]; every intermediate virtual.
TEST_P(ConvBiasActivation, MatchesReference) {
    const auto& [activation, channelsLast, residual] = GetParam();
    const std::vector<int64_t> x{2, 8, 6, 6}, w{16, 8, 3, 3}, y{2, 16, 6, 6}, bias{1, 16, 1, 1};
    // Captured by copy: clang 14 cannot capture a structured binding.
    auto strides = [channelsLast = channelsLast](const std::vector<int64_t>& dims) {
        return layoutStrides(dims, channelsLast);
    };
    GraphBuilder builder("conv_bias_act");
    builder.addTensor(1, "x", F32, x, strides(x))
        .addTensor(2, "w", F32, w, strides(w))
        .addTensor(3, "conv", F32, y, strides(y), true)
        .addTensor(4, "bias", F32, bias, strides(bias))
        .addTensor(5, "biased", F32, y, strides(y), true)
        .addTensor(6, "act", F32, y, strides(y), residual)
        .addConvFprop("conv", 1, 2, 3, {{1, 1}, {1, 1}, {1, 1}, {1, 1}})
        .addPointwise("bias", Mode::ADD, 3, 5, 4)
        .addPointwise("act", activation.mode, 5, 6, {}, {}, activation.options);
    if (residual) {
        builder.addTensor(7, "residual", F32, y, strides(y))
            .addTensor(8, "y", F32, y, strides(y))
            .addPointwise("residual", Mode::ADD, 6, 8, 7);
    }
    expectMatchesReference(builder, ToleranceOp::ConvolutionFwd);
}

std::vector<FusionParam> fusionParams(bool residual) {
    std::vector<FusionParam> params;
    for (const auto& activation : kActivations) {
        for (bool channelsLast : {false, true}) {
            params.push_back({activation, channelsLast, residual});
        }
    }
    return params;
}

std::string fusionName(const testing::TestParamInfo<FusionParam>& info) {
    return info.param.activation.name + (info.param.channelsLast ? "_NHWC" : "_NCHW") +
           (info.param.residual ? "_Residual" : "");
}

INSTANTIATE_TEST_SUITE_P(Smoke, ConvBiasActivation, testing::ValuesIn(fusionParams(false)), fusionName);
INSTANTIATE_TEST_SUITE_P(SmokeResidual, ConvBiasActivation, testing::ValuesIn(fusionParams(true)),
                         fusionName);

class LayoutFusion : public testing::TestWithParam<bool> {};

TEST_P(LayoutFusion, ConvBiasOnly) {
    const bool nhwc = GetParam();
    const std::vector<int64_t> x{1, 4, 5, 5}, w{8, 4, 1, 1}, y{1, 8, 5, 5}, bias{1, 8, 1, 1};
    GraphBuilder builder("conv_bias");
    builder.addTensor(1, "x", F32, x, layoutStrides(x, nhwc))
        .addTensor(2, "w", F32, w, layoutStrides(w, nhwc))
        .addTensor(3, "conv", F32, y, layoutStrides(y, nhwc), true)
        .addTensor(4, "bias", F32, bias, layoutStrides(bias, nhwc))
        .addTensor(5, "y", F32, y, layoutStrides(y, nhwc))
        .addConvFprop("conv", 1, 2, 3, {{0, 0}, {0, 0}, {1, 1}, {1, 1}})
        .addPointwise("bias", Mode::ADD, 3, 5, 4);
    expectMatchesReference(builder, ToleranceOp::ConvolutionFwd);
}

TEST_P(LayoutFusion, BatchnormInferenceRelu) {
    const bool nhwc = GetParam();
    const std::vector<int64_t> x{2, 6, 4, 4}, c{1, 6, 1, 1};
    GraphBuilder builder("bn_relu");
    builder.addTensor(1, "x", F32, x, layoutStrides(x, nhwc));
    const char* params[] = {"mean", "inv_variance", "scale", "bias"};
    for (int64_t uid = 2; uid <= 5; ++uid) {
        builder.addTensor(uid, params[uid - 2], F32, c, layoutStrides(c, nhwc));
    }
    builder.addTensor(6, "bn", F32, x, layoutStrides(x, nhwc), true)
        .addTensor(7, "y", F32, x, layoutStrides(x, nhwc))
        .addBatchnormInference("bn", 1, 2, 3, 4, 5, 6)
        .addPointwise("relu", Mode::RELU_FWD, 6, 7);
    expectMatchesReference(builder, ToleranceOp::BatchnormInference, {{3, {0.5F, 2.0F}}});
}

TEST_P(LayoutFusion, BatchnormTrainingRelu) {
    const bool nhwc = GetParam();
    const std::vector<int64_t> x{4, 3, 5, 5}, c{1, 3, 1, 1};
    GraphBuilder builder("bn_train_relu");
    builder.addTensor(1, "x", F32, x, layoutStrides(x, nhwc))
        .addTensor(2, "scale", F32, c, layoutStrides(c, nhwc))
        .addTensor(3, "bias", F32, c, layoutStrides(c, nhwc))
        .addScalar(4, "epsilon", F32, 1e-5)
        .addTensor(5, "bn", F32, x, layoutStrides(x, nhwc), true)
        .addTensor(6, "mean", F32, c, layoutStrides(c, nhwc))
        .addTensor(7, "inv_variance", F32, c, layoutStrides(c, nhwc))
        .addTensor(8, "y", F32, x, layoutStrides(x, nhwc));
    hipdnn_test_sdk::BatchnormTrainingPorts ports;
    ports.x = 1;
    ports.scale = 2;
    ports.bias = 3;
    ports.epsilon = 4;
    ports.y = 5;
    ports.mean = 6;
    ports.invVariance = 7;
    builder.addBatchnormTraining("bn", ports).addPointwise("relu", Mode::RELU_FWD, 5, 8);
    expectMatchesReference(builder, ToleranceOp::BatchnormTraining);
}

TEST_P(LayoutFusion, ConvThenBatchnormTwoStages) {
    // conv -> (virtual, in the workspace) -> batch norm inference -> relu
    const bool nhwc = GetParam();
    const std::vector<int64_t> x{1, 4, 6, 6}, w{8, 4, 3, 3}, y{1, 8, 6, 6}, c{1, 8, 1, 1};
    GraphBuilder builder("conv_bn_relu");
    builder.addTensor(1, "x", F32, x, layoutStrides(x, nhwc))
        .addTensor(2, "w", F32, w, layoutStrides(w, nhwc))
        .addTensor(3, "conv", F32, y, layoutStrides(y, nhwc), true);
    const char* params[] = {"mean", "inv_variance", "scale", "bias"};
    for (int64_t uid = 4; uid <= 7; ++uid) {
        builder.addTensor(uid, params[uid - 4], F32, c, layoutStrides(c, nhwc));
    }
    builder.addTensor(8, "bn", F32, y, layoutStrides(y, nhwc), true)
        .addTensor(9, "y", F32, y, layoutStrides(y, nhwc))
        .addConvFprop("conv", 1, 2, 3, {{1, 1}, {1, 1}, {1, 1}, {1, 1}})
        .addBatchnormInference("bn", 3, 4, 5, 6, 7, 8)
        .addPointwise("relu", Mode::RELU_FWD, 8, 9);
    expectMatchesReference(builder, ToleranceOp::ConvolutionFwd, {{5, {0.5F, 2.0F}}});
}

INSTANTIATE_TEST_SUITE_P(Smoke, LayoutFusion, testing::Bool(), [](const testing::TestParamInfo<bool>& info) {
    return info.param ? "NHWC" : "NCHW";
});

struct MatmulFusionParam {
    std::string name;
    Activation activation;
};

class MatmulBiasActivation : public testing::TestWithParam<MatmulFusionParam> {};

TEST_P(MatmulBiasActivation, MatchesReference) {
    const auto& activation = GetParam().activation;
    GraphBuilder builder("matmul_bias_act");
    builder.addTensor(1, "a", F32, {3, 8, 32})
        .addTensor(2, "b", F32, {3, 32, 16})
        .addTensor(3, "c", F32, {3, 8, 16}, {}, true)
        .addTensor(4, "bias", F32, {1, 1, 16})
        .addTensor(5, "biased", F32, {3, 8, 16}, {}, true)
        .addTensor(6, "y", F32, {3, 8, 16})
        .addMatmul("mm", 1, 2, 3)
        .addPointwise("bias", Mode::ADD, 3, 5, 4)
        .addPointwise("act", activation.mode, 5, 6, {}, {}, activation.options);
    expectMatchesReference(builder, ToleranceOp::Matmul);
}

INSTANTIATE_TEST_SUITE_P(Smoke, MatmulBiasActivation,
                         testing::Values(MatmulFusionParam{"Relu", kActivations[0]},
                                         MatmulFusionParam{"Gelu", kActivations[3]},
                                         MatmulFusionParam{"Sigmoid", kActivations[5]}),
                         [](const testing::TestParamInfo<MatmulFusionParam>& info) {
                             return info.param.name;
                         });

TEST(SmokeBinaryFusion, AddThenMulByScalarThenTanh) {
    GraphBuilder builder("binary_chain");
    builder.addTensor(1, "a", F32, {2, 4, 3, 3})
        .addTensor(2, "b", F32, {1, 4, 1, 1})
        .addTensor(3, "sum", F32, {2, 4, 3, 3}, {}, true)
        .addScalar(4, "half", F32, 0.5)
        .addTensor(5, "scaled", F32, {2, 4, 3, 3}, {}, true)
        .addTensor(6, "y", F32, {2, 4, 3, 3})
        .addPointwise("add", Mode::ADD, 1, 3, 2)
        .addPointwise("mul", Mode::MUL, 3, 5, 4)
        .addPointwise("tanh", Mode::TANH_FWD, 5, 6);
    expectMatchesReference(builder, ToleranceOp::Pointwise);
}

}  // namespace
