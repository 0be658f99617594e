// Matmul (+ bias + activation) and pointwise chains on the GPU against the CPU reference.
#include "CudnnHarness.hpp"

#include <hipdnn_test_sdk/SkipIfNoDevice.hpp>

#include <gtest/gtest.h>

namespace cudnn_integration {
namespace {

using hipdnn_test_sdk::ToleranceOp;

std::string typeName(const testing::TestParamInfo<fb::DataType>& info) {
    return fb::EnumNameDataType(info.param);
}

class MatmulTest : public testing::TestWithParam<fb::DataType> {};

TEST_P(MatmulTest, BatchedMatmul) {
    SKIP_IF_NO_DEVICE();
    const fb::DataType type = GetParam();
    GraphBuilder builder("matmul");
    builder.addTensor(1, "a", type, {4, 32, 64})
        .addTensor(2, "b", type, {4, 64, 48})
        .addTensor(3, "c", type, {4, 32, 48})
        .addMatmul("matmul", 1, 2, 3);
    RunOptions options;
    options.reductionTerms = 64;
    expectMatchesReference(builder, ToleranceOp::Matmul, options);
}

TEST_P(MatmulTest, MatmulBiasRelu) {
    SKIP_IF_NO_DEVICE();
    const fb::DataType type = GetParam();
    GraphBuilder builder("matmul_bias_relu");
    builder.addTensor(1, "a", type, {1, 64, 128})
        .addTensor(2, "b", type, {1, 128, 64})
        .addTensor(3, "mm", fb::DataType::FLOAT, {1, 64, 64}, {}, true)
        .addTensor(4, "bias", type, {1, 1, 64})
        .addTensor(5, "biased", fb::DataType::FLOAT, {1, 64, 64}, {}, true)
        .addTensor(6, "c", type, {1, 64, 64})
        .addMatmul("matmul", 1, 2, 3)
        .addPointwise("bias", fb::PointwiseMode::ADD, 3, 5, 4)
        .addPointwise("relu", fb::PointwiseMode::RELU_FWD, 5, 6);
    RunOptions options;
    options.reductionTerms = 128;
    expectMatchesReference(builder, ToleranceOp::Matmul, options);
}

INSTANTIATE_TEST_SUITE_P(Smoke, MatmulTest, testing::Values(fb::DataType::HALF, fb::DataType::BFLOAT16),
                         typeName);

// cuDNN's fp32 matmul engines compute in TF32 on Hopper: without cudnn.allow_tf32 the engines
// decline fp32 matmuls, saying why.
TEST(SmokeMatmulFp32, IsDeclinedWithoutTf32) {
    SKIP_IF_NO_DEVICE();
    GraphBuilder builder("matmul_fp32");
    builder.addTensor(1, "a", fb::DataType::FLOAT, {4, 32, 64})
        .addTensor(2, "b", fb::DataType::FLOAT, {4, 64, 48})
        .addTensor(3, "c", fb::DataType::FLOAT, {4, 32, 48})
        .addMatmul("matmul", 1, 2, 3);
    const auto [ranked, declined] = Backend::instance().gpuHeuristics(builder.build());
    EXPECT_TRUE(ranked.empty());
    EXPECT_NE(declined.find("cudnn.allow_tf32"), std::string::npos) << declined;
}

class PointwiseTest : public testing::TestWithParam<fb::DataType> {};

// y = relu(x * alpha + b): a scalar by value, a full tensor, an activation.
TEST_P(PointwiseTest, ScaleAddReluChain) {
    SKIP_IF_NO_DEVICE();
    const fb::DataType type = GetParam();
    const std::vector<int64_t> dims = {2, 8, 6, 6};
    const auto nhwc = layoutStrides(dims, true);
    GraphBuilder builder("pointwise_chain");
    builder.addTensor(1, "x", type, dims, nhwc)
        .addScalar(2, "alpha", fb::DataType::FLOAT, 1.5)
        .addTensor(3, "scaled", fb::DataType::FLOAT, dims, nhwc, true)
        .addTensor(4, "b", type, dims, nhwc)
        .addTensor(5, "sum", fb::DataType::FLOAT, dims, nhwc, true)
        .addTensor(6, "y", type, dims, nhwc)
        .addPointwise("scale", fb::PointwiseMode::MUL, 1, 3, 2)
        .addPointwise("add", fb::PointwiseMode::ADD, 3, 5, 4)
        .addPointwise("relu", fb::PointwiseMode::RELU_FWD, 5, 6);
    expectMatchesReference(builder, ToleranceOp::Pointwise);
}

GraphBuilder sigmoidOfBroadcastSub(fb::DataType type, bool channelsLast) {
    const std::vector<int64_t> dims = {2, 8, 4, 4}, channel = {1, 8, 1, 1};
    GraphBuilder builder("pointwise_broadcast");
    builder.addTensor(1, "x", type, dims, layoutStrides(dims, channelsLast))
        .addTensor(2, "mean", type, channel, layoutStrides(channel, channelsLast))
        .addTensor(3, "centered", fb::DataType::FLOAT, dims, layoutStrides(dims, channelsLast), true)
        .addTensor(4, "y", type, dims, layoutStrides(dims, channelsLast))
        .addPointwise("sub", fb::PointwiseMode::SUB, 1, 3, 2)
        .addPointwise("sigmoid", fb::PointwiseMode::SIGMOID_FWD, 3, 4);
    return builder;
}

TEST_P(PointwiseTest, SigmoidOfBroadcastSubNhwc) {
    SKIP_IF_NO_DEVICE();
    expectMatchesReference(sigmoidOfBroadcastSub(GetParam(), true), ToleranceOp::Pointwise);
}

// cuDNN ranks no engine for some pointwise-only NCHW graphs: matched, or declined with the reason.
TEST_P(PointwiseTest, SigmoidOfBroadcastSubNchw) {
    SKIP_IF_NO_DEVICE();
    RunOptions options;
    options.mayBeDeclined = true;
    expectMatchesReference(sigmoidOfBroadcastSub(GetParam(), false), ToleranceOp::Pointwise, options);
}

// cuDNN computes rank-2 graphs wrong without reporting an error (a 7x11 log wrote only its first
// row); the plugin lifts them to rank 3, so a matrix of any shape must match the reference.
TEST_P(PointwiseTest, RankTwoTanhOfAMatrix) {
    SKIP_IF_NO_DEVICE();
    const fb::DataType type = GetParam();
    const std::vector<int64_t> dims = {7, 11};
    GraphBuilder builder("pointwise_rank2");
    builder.addTensor(1, "x", type, dims)
        .addTensor(2, "y", type, dims)
        .addPointwise("tanh", fb::PointwiseMode::TANH_FWD, 1, 2);
    expectMatchesReference(builder, ToleranceOp::Pointwise);
}

INSTANTIATE_TEST_SUITE_P(Smoke, PointwiseTest,
                         testing::Values(fb::DataType::FLOAT, fb::DataType::HALF, fb::DataType::BFLOAT16),
                         typeName);

}  // namespace
}  // namespace cudnn_integration
