// Graphs the engine declines, and the reasons it gives: each names the node (index, name, op)
// and why. bf16 is checked honestly: on CPUs without bf16 support oneDNN 2.6 has no bf16
// primitives, and the engine must say so instead of failing at execute time.
#include "OnednnHarness.hpp"

#include <hipdnn_test_sdk/CpuGraphExecutor.hpp>

#include <oneapi/dnnl/dnnl.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace {

using namespace onednn_test;
using testing::HasSubstr;
using Mode = fb::PointwiseMode;
constexpr auto F32 = fb::DataType::FLOAT;

/// Declined by ONEDNN_ENGINE while the CPU reference runs it (so the graph itself is valid).
std::string expectDeclined(const GraphBuilder& builder) {
    const auto bytes = builder.build();
    const hipdnn_flatbuffers_sdk::GraphWrapper graph(bytes.data(), bytes.size());
    std::string referenceReason;
    EXPECT_TRUE(hipdnn_test_sdk::CpuGraphExecutor().canExecute(graph, referenceReason)) << referenceReason;
    const Applicability verdict = OnednnPlugin::instance().applicability(bytes);
    EXPECT_FALSE(verdict.applicable);
    EXPECT_THAT(verdict.reasons, HasSubstr("ONEDNN_ENGINE: "));
    return verdict.reasons;
}

GraphBuilder conv(fb::DataType type, fb::ConvMode mode = fb::ConvMode::CROSS_CORRELATION) {
    GraphBuilder builder("conv");
    builder.addTensor(1, "x", type, {1, 4, 6, 6})
        .addTensor(2, "w", type, {8, 4, 3, 3})
        .addTensor(3, "y", type, {1, 8, 4, 4})
        .addConvFprop("conv", 1, 2, 3, {{0, 0}, {0, 0}, {1, 1}, {1, 1}, mode});
    return builder;
}

TEST(SmokeDecline, Bfloat16ConvolutionFollowsTheCpu) {
    const auto bytes = conv(fb::DataType::BFLOAT16).build();
    const Applicability verdict = OnednnPlugin::instance().applicability(bytes);
    if (cpuHasBf16()) {
        EXPECT_TRUE(verdict.applicable) << verdict.reasons;
        return;
    }
    EXPECT_FALSE(verdict.applicable);
    EXPECT_THAT(verdict.reasons, HasSubstr("node 0 'conv' (ConvolutionFwdAttributes)"));
    EXPECT_THAT(verdict.reasons, HasSubstr("BFLOAT16"));
    EXPECT_THAT(verdict.reasons, HasSubstr("dnnl_unimplemented"));
}

TEST(SmokeDecline, Bfloat16PointwiseFollowsTheCpu) {
    GraphBuilder builder("relu_bf16");
    builder.addTensor(1, "x", fb::DataType::BFLOAT16, {2, 8})
        .addTensor(2, "y", fb::DataType::BFLOAT16, {2, 8})
        .addPointwise("relu", Mode::RELU_FWD, 1, 2);
    const Applicability verdict = OnednnPlugin::instance().applicability(builder.build());
    EXPECT_EQ(verdict.applicable, cpuHasBf16()) << verdict.reasons;
    if (!verdict.applicable) {
        EXPECT_THAT(verdict.reasons, HasSubstr("node 0 'relu' (PointwiseAttributes RELU_FWD)"));
    }
}

TEST(SmokeDecline, UnsupportedPointwiseModeMidChainNamesTheNode) {
    GraphBuilder builder("conv_sin_relu");
    builder.addTensor(1, "x", F32, {1, 4, 6, 6})
        .addTensor(2, "w", F32, {8, 4, 3, 3})
        .addTensor(3, "conv", F32, {1, 8, 4, 4}, {}, true)
        .addTensor(4, "sin", F32, {1, 8, 4, 4}, {}, true)
        .addTensor(5, "y", F32, {1, 8, 4, 4})
        .addConvFprop("conv", 1, 2, 3, {{0, 0}, {0, 0}, {1, 1}, {1, 1}})
        .addPointwise("sine", Mode::SIN, 3, 4)
        .addPointwise("relu", Mode::RELU_FWD, 4, 5);
    const std::string reason = expectDeclined(builder);
    EXPECT_THAT(reason, HasSubstr("node 1 'sine' (PointwiseAttributes SIN)"));
    EXPECT_THAT(reason, HasSubstr("no oneDNN eltwise algorithm"));
}

