#include "CpuReferenceEngine.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_flatbuffers_sdk/Builders.hpp>
#include <hipdnn_flatbuffers_sdk/EngineConfigWrapper.hpp>
#include <hipdnn_plugin_sdk/DeviceBuffers.hpp>
#include <hipdnn_plugin_sdk/PluginError.hpp>
#include <hipdnn_test_sdk/GraphBuilder.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

namespace {

using namespace cpu_reference_plugin;
using hipdnn_flatbuffers_sdk::GraphWrapper;
using hipdnn_flatbuffers_sdk::data_objects::DataType;
using hipdnn_flatbuffers_sdk::data_objects::PointwiseMode;
using hipdnn_test_sdk::GraphBuilder;

std::vector<uint8_t> reluGraph(DataType type) {
    return GraphBuilder("relu")
        .addTensor(1, "x", type, {2, 2})
        .addTensor(2, "y", type, {2, 2})
        .addPointwise("relu", PointwiseMode::RELU_FWD, 1, 2)
        .build();
}

TEST(TestCpuReferenceEngine, HasTheRegisteredIdAndIsDeterministic) {
    const CpuReferenceEngine engine;
    EXPECT_EQ(engine.id(), hipdnn_data_sdk::utilities::CPU_REFERENCE_ENGINE_ID);
    EXPECT_EQ(engine.name(), "CPU_REFERENCE_ENGINE");
    EXPECT_EQ(
        engine.behaviorNotes(),
        (std::vector{
            hipdnn_flatbuffers_sdk::data_objects::BehaviorNote::DETERMINISTIC,
            hipdnn_flatbuffers_sdk::data_objects::BehaviorNote::SUPPORTS_EXECUTION_PLAN_SERIALIZATION}));
}

TEST(TestCpuReferenceEngine, AppliesToExecutableGraphsAndDeclinesOthersWithTheExecutorsReason) {
    const CpuReferenceEngine engine;
    CpuReferenceHandle handle;
    std::string reason;
    const auto ok = reluGraph(DataType::BFLOAT16);
    EXPECT_TRUE(engine.isApplicable(handle, GraphWrapper(ok.data(), ok.size()), reason)) << reason;

    const auto bad = reluGraph(DataType::INT32);
    EXPECT_FALSE(engine.isApplicable(handle, GraphWrapper(bad.data(), bad.size()), reason));
    EXPECT_NE(reason.find("node 0 'relu' (PointwiseAttributes): unsupported data type combination"),
              std::string::npos)
        << reason;
}

TEST(TestCpuReferenceEngine, ContextRunsTheGraphWithoutWorkspace) {
    const CpuReferenceEngine engine;
    CpuReferenceHandle handle;
    const auto bytes = reluGraph(DataType::FLOAT);
    const GraphWrapper graph(bytes.data(), bytes.size());
    const auto configBytes = hipdnn_flatbuffers_sdk::makeEngineConfig(engine.id(), {});
    const hipdnn_flatbuffers_sdk::EngineConfigWrapper config(configBytes.data(), configBytes.size());
    EXPECT_EQ(engine.workspaceSize(handle, config, graph), 0u);
    auto context = engine.createExecutionContext(handle, config, graph);
    EXPECT_EQ(context->workspaceSize(), 0u);

    std::vector<float> x{-1, 2, -3, 4}, y(4, 99.0f);
    const hipdnnPluginDeviceBuffer_t buffers[] = {{1, x.data()}, {2, y.data()}};
    context->execute(handle, nullptr, hipdnn_plugin_sdk::DeviceBuffers(buffers, 2));
    EXPECT_EQ(y, (std::vector<float>{0, 2, 0, 4}));

    // A missing buffer fails with BAD_PARAM naming the uid.
    try {
        context->execute(handle, nullptr, hipdnn_plugin_sdk::DeviceBuffers(buffers, 1));
        FAIL() << "execute accepted a variant pack without the output";
    } catch (const hipdnn_plugin_sdk::PluginError& error) {
        EXPECT_EQ(error.status(), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
        EXPECT_NE(std::string(error.what()).find("uid 2"), std::string::npos) << error.what();
    }
}

TEST(TestCpuReferenceEngine, ASerializedContextIsRebuiltAndRunsBitIdentically) {
    const CpuReferenceEngine engine;
    CpuReferenceHandle handle;
    constexpr int64_t m = 8, k = 16, n = 8;
    const auto bytes = GraphBuilder("matmul")
                           .addTensor(1, "a", DataType::FLOAT, {1, m, k})
                           .addTensor(2, "b", DataType::FLOAT, {1, k, n})
                           .addTensor(3, "c", DataType::FLOAT, {1, m, n})
                           .addMatmul("matmul", 1, 2, 3)
                           .build();
    const GraphWrapper graph(bytes.data(), bytes.size());
    const auto configBytes = hipdnn_flatbuffers_sdk::makeEngineConfig(engine.id(), {});
    const hipdnn_flatbuffers_sdk::EngineConfigWrapper config(configBytes.data(), configBytes.size());
    const auto original = engine.createExecutionContext(handle, config, graph);
    const std::vector<uint8_t> serialized = original->serialize();
    const auto restored = engine.deserializeExecutionContext(handle, serialized);
    EXPECT_EQ(restored->serialize(), serialized);

    // Inputs whose products do not round the same in every summation order.
    std::vector<float> a(m * k), b(k * n);
    for (size_t i = 0; i < a.size(); ++i) {
        a[i] = std::sin(static_cast<float>(i) * 0.7f) * 3.1f;
    }
    for (size_t i = 0; i < b.size(); ++i) {
        b[i] = std::cos(static_cast<float>(i) * 1.3f) / 7.0f;
    }
    auto run = [&](hipdnn_plugin_sdk::IExecutionContext& context) {
        std::vector<float> c(m * n, 99.0f);
        const hipdnnPluginDeviceBuffer_t buffers[] = {{1, a.data()}, {2, b.data()}, {3, c.data()}};
        context.execute(handle, nullptr, hipdnn_plugin_sdk::DeviceBuffers(buffers, 3));
        return c;
    };
    const auto expected = run(*original);
    const auto actual = run(*restored);
    EXPECT_NE(expected[0], 99.0f);
    EXPECT_EQ(std::memcmp(expected.data(), actual.data(), expected.size() * sizeof(float)), 0);
}

TEST(TestCpuReferenceEngine, BytesThatAreNotAGraphAreRefusedNamingTheEngine) {
    const CpuReferenceEngine engine;
    CpuReferenceHandle handle;
    const std::vector<uint8_t> garbage{1, 2, 3, 4, 5, 6, 7, 8};
    try {
        static_cast<void>(engine.deserializeExecutionContext(handle, garbage));
        FAIL() << "garbage deserialized";
    } catch (const hipdnn_plugin_sdk::PluginError& error) {
        EXPECT_EQ(error.status(), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
        EXPECT_NE(std::string(error.what()).find("CPU_REFERENCE_ENGINE (8 bytes) is not a valid graph"),
                  std::string::npos)
            << error.what();
    }
}

TEST(TestCpuReferenceEngine, CreatingAContextForADeclinedGraphIsNotApplicable) {
    const CpuReferenceEngine engine;
    CpuReferenceHandle handle;
    const auto bytes = reluGraph(DataType::DOUBLE);
    const auto configBytes = hipdnn_flatbuffers_sdk::makeEngineConfig(engine.id(), {});
    const hipdnn_flatbuffers_sdk::EngineConfigWrapper config(configBytes.data(), configBytes.size());
    try {
        engine.createExecutionContext(handle, config, GraphWrapper(bytes.data(), bytes.size()));
        FAIL() << "a context was built for a graph the executor cannot run";
    } catch (const hipdnn_plugin_sdk::PluginError& error) {
        EXPECT_EQ(error.status(), HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    }
}

}  // namespace
