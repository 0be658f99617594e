// The pattern matcher: which chains fold into one primitive, which stay apart, and how a graph
// the engine cannot cover is declined.
#include "BinaryPlan.hpp"
#include "FusionMatcher.hpp"

#include <hipdnn_test_sdk/GraphBuilder.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace {

using hipdnn_flatbuffers_sdk::GraphWrapper;
using hipdnn_onednn::Decline;
using hipdnn_onednn::matchStages;
using hipdnn_onednn::PostOp;
using hipdnn_onednn::StageKind;
using hipdnn_test_sdk::GraphBuilder;
using DataType = hipdnn_flatbuffers_sdk::data_objects::DataType;
using Mode = hipdnn_flatbuffers_sdk::data_objects::PointwiseMode;

constexpr auto F32 = DataType::FLOAT;

const hipdnn_test_sdk::ConvolutionGeometry kConv3x3{{1, 1}, {1, 1}, {1, 1}, {1, 1}};

/// x(1) w(2) -> conv(3, virtual unless `convOutputVirtual` is false) : the start of most graphs.
GraphBuilder convGraph(bool convOutputVirtual = true) {
    GraphBuilder builder("conv");
    builder.addTensor(1, "x", F32, {2, 8, 6, 6})
        .addTensor(2, "w", F32, {16, 8, 3, 3})
        .addTensor(3, "conv", F32, {2, 16, 6, 6}, {}, convOutputVirtual)
        .addConvFprop("conv", 1, 2, 3, kConv3x3);
    return builder;
}

std::vector<hipdnn_onednn::Stage> match(const GraphBuilder& builder) {
    const auto bytes = builder.build();
    return matchStages(GraphWrapper(bytes.data(), bytes.size()));
}

TEST(FusionMatcher, ConvBiasReluResidualIsOneStage) {
    auto builder = convGraph();
    builder.addTensor(4, "bias", F32, {1, 16, 1, 1})
        .addTensor(5, "biased", F32, {2, 16, 6, 6}, {}, true)
        .addTensor(6, "relu", F32, {2, 16, 6, 6}, {}, true)
        .addTensor(7, "residual", F32, {2, 16, 6, 6})
        .addTensor(8, "y", F32, {2, 16, 6, 6})
        .addPointwise("bias_add", Mode::ADD, 3, 5, 4)
        .addPointwise("relu", Mode::RELU_FWD, 5, 6)
        .addPointwise("residual_add", Mode::ADD, 7, 8, 6);  // residual on in_0: ADD commutes
    const auto stages = match(builder);
    ASSERT_EQ(stages.size(), 1U);
    const auto& stage = stages[0];
    EXPECT_EQ(stage.kind, StageKind::ConvFwd);
    EXPECT_EQ(stage.nodes, (std::vector<size_t>{0, 1, 2, 3}));
    ASSERT_TRUE(stage.biasUid.has_value());
    EXPECT_EQ(*stage.biasUid, 4);
    ASSERT_EQ(stage.postOps.size(), 2U);
    EXPECT_EQ(stage.postOps[0].kind, PostOp::Kind::Eltwise);
    EXPECT_EQ(stage.postOps[0].algorithm, dnnl::algorithm::eltwise_relu);
    EXPECT_EQ(stage.postOps[1].kind, PostOp::Kind::Binary);
    EXPECT_EQ(stage.postOps[1].algorithm, dnnl::algorithm::binary_add);
    EXPECT_EQ(stage.postOps[1].operandUid, 7);
    EXPECT_EQ(stage.outputUid, 8);
}

TEST(FusionMatcher, ActivationsMapToEltwisePostOps) {
    const std::vector<std::pair<Mode, dnnl::algorithm>> cases{
        {Mode::SIGMOID_FWD, dnnl::algorithm::eltwise_logistic},
        {Mode::TANH_FWD, dnnl::algorithm::eltwise_tanh},
        {Mode::GELU_FWD, dnnl::algorithm::eltwise_gelu_erf},
        {Mode::SWISH_FWD, dnnl::algorithm::eltwise_swish},
        {Mode::ELU_FWD, dnnl::algorithm::eltwise_elu},
    };
    for (const auto& [mode, algorithm] : cases) {
        auto builder = convGraph();
        builder.addTensor(4, "y", F32, {2, 16, 6, 6}).addPointwise("act", mode, 3, 4);
        const auto stages = match(builder);
        ASSERT_EQ(stages.size(), 1U) << hipdnn_flatbuffers_sdk::data_objects::EnumNamePointwiseMode(mode);
        ASSERT_EQ(stages[0].postOps.size(), 1U);
        EXPECT_EQ(stages[0].postOps[0].algorithm, algorithm);
    }
}

