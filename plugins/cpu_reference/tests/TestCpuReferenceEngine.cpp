#include "CpuReferenceEngine.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_flatbuffers_sdk/Builders.hpp>
#include <hipdnn_flatbuffers_sdk/EngineConfigWrapper.hpp>
#include <hipdnn_plugin_sdk/DeviceBuffers.hpp>
#include <hipdnn_plugin_sdk/PluginError.hpp>
#include <hipdnn_test_sdk/GraphBuilder.hpp>

#include <gtest/gtest.h>

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
    EXPECT_EQ(engine.behaviorNotes(),
              (std::vector{hipdnn_flatbuffers_sdk::data_objects::BehaviorNote::DETERMINISTIC}));
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