TEST(SmokeDecline, TrueConvolutionMode) {
    const std::string reason = expectDeclined(conv(F32, fb::ConvMode::CONVOLUTION));
    EXPECT_THAT(reason, HasSubstr("node 0 'conv'"));
    EXPECT_THAT(reason, HasSubstr("CROSS_CORRELATION"));
}

TEST(SmokeDecline, RmsNorm) {
    GraphBuilder builder("rms");
    builder.addTensor(1, "x", F32, {2, 8})
        .addTensor(2, "scale", F32, {1, 8})
        .addScalar(3, "eps", F32, 1e-5)
        .addTensor(4, "y", F32, {2, 8})
        .addRmsNorm("rms", 1, 2, 3, 4);
    EXPECT_THAT(expectDeclined(builder),
                HasSubstr("node 0 'rms' (RMSNormAttributes): oneDNN 2.6 has no RMS"));
}

TEST(SmokeDecline, MatmulBatchBroadcastFromADivisor) {
    GraphBuilder builder("mm");
    builder.addTensor(1, "a", F32, {4, 3, 5})
        .addTensor(2, "b", F32, {2, 5, 6})
        .addTensor(3, "c", F32, {4, 3, 6})
        .addMatmul("mm", 1, 2, 3);
    const auto bytes = builder.build();
    const Applicability verdict = OnednnPlugin::instance().applicability(bytes);
    EXPECT_FALSE(verdict.applicable);
    EXPECT_THAT(verdict.reasons,
                HasSubstr("node 0 'mm' (MatmulAttributes): batch dim 0 broadcasts other than from 1"));
}

TEST(SmokeDecline, PoolingIndices) {
    hipdnn_test_sdk::PoolingGeometry geometry;
    geometry.window = {2, 2};
    geometry.stride = {2, 2};
    geometry.prePadding = {0, 0};
    geometry.postPadding = {0, 0};
    GraphBuilder builder("pool_index");
    builder.addTensor(1, "x", F32, {1, 2, 4, 4})
        .addTensor(2, "y", F32, {1, 2, 2, 2})
        .addTensor(3, "index", fb::DataType::INT32, {1, 2, 2, 2})
        .addResample("pool", 1, 2, geometry, 3);
    const Applicability verdict = OnednnPlugin::instance().applicability(builder.build());
    EXPECT_FALSE(verdict.applicable);
    EXPECT_THAT(verdict.reasons, HasSubstr("node 0 'pool' (ResampleFwdAttributes): pooling indices"));
}

// A graph without nodes is no graph the engine can run: the empty JSON object `{}` used to be
// reported applicable (the CPU reference declined it). The graph contract now refuses it.
TEST(SmokeDecline, EmptyGraphIsNotApplicable) {
    // What JSON `{}` parses to (graphFromJson itself now refuses it): a Graph table with no fields.
    flatbuffers::FlatBufferBuilder builder;
    builder.Finish(fb::CreateGraph(builder));
    const std::vector<uint8_t> emptyObject(builder.GetBufferPointer(),
                                           builder.GetBufferPointer() + builder.GetSize());
    for (const auto& bytes : {emptyObject, GraphBuilder("empty").build()}) {
        const RawApplicability answer = OnednnPlugin::instance().rawApplicability(bytes);
        EXPECT_TRUE(answer.engineIds.empty());
        EXPECT_EQ(answer.status, HIPDNN_PLUGIN_STATUS_BAD_PARAM);
        EXPECT_THAT(answer.message, HasSubstr("has no nodes"));
    }
}

}  // namespace
