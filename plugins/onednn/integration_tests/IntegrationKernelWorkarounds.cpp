// Graphs of the differential fuzzer (tests/differential, seed 1) on which oneDNN 2.6 kernels
// misbehave, each run through the plugin and compared with the CPU reference. The harness puts
// the workspace and every tensor flush against a guard page, so a kernel writing past the
// scratchpad it reports or reading past a tensor faults instead of passing by luck.
#include "OnednnHarness.hpp"

#include <gtest/gtest.h>

#include <ostream>

namespace {

using namespace onednn_test;
using hipdnn_test_sdk::ToleranceOp;
using Mode = fb::PointwiseMode;
constexpr auto F32 = fb::DataType::FLOAT;

struct WgradCase {
    std::string name;
    std::vector<int64_t> x, dy, stride, dilation;
};

void PrintTo(const WgradCase& c, std::ostream* out) {
    *out << c.name;
}

class StridedPointwiseWgradChannelsLast : public testing::TestWithParam<WgradCase> {};

// 1x1 weight gradients with a stride of 2 along W on NHWC data: "jit_1x1:avx512_core" wrote
// past its scratchpad (graph 4682 faulted) and, with several threads, gave a wrong dw in some
// runs (graph 35469: 4 of 16 elements).
TEST_P(StridedPointwiseWgradChannelsLast, MatchesReference) {
    const auto& c = GetParam();
    const std::vector<int64_t> dw{c.dy[1], c.x[1], 1, 1};
    GraphBuilder builder("wgrad_" + c.name);
    builder.addTensor(1, "x", F32, c.x, layoutStrides(c.x, true))
        .addTensor(2, "dy", F32, c.dy, layoutStrides(c.dy, true))
        .addTensor(3, "dw", F32, dw, layoutStrides(dw, true))
        .addConvWgrad("wgrad", 1, 2, 3, {{0, 0}, {0, 0}, c.stride, c.dilation});
    const int64_t terms = c.dy[0] * c.dy[2] * c.dy[3];
    for (int run = 0; run < 20 && !HasFailure(); ++run) {
        expectMatchesReference(builder, ToleranceOp::ConvolutionWrw, {}, terms);
    }
}

INSTANTIATE_TEST_SUITE_P(Smoke, StridedPointwiseWgradChannelsLast,
                         testing::Values(WgradCase{"Graph4682", {3, 2, 9, 10}, {3, 4, 9, 5}, {1, 2}, {1, 1}},
                                         WgradCase{
                                             "Graph35469", {1, 4, 10, 4}, {1, 4, 10, 2}, {1, 2}, {1, 2}}),
                         [](const testing::TestParamInfo<WgradCase>& info) { return info.param.name; });

// Graph 59602: a forward convolution with a 1x1 output of 4 channels, tanh and a full `max`
// residual; the AVX-512 kernel read the residual with a 16-float load, past its 4 floats.
TEST(SmokeKernelWorkarounds, ConvolutionWithResidualOnAChannelTailReadsNoFurther) {
    const std::vector<int64_t> x{1, 1, 1, 3}, w{4, 1, 2, 2}, y{1, 4, 1, 1};
    GraphBuilder builder("conv_tanh_max");
    builder.addTensor(1, "w", F32, w, layoutStrides(w, true))
        .addTensor(2, "x", F32, x, layoutStrides(x, true))
        .addTensor(3, "conv", F32, y, layoutStrides(y, true), true)
        .addTensor(4, "tanh", F32, y, layoutStrides(y, true), true)
        .addTensor(5, "residual", F32, y, layoutStrides(y, true))
        .addTensor(6, "y", F32, y, layoutStrides(y, true))
        .addConvFprop("conv", 2, 1, 3, {{1, 0}, {2, 0}, {2, 2}, {2, 1}})
        .addPointwise("tanh", Mode::TANH_FWD, 3, 4)
        .addPointwise("max", Mode::MAX_OP, 4, 6, 5);
    expectMatchesReference(builder, ToleranceOp::ConvolutionFwd, {}, w[1] * w[2] * w[3]);
}

}  // namespace
