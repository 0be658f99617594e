// The engine's decisions (which graphs it takes, the reason when it declines, the workspace it
// asks for) and its execution through the plugin SDK's DeviceBuffers, without the backend.
#include "ExampleEngineName.hpp"
#include "ReluAddEngine.hpp"

#include <hipdnn_data_sdk/utilities/Tensor.hpp>
#include <hipdnn_flatbuffers_sdk/Builders.hpp>
#include <hipdnn_test_sdk/AllCloseAssertions.hpp>
#include <hipdnn_test_sdk/CpuGraphExecutor.hpp>
#include <hipdnn_test_sdk/GraphBuilder.hpp>
#include <hipdnn_test_sdk/Seed.hpp>
#include <hipdnn_test_sdk/Tolerances.hpp>

#include <gtest/gtest.h>

#include <string>
#include <unordered_map>
#include <vector>

namespace {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;
using example_plugin::ExampleHandle;
using example_plugin::ReluAddEngine;
using hipdnn_data_sdk::utilities::Tensor;
using hipdnn_data_sdk::utilities::TensorLayout;
using hipdnn_flatbuffers_sdk::EngineConfigWrapper;
using hipdnn_flatbuffers_sdk::GraphWrapper;
using hipdnn_test_sdk::GraphBuilder;

constexpr int64_t kX = 1;
constexpr int64_t kBias = 2;
constexpr int64_t kSum = 3;
constexpr int64_t kY = 4;

// y = relu(x + bias): x NHWC {2, 3, 4, 4}, bias {1, 3, 1, 1}, the sum virtual.
GraphBuilder biasReluGraph() {
    GraphBuilder builder("bias_relu");
    builder.addTensor(kX, "x", fb::DataType::FLOAT, {2, 3, 4, 4}, {48, 1, 12, 3})
        .addTensor(kBias, "bias", fb::DataType::FLOAT, {1, 3, 1, 1})
        .addTensor(kSum, "sum", fb::DataType::FLOAT, {2, 3, 4, 4}, {}, true)
        .addTensor(kY, "y", fb::DataType::FLOAT, {2, 3, 4, 4})
        .addPointwise("add_bias", fb::PointwiseMode::ADD, kX, kSum, kBias)
        .addPointwise("relu", fb::PointwiseMode::RELU_FWD, kSum, kY);
    return builder;
}

class EngineTest : public ::testing::Test {
protected:
    bool applicable(const std::vector<uint8_t>& bytes, std::string& reason) {
        const GraphWrapper graph(bytes.data(), bytes.size());
        return _engine.isApplicable(_handle, graph, reason);
    }

