// Plan serialization of ONEDNN_ENGINE: a context rebuilt from its serialized bytes runs a fused
// convolution + bias + relu bit-identically to the original (the same primitives, chosen the same
// way); bytes that are not a graph are refused naming the engine.
#include "OnednnEngine.hpp"

#include <hipdnn_flatbuffers_sdk/Builders.hpp>
#include <hipdnn_flatbuffers_sdk/EngineConfigWrapper.hpp>
#include <hipdnn_plugin_sdk/DeviceBuffers.hpp>
#include <hipdnn_plugin_sdk/PluginError.hpp>
#include <hipdnn_test_sdk/GraphBuilder.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

using hipdnn_flatbuffers_sdk::GraphWrapper;
using hipdnn_flatbuffers_sdk::data_objects::DataType;
using hipdnn_flatbuffers_sdk::data_objects::PointwiseMode;
using hipdnn_onednn::OnednnEngine;
using hipdnn_onednn::OnednnHandle;
using hipdnn_test_sdk::ConvolutionGeometry;
using hipdnn_test_sdk::GraphBuilder;

std::vector<float> wave(size_t count, float frequency) {
    std::vector<float> values(count);
    for (size_t i = 0; i < count; ++i) {
        values[i] = std::sin(static_cast<float>(i) * frequency);
    }
    return values;
}

TEST(OnednnPlanSerialization, ARebuiltContextRunsBitIdentically) {
    const OnednnEngine engine;
    OnednnHandle handle;
    // x [1, 8, 10, 10] * w [16, 8, 3, 3], padding 1, then + bias [1, 16, 1, 1] and relu.
    const auto bytes = GraphBuilder("conv_bias_relu")
                           .addTensor(1, "x", DataType::FLOAT, {1, 8, 10, 10})
                           .addTensor(2, "w", DataType::FLOAT, {16, 8, 3, 3})
                           .addTensor(3, "conv", DataType::FLOAT, {1, 16, 10, 10}, {}, /*isVirtual=*/true)
                           .addTensor(4, "bias", DataType::FLOAT, {1, 16, 1, 1})
                           .addTensor(5, "biased", DataType::FLOAT, {1, 16, 10, 10}, {}, /*isVirtual=*/true)
                           .addTensor(6, "y", DataType::FLOAT, {1, 16, 10, 10})
                           .addConvFprop("conv", 1, 2, 3, ConvolutionGeometry{{1, 1}, {1, 1}, {1, 1}, {1, 1}})
                           .addPointwise("bias", PointwiseMode::ADD, 3, 5, 4)
                           .addPointwise("relu", PointwiseMode::RELU_FWD, 5, 6)
                           .build();
    const GraphWrapper graph(bytes.data(), bytes.size());
    std::string reason;
    ASSERT_TRUE(engine.isApplicable(handle, graph, reason)) << reason;
    const auto configBytes = hipdnn_flatbuffers_sdk::makeEngineConfig(engine.id(), {});
    const hipdnn_flatbuffers_sdk::EngineConfigWrapper config(configBytes.data(), configBytes.size());
    const auto original = engine.createExecutionContext(handle, config, graph);
    const std::vector<uint8_t> serialized = original->serialize();
    const auto restored = engine.deserializeExecutionContext(handle, serialized);
    EXPECT_EQ(restored->serialize(), serialized);
    ASSERT_EQ(restored->workspaceSize(), original->workspaceSize());

    const auto x = wave(1 * 8 * 10 * 10, 0.37f);
    const auto w = wave(16 * 8 * 3 * 3, 1.91f);
    const auto bias = wave(16, 0.5f);
    auto run = [&](hipdnn_plugin_sdk::IExecutionContext& context) {
        std::vector<float> y(16 * 10 * 10, 99.0f);
        std::vector<uint8_t> workspace(context.workspaceSize());
        const hipdnnPluginDeviceBuffer_t buffers[] = {{1, const_cast<float*>(x.data())},
                                                      {2, const_cast<float*>(w.data())},
                                                      {4, const_cast<float*>(bias.data())},
                                                      {6, y.data()}};
        context.execute(handle, workspace.data(), hipdnn_plugin_sdk::DeviceBuffers(buffers, 4));
        return y;
    };
    const auto expected = run(*original);
    const auto actual = run(*restored);
    EXPECT_NE(expected[0], 99.0f);
    EXPECT_EQ(std::memcmp(expected.data(), actual.data(), expected.size() * sizeof(float)), 0);
}

TEST(OnednnPlanSerialization, BytesThatAreNotAGraphAreRefusedNamingTheEngine) {
    const OnednnEngine engine;
    OnednnHandle handle;
    const std::vector<uint8_t> garbage(64, 0xAB);
    try {
        static_cast<void>(engine.deserializeExecutionContext(handle, garbage));
        FAIL() << "garbage deserialized";
    } catch (const hipdnn_plugin_sdk::PluginError& error) {
        EXPECT_EQ(error.status(), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
        EXPECT_NE(std::string(error.what()).find("ONEDNN_ENGINE (64 bytes) is not a valid graph"),
                  std::string::npos)
            << error.what();
    }
}

}  // namespace
