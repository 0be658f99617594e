// Convolution fprop, dgrad and wgrad against the CPU reference: 1x1 and 3x3, stride with
// asymmetric padding, dilation, groups, 3-D; NCHW and NHWC (NCDHW and NDHWC).
#include "OnednnHarness.hpp"

#include <gtest/gtest.h>

namespace {

using namespace onednn_test;
using hipdnn_test_sdk::ToleranceOp;

enum class Direction { Fprop, Dgrad, Wgrad };

struct ConvCase {
    std::string name;
    std::vector<int64_t> x;       // N, C, spatial...
    int64_t k;                    // output channels
    std::vector<int64_t> filter;  // spatial
    int64_t groups;
    std::vector<int64_t> pre, post, stride, dilation;
};

struct ConvParam {
    ConvCase conv;
    bool channelsLast;
    Direction direction;
};

std::string paramName(const testing::TestParamInfo<ConvParam>& info) {
    const char* direction[] = {"Fprop", "Dgrad", "Wgrad"};
    return info.param.conv.name + (info.param.channelsLast ? "_ChannelsLast_" : "_ChannelsFirst_") +
           direction[static_cast<int>(info.param.direction)];
}

class Convolution : public testing::TestWithParam<ConvParam> {};

TEST_P(Convolution, MatchesReference) {
    const auto& [c, channelsLast, direction] = GetParam();
    std::vector<int64_t> y{c.x[0], c.k};
    std::vector<int64_t> w{c.k, c.x[1] / c.groups};
    for (size_t i = 0; i < c.filter.size(); ++i) {
        const int64_t extent = (c.filter[i] - 1) * c.dilation[i] + 1;
        y.push_back((c.x[i + 2] + c.pre[i] + c.post[i] - extent) / c.stride[i] + 1);
        w.push_back(c.filter[i]);
    }
    const hipdnn_test_sdk::ConvolutionGeometry geometry{c.pre, c.post, c.stride, c.dilation};
    // Terms summed per output element: fprop C/g*R*S, dgrad K/g*R*S, wgrad N*outputSpatial.
    int64_t filterVolume = 1;
    int64_t outputVolume = c.x[0];
    for (size_t i = 0; i < c.filter.size(); ++i) {
        filterVolume *= c.filter[i];
        outputVolume *= y[i + 2];
    }
    GraphBuilder builder("conv_" + c.name);
    const auto F32 = fb::DataType::FLOAT;
    builder.addTensor(1, "x", F32, c.x, layoutStrides(c.x, channelsLast))
        .addTensor(2, "w", F32, w, layoutStrides(w, channelsLast))
        .addTensor(3, "y", F32, y, layoutStrides(y, channelsLast));
    switch (direction) {
        case Direction::Fprop:
            builder.addConvFprop("fprop", 1, 2, 3, geometry);
            expectMatchesReference(builder, ToleranceOp::ConvolutionFwd, {},
                                   c.x[1] / c.groups * filterVolume);
            break;
        case Direction::Dgrad:
            builder.addConvDgrad("dgrad", 3, 2, 1, geometry);
            expectMatchesReference(builder, ToleranceOp::ConvolutionBwd, {}, c.k / c.groups * filterVolume);
            break;
        case Direction::Wgrad:
            builder.addConvWgrad("wgrad", 1, 3, 2, geometry);
            expectMatchesReference(builder, ToleranceOp::ConvolutionWrw, {}, outputVolume);
            break;
    }
}

std::vector<ConvParam> combine(const std::vector<ConvCase>& cases) {
    std::vector<ConvParam> params;
    for (const auto& c : cases) {
        for (bool channelsLast : {false, true}) {
            for (auto direction : {Direction::Fprop, Direction::Dgrad, Direction::Wgrad}) {
                params.push_back({c, channelsLast, direction});
            }
        }
    }
    return params;
}

const std::vector<ConvCase> kSmoke{
    {"Basic3x3", {2, 8, 7, 7}, 16, {3, 3}, 1, {1, 1}, {1, 1}, {1, 1}, {1, 1}},
    {"Pointwise1x1", {2, 16, 5, 5}, 8, {1, 1}, 1, {0, 0}, {0, 0}, {1, 1}, {1, 1}},
    {"Stride2AsymmetricPad", {1, 8, 9, 8}, 8, {3, 3}, 1, {1, 0}, {0, 1}, {2, 2}, {1, 1}},
    {"Dilation2", {1, 4, 9, 9}, 8, {3, 3}, 1, {2, 2}, {2, 2}, {1, 1}, {2, 2}},
    {"Groups4", {2, 16, 6, 6}, 8, {3, 3}, 4, {1, 1}, {1, 1}, {1, 1}, {1, 1}},
    {"Conv3d", {1, 4, 5, 6, 6}, 8, {3, 3, 3}, 1, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}},
    {"Conv1d", {2, 4, 11}, 6, {3}, 1, {1}, {2}, {2}, {1}},
};
const std::vector<ConvCase> kFull{
    {"ResNet56x56_64to64", {1, 64, 56, 56}, 64, {3, 3}, 1, {1, 1}, {1, 1}, {1, 1}, {1, 1}},
    {"ResNet28x28_128Stride2", {2, 128, 28, 28}, 128, {3, 3}, 1, {1, 1}, {1, 1}, {2, 2}, {1, 1}},
    {"Depthwise32", {2, 32, 14, 14}, 32, {3, 3}, 32, {1, 1}, {1, 1}, {1, 1}, {1, 1}},
    {"Conv3dStride2Dilated", {2, 8, 9, 9, 9}, 8, {3, 3, 3}, 2, {2, 1, 0}, {0, 1, 2}, {2, 1, 2}, {1, 2, 1}},
};

INSTANTIATE_TEST_SUITE_P(Smoke, Convolution, testing::ValuesIn(combine(kSmoke)), paramName);
INSTANTIATE_TEST_SUITE_P(Full, Convolution, testing::ValuesIn(combine(kFull)), paramName);

}  // namespace