TEST(FusionMatcher, ClippedReluBecomesClip) {
    auto builder = convGraph();
    hipdnn_test_sdk::PointwiseOptions options;
    options.reluUpperClip = 6.0F;
    builder.addTensor(4, "y", F32, {2, 16, 6, 6})
        .addPointwise("relu6", Mode::RELU_FWD, 3, 4, {}, {}, options);
    const auto stages = match(builder);
    ASSERT_EQ(stages.size(), 1U);
    ASSERT_EQ(stages[0].postOps.size(), 1U);
    EXPECT_EQ(stages[0].postOps[0].algorithm, dnnl::algorithm::eltwise_clip_v2);
    EXPECT_FLOAT_EQ(stages[0].postOps[0].alpha, 0.0F);
    EXPECT_FLOAT_EQ(stages[0].postOps[0].beta, 6.0F);
}

TEST(FusionMatcher, BiasAfterActivationIsABinaryPostOp) {
    auto builder = convGraph();
    builder.addTensor(4, "relu", F32, {2, 16, 6, 6}, {}, true)
        .addTensor(5, "bias", F32, {1, 16, 1, 1})
        .addTensor(6, "y", F32, {2, 16, 6, 6})
        .addPointwise("relu", Mode::RELU_FWD, 3, 4)
        .addPointwise("bias_add", Mode::ADD, 4, 6, 5);
    const auto stages = match(builder);
    ASSERT_EQ(stages.size(), 1U);
    EXPECT_FALSE(stages[0].biasUid.has_value());
    ASSERT_EQ(stages[0].postOps.size(), 2U);
    EXPECT_EQ(stages[0].postOps[1].kind, PostOp::Kind::Binary);
    EXPECT_EQ(stages[0].postOps[1].operandUid, 5);
}

TEST(FusionMatcher, NonVirtualIntermediateStopsFusion) {
    auto builder = convGraph(false);
    builder.addTensor(4, "y", F32, {2, 16, 6, 6}).addPointwise("relu", Mode::RELU_FWD, 3, 4);
    const auto stages = match(builder);
    ASSERT_EQ(stages.size(), 2U);
    EXPECT_EQ(stages[0].kind, StageKind::ConvFwd);
    EXPECT_TRUE(stages[0].postOps.empty());
    EXPECT_EQ(stages[1].kind, StageKind::Eltwise);
}

TEST(FusionMatcher, IntermediateReadTwiceStopsFusion) {
    auto builder = convGraph();
    builder.addTensor(4, "a", F32, {2, 16, 6, 6})
        .addTensor(5, "b", F32, {2, 16, 6, 6})
        .addPointwise("relu", Mode::RELU_FWD, 3, 4)
        .addPointwise("tanh", Mode::TANH_FWD, 3, 5);
    const auto stages = match(builder);
    ASSERT_EQ(stages.size(), 3U);
    EXPECT_TRUE(stages[0].postOps.empty());
}

TEST(FusionMatcher, OperandProducedAfterThePrimaryIsNotFolded) {
    // conv -> (virtual) ; x2 = relu(x) computed after the conv ; y = conv + x2
    auto builder = convGraph();
    builder.addTensor(4, "other", F32, {2, 16, 6, 6})
        .addTensor(5, "other_relu", F32, {2, 16, 6, 6}, {}, true)
        .addTensor(6, "y", F32, {2, 16, 6, 6})
        .addPointwise("relu", Mode::RELU_FWD, 4, 5)
        .addPointwise("add", Mode::ADD, 3, 6, 5);
    const auto stages = match(builder);
    ASSERT_EQ(stages.size(), 3U);
    EXPECT_TRUE(stages[0].postOps.empty());
    EXPECT_EQ(stages[2].kind, StageKind::Binary);
}

TEST(FusionMatcher, BatchnormFoldsPlainReluOnly) {
    GraphBuilder builder("bn");
    builder.addTensor(1, "x", F32, {2, 4, 3, 3});
    const char* params[] = {"mean", "inv_variance", "scale", "bias"};
    for (int64_t uid = 2; uid <= 5; ++uid) {
        builder.addTensor(uid, params[uid - 2], F32, {1, 4, 1, 1});
    }
    builder.addTensor(6, "bn", F32, {2, 4, 3, 3}, {}, true)
        .addTensor(7, "relu", F32, {2, 4, 3, 3}, {}, true)
        .addTensor(8, "y", F32, {2, 4, 3, 3})
        .addBatchnormInference("bn", 1, 2, 3, 4, 5, 6)
        .addPointwise("relu", Mode::RELU_FWD, 6, 7)
        .addPointwise("tanh", Mode::TANH_FWD, 7, 8);
    const auto stages = match(builder);
    ASSERT_EQ(stages.size(), 2U);
    EXPECT_EQ(stages[0].kind, StageKind::BatchnormInference);
    EXPECT_TRUE(stages[0].fuseRelu);
    EXPECT_TRUE(stages[0].postOps.empty());
    EXPECT_EQ(stages[0].outputUid, 7);
    EXPECT_EQ(stages[1].kind, StageKind::Eltwise);
}

