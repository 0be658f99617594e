#include <hipdnn_test_sdk/DeviceDetection.hpp>
#include <hipdnn_test_sdk/GraphBuilder.hpp>
#include <hipdnn_test_sdk/Mocks.hpp>
#include <hipdnn_test_sdk/SeedTrace.hpp>
#include <hipdnn_test_sdk/SkipIfNoDevice.hpp>

#include <hipdnn_plugin_sdk/EngineManager.hpp>
#include <hipdnn_plugin_sdk/PluginHandleBase.hpp>

#include <gtest/gtest.h>

namespace {

using namespace hipdnn_test_sdk;
using hipdnn_flatbuffers_sdk::data_objects::DataType;
using hipdnn_flatbuffers_sdk::data_objects::PointwiseMode;
using ::testing::_;
using ::testing::DoAll;
using ::testing::Return;
using ::testing::SetArgReferee;

class TestHandle : public hipdnn_plugin_sdk::PluginHandleBase {};

TEST(TestMocks, MockEnginesDriveTheEngineManager) {
    auto accepting = std::make_unique<MockEngine<TestHandle>>(1);
    auto declining = std::make_unique<MockEngine<TestHandle>>(2);
    EXPECT_CALL(*accepting, name()).WillRepeatedly(Return("ACCEPTING"));
    EXPECT_CALL(*declining, name()).WillRepeatedly(Return("DECLINING"));
    EXPECT_CALL(*accepting, isApplicable(_, _, _)).WillOnce(Return(true));
    EXPECT_CALL(*declining, isApplicable(_, _, _))
        .WillOnce(DoAll(SetArgReferee<2>(std::string("no conv support")), Return(false)));

    hipdnn_plugin_sdk::EngineManager<TestHandle> manager;
    manager.addEngine(std::move(accepting));
    manager.addEngine(std::move(declining));
    const auto bytes = GraphBuilder()
                           .addTensor(1, "x", DataType::FLOAT, {4})
                           .addTensor(2, "y", DataType::FLOAT, {4})
                           .addPointwise("relu", PointwiseMode::RELU_FWD, 1, 2)
                           .build();
    const hipdnn_flatbuffers_sdk::GraphWrapper graph(bytes.data(), bytes.size());
    TestHandle handle;
    std::vector<std::string> reasons;
    EXPECT_EQ(manager.applicableEngineIds(handle, graph, reasons), (std::vector<int64_t>{1}));
    ASSERT_EQ(reasons.size(), 1u);
    EXPECT_NE(reasons[0].find("no conv support"), std::string::npos) << reasons[0];
}

TEST(TestMocks, MockExecutionContextAndPlanBuilderAreUsable) {
    MockExecutionContext context;
    EXPECT_CALL(context, workspaceSize()).WillOnce(Return(128));
    EXPECT_CALL(context, execute(_, nullptr, _)).Times(1);
    TestHandle handle;
    const hipdnn_plugin_sdk::DeviceBuffers buffers(nullptr, 0);
    EXPECT_EQ(context.workspaceSize(), 128u);
    context.execute(handle, nullptr, buffers);

    MockPlanBuilder<TestHandle> builder;
    EXPECT_CALL(builder, name()).WillOnce(Return("direct"));
    EXPECT_EQ(builder.name(), "direct");
}

TEST(TestSkipIfNoDevice, DeviceCountIsNonNegativeAndStable) {
    const int devices = cudaDeviceCount();
    EXPECT_GE(devices, 0);
    EXPECT_EQ(cudaDeviceCount(), devices);
}

// Skipped on machines without a CUDA device (the macro's purpose); runs on the GPU machine.
TEST(TestSkipIfNoDevice, BodyRunsOnlyWithADevice) {
    SKIP_IF_NO_DEVICE();
    EXPECT_GT(cudaDeviceCount(), 0);
}

TEST(TestSeedTrace, ListenerAndTraceCompile) {
    HIPDNN_SCOPED_SEED_TRACE();
    SeedReportingListener listener;
    EXPECT_EQ(globalTestSeed(), globalTestSeed());
}

}  // namespace
