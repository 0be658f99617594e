// Convolutions (fprop, dgrad, wgrad) and fused conv epilogues on the GPU against the CPU
// reference, over fp32/fp16/bf16 and NCHW/NHWC.
#include "CudnnHarness.hpp"

#include <hipdnn_test_sdk/SkipIfNoDevice.hpp>

#include <gtest/gtest.h>

namespace cudnn_integration {
namespace {

using hipdnn_test_sdk::ToleranceOp;

struct ConvCase {
    fb::DataType type;
    bool channelsLast;
    int64_t n, c, k, h, w, r, s;
    int64_t pad, stride, dilation;
};

std::string caseName(const testing::TestParamInfo<ConvCase>& info) {
    const ConvCase& c = info.param;
    return std::string(fb::EnumNameDataType(c.type)) + (c.channelsLast ? "_NHWC_" : "_NCHW_") + "n" +
           std::to_string(c.n) + "c" + std::to_string(c.c) + "k" + std::to_string(c.k) + "h" +
           std::to_string(c.h) + "r" + std::to_string(c.r) + "s" + std::to_string(c.stride);
}

int64_t outputSize(int64_t in, int64_t window, const ConvCase& c) {
    return (in + 2 * c.pad - c.dilation * (window - 1) - 1) / c.stride + 1;
}

hipdnn_test_sdk::ConvolutionGeometry geometry(const ConvCase& c) {
    return {{c.pad, c.pad}, {c.pad, c.pad}, {c.stride, c.stride}, {c.dilation, c.dilation}};
}

struct Shapes {
    std::vector<int64_t> x, w, y;
};

Shapes shapes(const ConvCase& c) {
    return {{c.n, c.c, c.h, c.w},
            {c.k, c.c, c.r, c.s},
            {c.n, c.k, outputSize(c.h, c.r, c), outputSize(c.w, c.s, c)}};
}

class ConvTest : public testing::TestWithParam<ConvCase> {};

TEST_P(ConvTest, Fprop) {
    SKIP_IF_NO_DEVICE();
    const ConvCase& c = GetParam();
    const Shapes s = shapes(c);
    GraphBuilder builder("conv_fprop");
    builder.addTensor(1, "x", c.type, s.x, layoutStrides(s.x, c.channelsLast))
        .addTensor(2, "w", c.type, s.w, layoutStrides(s.w, c.channelsLast))
        .addTensor(3, "y", c.type, s.y, layoutStrides(s.y, c.channelsLast))
        .addConvFprop("conv", 1, 2, 3, geometry(c));
    RunOptions options;
    options.reductionTerms = c.c * c.r * c.s;
    expectMatchesReference(builder, ToleranceOp::ConvolutionFwd, options);
}

TEST_P(ConvTest, Dgrad) {
    SKIP_IF_NO_DEVICE();
    const ConvCase& c = GetParam();
    const Shapes s = shapes(c);
    GraphBuilder builder("conv_dgrad");
    builder.addTensor(1, "dy", c.type, s.y, layoutStrides(s.y, c.channelsLast))
        .addTensor(2, "w", c.type, s.w, layoutStrides(s.w, c.channelsLast))
        .addTensor(3, "dx", c.type, s.x, layoutStrides(s.x, c.channelsLast))
        .addConvDgrad("dgrad", 1, 2, 3, geometry(c));
    RunOptions options;
    options.reductionTerms = c.k * c.r * c.s;
    expectMatchesReference(builder, ToleranceOp::ConvolutionBwd, options);
}

TEST_P(ConvTest, Wgrad) {
    SKIP_IF_NO_DEVICE();
    const ConvCase& c = GetParam();
    const Shapes s = shapes(c);
    GraphBuilder builder("conv_wgrad");
    builder.addTensor(1, "x", c.type, s.x, layoutStrides(s.x, c.channelsLast))
        .addTensor(2, "dy", c.type, s.y, layoutStrides(s.y, c.channelsLast))
        .addTensor(3, "dw", c.type, s.w, layoutStrides(s.w, c.channelsLast))
        .addConvWgrad("wgrad", 1, 2, 3, geometry(c));
    RunOptions options;
    options.reductionTerms = s.y[0] * s.y[2] * s.y[3];
    expectMatchesReference(builder, ToleranceOp::ConvolutionWrw, options);
}

std::vector<ConvCase> smokeCases() {
    std::vector<ConvCase> cases;
    for (fb::DataType type : {fb::DataType::FLOAT, fb::DataType::HALF, fb::DataType::BFLOAT16}) {
        for (bool channelsLast : {false, true}) {
            cases.push_back({type, channelsLast, 2, 16, 8, 10, 10, 3, 3, 1, 1, 1});
        }
    }
    cases.push_back({fb::DataType::BFLOAT16, true, 2, 16, 32, 9, 9, 3, 3, 1, 2, 1});
    cases.push_back({fb::DataType::HALF, true, 1, 32, 16, 8, 8, 1, 1, 0, 1, 1});
    return cases;
}

// ResNet-50 layer shapes at a small batch.
std::vector<ConvCase> fullCases() {
    std::vector<ConvCase> cases;
    for (fb::DataType type : {fb::DataType::FLOAT, fb::DataType::BFLOAT16}) {
        cases.push_back({type, true, 2, 64, 64, 56, 56, 3, 3, 1, 1, 1});
        cases.push_back({type, true, 2, 256, 64, 56, 56, 1, 1, 0, 1, 1});
        cases.push_back({type, true, 2, 128, 128, 28, 28, 3, 3, 1, 1, 1});
        cases.push_back({type, true, 2, 256, 512, 28, 28, 1, 1, 0, 2, 1});
        cases.push_back({type, false, 2, 64, 64, 56, 56, 3, 3, 1, 1, 1});
    }
    cases.push_back({fb::DataType::HALF, true, 2, 16, 16, 12, 12, 3, 3, 2, 1, 2});
    return cases;
}

INSTANTIATE_TEST_SUITE_P(Smoke, ConvTest, testing::ValuesIn(smokeCases()), caseName);
INSTANTIATE_TEST_SUITE_P(Full, ConvTest, testing::ValuesIn(fullCases()), caseName);

// conv -> (+ bias) -> (* scale) -> (+ residual) -> relu, every intermediate virtual.
class ConvEpilogueTest : public testing::TestWithParam<fb::DataType> {};

TEST_P(ConvEpilogueTest, ConvBiasRelu) {
    SKIP_IF_NO_DEVICE();
    const fb::DataType type = GetParam();
    const std::vector<int64_t> x = {2, 16, 8, 8}, w = {32, 16, 3, 3}, y = {2, 32, 8, 8}, bias = {1, 32, 1, 1};
    GraphBuilder builder("conv_bias_relu");
    builder.addTensor(1, "x", type, x, layoutStrides(x, true))
        .addTensor(2, "w", type, w, layoutStrides(w, true))
        .addTensor(3, "conv", fb::DataType::FLOAT, y, layoutStrides(y, true), true)
        .addTensor(4, "bias", type, bias, layoutStrides(bias, true))
        .addTensor(5, "biased", fb::DataType::FLOAT, y, layoutStrides(y, true), true)
        .addTensor(6, "y", type, y, layoutStrides(y, true))
        .addConvFprop("conv", 1, 2, 3, {{1, 1}, {1, 1}, {1, 1}, {1, 1}})
        .addPointwise("bias", fb::PointwiseMode::ADD, 3, 5, 4)
        .addPointwise("relu", fb::PointwiseMode::RELU_FWD, 5, 6);
    expectMatchesReference(builder, ToleranceOp::ConvolutionFwd);
}

TEST_P(ConvEpilogueTest, ConvScaleBiasResidualRelu) {
    SKIP_IF_NO_DEVICE();
    const fb::DataType type = GetParam();
    const std::vector<int64_t> x = {2, 16, 8, 8}, w = {16, 16, 3, 3}, y = {2, 16, 8, 8},
                               channel = {1, 16, 1, 1};
    const auto nhwc = [](const std::vector<int64_t>& dims) { return layoutStrides(dims, true); };
    GraphBuilder builder("conv_scale_bias_add_relu");
    builder.addTensor(1, "x", type, x, nhwc(x))
        .addTensor(2, "w", type, w, nhwc(w))
        .addTensor(3, "conv", fb::DataType::FLOAT, y, nhwc(y), true)
        .addScalar(4, "alpha", fb::DataType::FLOAT, 0.5)
        .addTensor(5, "scaled", fb::DataType::FLOAT, y, nhwc(y), true)
        .addTensor(6, "bias", type, channel, nhwc(channel))
        .addTensor(7, "biased", fb::DataType::FLOAT, y, nhwc(y), true)
        .addTensor(8, "residual", type, y, nhwc(y))
        .addTensor(9, "summed", fb::DataType::FLOAT, y, nhwc(y), true)
        .addTensor(10, "y", type, y, nhwc(y))
        .addConvFprop("conv", 1, 2, 3, {{1, 1}, {1, 1}, {1, 1}, {1, 1}})
        .addPointwise("scale", fb::PointwiseMode::MUL, 3, 5, 4)
        .addPointwise("bias", fb::PointwiseMode::ADD, 5, 7, 6)
        .addPointwise("residual", fb::PointwiseMode::ADD, 7, 9, 8)
        .addPointwise("relu", fb::PointwiseMode::RELU_FWD, 9, 10);
    expectMatchesReference(builder, ToleranceOp::ConvolutionFwd);
}

INSTANTIATE_TEST_SUITE_P(Smoke, ConvEpilogueTest, testing::Values(fb::DataType::HALF, fb::DataType::BFLOAT16),
                         [](const testing::TestParamInfo<fb::DataType>& info) {
                             return std::string(fb::EnumNameDataType(info.param));
                         });

}  // namespace
}  // namespace cudnn_integration