TEST(FusionMatcher, MatmulBiasActivation) {
    GraphBuilder builder("mm");
    builder.addTensor(1, "a", F32, {2, 8, 16})
        .addTensor(2, "b", F32, {2, 16, 4})
        .addTensor(3, "c", F32, {2, 8, 4}, {}, true)
        .addTensor(4, "bias", F32, {1, 1, 4})
        .addTensor(5, "biased", F32, {2, 8, 4}, {}, true)
        .addTensor(6, "y", F32, {2, 8, 4})
        .addMatmul("mm", 1, 2, 3)
        .addPointwise("bias", Mode::ADD, 3, 5, 4)
        .addPointwise("gelu", Mode::GELU_APPROX_TANH_FWD, 5, 6);
    const auto stages = match(builder);
    ASSERT_EQ(stages.size(), 1U);
    EXPECT_EQ(stages[0].kind, StageKind::Matmul);
    EXPECT_EQ(stages[0].biasUid, std::optional<int64_t>(4));
    ASSERT_EQ(stages[0].postOps.size(), 1U);
    EXPECT_EQ(stages[0].postOps[0].algorithm, dnnl::algorithm::eltwise_gelu_tanh);
}

TEST(FusionMatcher, BinaryPrimaryTakesPostOps) {
    GraphBuilder builder("pw");
    builder.addTensor(1, "a", F32, {2, 3, 4})
        .addTensor(2, "b", F32, {2, 3, 4})
        .addTensor(3, "sum", F32, {2, 3, 4}, {}, true)
        .addTensor(4, "y", F32, {2, 3, 4})
        .addPointwise("add", Mode::ADD, 1, 3, 2)
        .addPointwise("sigmoid", Mode::SIGMOID_FWD, 3, 4);
    const auto stages = match(builder);
    ASSERT_EQ(stages.size(), 1U);
    EXPECT_EQ(stages[0].kind, StageKind::Binary);
    ASSERT_EQ(stages[0].postOps.size(), 1U);
}

TEST(FusionMatcher, UnsupportedModeMidChainNamesTheNode) {
    auto builder = convGraph();
    builder.addTensor(4, "sin", F32, {2, 16, 6, 6}, {}, true)
        .addTensor(5, "y", F32, {2, 16, 6, 6})
        .addPointwise("sine", Mode::SIN, 3, 4)
        .addPointwise("relu", Mode::RELU_FWD, 4, 5);
    try {
        match(builder);
        FAIL() << "expected a decline";
    } catch (const Decline& decline) {
        const std::string reason = decline.what();
        EXPECT_THAT(reason, testing::HasSubstr("node 1 'sine'"));
        EXPECT_THAT(reason, testing::HasSubstr("PointwiseAttributes SIN"));
        EXPECT_THAT(reason, testing::HasSubstr("no oneDNN eltwise algorithm"));
    }
}

TEST(FusionMatcher, RmsNormIsDeclined) {
    GraphBuilder builder("rms");
    builder.addTensor(1, "x", F32, {2, 8})
        .addTensor(2, "scale", F32, {1, 8})
        .addScalar(3, "eps", F32, 1e-5)
        .addTensor(4, "y", F32, {2, 8})
        .addRmsNorm("rms", 1, 2, 3, 4);
    EXPECT_THROW(
        {
            try {
                match(builder);
            } catch (const Decline& decline) {
                EXPECT_THAT(decline.what(), testing::HasSubstr("node 0 'rms' (RMSNormAttributes)"));
                throw;
            }
        },
        Decline);
}

TEST(FusionMatcher, BinaryModeMapping) {
    using hipdnn_onednn::binaryAlgorithmFor;
    using hipdnn_onednn::isCommutative;
    EXPECT_EQ(binaryAlgorithmFor(Mode::SUB), dnnl::algorithm::binary_sub);
    EXPECT_EQ(binaryAlgorithmFor(Mode::CMP_GE), dnnl::algorithm::binary_ge);
    EXPECT_FALSE(binaryAlgorithmFor(Mode::POW).has_value());
    EXPECT_FALSE(binaryAlgorithmFor(Mode::RELU_BWD).has_value());
    EXPECT_TRUE(isCommutative(Mode::MUL));
    EXPECT_FALSE(isCommutative(Mode::DIV));
}

}  // namespace