    ExampleHandle _handle;
    ReluAddEngine _engine{example_plugin::EXAMPLE_RELU_ADD_ENGINE_ID};
};

TEST_F(EngineTest, IdIsTheHashOfTheRegisteredName) {
    EXPECT_EQ(_engine.id(), hipdnn_data_sdk::utilities::engineNameToId("EXAMPLE_RELU_ADD_ENGINE"));
    EXPECT_EQ(_engine.name(), "EXAMPLE_RELU_ADD_ENGINE");
}

TEST_F(EngineTest, AcceptsAnAddReluChainAndPutsTheVirtualTensorInTheWorkspace) {
    const std::vector<uint8_t> bytes = biasReluGraph().build();
    std::string reason;
    EXPECT_TRUE(applicable(bytes, reason)) << reason;
    const GraphWrapper graph(bytes.data(), bytes.size());
    const std::vector<uint8_t> configBytes = hipdnn_flatbuffers_sdk::makeEngineConfig(_engine.id(), {});
    const EngineConfigWrapper config(configBytes.data(), configBytes.size());
    EXPECT_EQ(_engine.workspaceSize(_handle, config, graph), 2u * 3 * 4 * 4 * sizeof(float));
}

TEST_F(EngineTest, DeclinesOtherPointwiseModesNamingTheNode) {
    const std::vector<uint8_t> bytes = GraphBuilder()
                                           .addTensor(kX, "x", fb::DataType::FLOAT, {4})
                                           .addTensor(kBias, "b", fb::DataType::FLOAT, {4})
                                           .addTensor(kY, "y", fb::DataType::FLOAT, {4})
                                           .addPointwise("scale", fb::PointwiseMode::MUL, kX, kY, kBias)
                                           .build();
    std::string reason;
    EXPECT_FALSE(applicable(bytes, reason));
    EXPECT_NE(reason.find("'scale'"), std::string::npos) << reason;
    EXPECT_NE(reason.find("MUL"), std::string::npos) << reason;
}

TEST_F(EngineTest, DeclinesOtherOperationsNamingTheNode) {
    const std::vector<uint8_t> bytes = GraphBuilder()
                                           .addTensor(kX, "a", fb::DataType::FLOAT, {4, 4})
                                           .addTensor(kBias, "b", fb::DataType::FLOAT, {4, 4})
                                           .addTensor(kY, "c", fb::DataType::FLOAT, {4, 4})
                                           .addMatmul("projection", kX, kBias, kY)
                                           .build();
    std::string reason;
    EXPECT_FALSE(applicable(bytes, reason));
    EXPECT_NE(reason.find("'projection'"), std::string::npos) << reason;
}

TEST_F(EngineTest, DeclinesHalfTensorsNamingTheTensor) {
    const std::vector<uint8_t> bytes = GraphBuilder()
                                           .addTensor(kX, "x_half", fb::DataType::HALF, {8})
                                           .addTensor(kY, "y", fb::DataType::FLOAT, {8})
                                           .addPointwise("relu", fb::PointwiseMode::RELU_FWD, kX, kY)
                                           .build();
    std::string reason;
    EXPECT_FALSE(applicable(bytes, reason));
    EXPECT_NE(reason.find("'relu'"), std::string::npos) << reason;
    EXPECT_NE(reason.find("'x_half' is HALF"), std::string::npos) << reason;
}

// The graph contract already refuses inputs that do not broadcast at all; a lower-rank input
// broadcasts by the contract's rule, but this engine's kernels take equal ranks only.
TEST_F(EngineTest, DeclinesInputsThatDoNotBroadcast) {
    const std::vector<uint8_t> bytes = GraphBuilder()
                                           .addTensor(kX, "x", fb::DataType::FLOAT, {2, 3})
                                           .addTensor(kBias, "b", fb::DataType::FLOAT, {3})
                                           .addTensor(kY, "y", fb::DataType::FLOAT, {2, 3})
                                           .addPointwise("add", fb::PointwiseMode::ADD, kX, kY, kBias)
                                           .build();
    std::string reason;
    EXPECT_FALSE(applicable(bytes, reason));
    EXPECT_NE(reason.find("'b' does not broadcast"), std::string::npos) << reason;
}

TEST_F(EngineTest, DeclinesClippedRelu) {
    hipdnn_test_sdk::PointwiseOptions clipped;
    clipped.reluUpperClip = 6.0f;
    const std::vector<uint8_t> bytes =
        GraphBuilder()
            .addTensor(kX, "x", fb::DataType::FLOAT, {8})
            .addTensor(kY, "y", fb::DataType::FLOAT, {8})
            .addPointwise("relu6", fb::PointwiseMode::RELU_FWD, kX, kY, std::nullopt, std::nullopt, clipped)
            .build();
    std::string reason;
    EXPECT_FALSE(applicable(bytes, reason));
    EXPECT_NE(reason.find("'relu6'"), std::string::npos) << reason;
}

// The execution context against the test SDK's CPU reference executor, on strided inputs.
TEST_F(EngineTest, ExecutionMatchesTheTestSdkReference) {
    const std::vector<uint8_t> bytes = biasReluGraph().build();
    const GraphWrapper graph(bytes.data(), bytes.size());
    Tensor<float> x({2, 3, 4, 4}, TensorLayout::NHWC);
    Tensor<float> bias({1, 3, 1, 1}, TensorLayout::NCHW);
    Tensor<float> expected({2, 3, 4, 4}, TensorLayout::NCHW);
    Tensor<float> actual({2, 3, 4, 4}, TensorLayout::NCHW);
    x.fillRandom(-1.0, 1.0, hipdnn_test_sdk::globalTestSeed());
    bias.fillRandom(-0.5, 0.5, hipdnn_test_sdk::globalTestSeed() + 1);
    actual.fillSentinel();

    hipdnn_test_sdk::CpuGraphExecutor().execute(
        graph, {{kX, x.data()}, {kBias, bias.data()}, {kY, expected.data()}});

    const std::vector<uint8_t> configBytes = hipdnn_flatbuffers_sdk::makeEngineConfig(_engine.id(), {});
    const EngineConfigWrapper config(configBytes.data(), configBytes.size());
    auto context = _engine.createExecutionContext(_handle, config, graph);
    std::vector<std::byte> workspace(context->workspaceSize());
    const std::vector<hipdnnPluginDeviceBuffer_t> buffers = {
        {kX, x.data()}, {kBias, bias.data()}, {kY, actual.data()}};
    context->execute(_handle, workspace.data(),
                     hipdnn_plugin_sdk::DeviceBuffers(buffers.data(), static_cast<uint32_t>(buffers.size())));

    HIPDNN_EXPECT_ALL_CLOSE(
        hipdnn_test_sdk::viewOf(expected, fb::DataType::FLOAT),
        hipdnn_test_sdk::viewOf(actual, fb::DataType::FLOAT),
        hipdnn_test_sdk::fixedTolerance(hipdnn_test_sdk::ToleranceOp::Pointwise, fb::DataType::FLOAT));
}

}  // namespace
