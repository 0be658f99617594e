// Run-time override shapes: Graph::execute with overrides reaches the plugin's
// hipdnnEnginePluginExecuteOpGraphWithOverrides, a plugin without that export is refused by
// name, and inconsistent overrides are refused before any plugin runs. The fake plugins
// (tests/test_plugins) compute a float RELU on host memory; the override-aware one computes only
// the elements of the input's override shape.
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>
#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>
#include <hipdnn_frontend.hpp>

namespace {

namespace fe = hipdnn_frontend;

class FakePluginHandle {
public:
    explicit FakePluginHandle(const std::string& caseName) {
        const std::string dir = std::string(HIPDNN_TEST_PLUGIN_DIR) + "/" + caseName;
        const char* paths[] = {dir.c_str()};
        status_ = hipdnnSetEnginePluginPaths_ext(1, paths, HIPDNN_PLUGIN_LOADING_ABSOLUTE);
        if (status_ == HIPDNN_STATUS_SUCCESS) {
            status_ = hipdnnCreateForDevice_ext(&handle_, HIPDNN_DEVICE_TYPE_CPU_EXT, 0);
        }
    }
    ~FakePluginHandle() {
        if (handle_ != nullptr) {
            hipdnnDestroy(handle_);
        }
    }
    FakePluginHandle(const FakePluginHandle&) = delete;
    FakePluginHandle& operator=(const FakePluginHandle&) = delete;
    hipdnnStatus_t status() const { return status_; }
    operator hipdnnHandle_t() const { return handle_; }

private:
    hipdnnHandle_t handle_ = nullptr;
    hipdnnStatus_t status_ = HIPDNN_STATUS_SUCCESS;
};

struct ReluRun {
    fe::graph::Graph graph;
    std::shared_ptr<fe::graph::Tensor_attributes> x;
    std::shared_ptr<fe::graph::Tensor_attributes> y;
    std::vector<float> input{-2.0f, -1.0f, 0.0f, 1.0f, 2.0f, 3.0f, -4.0f, 5.0f};
    std::vector<float> output = std::vector<float>(8, -100.0f);

    explicit ReluRun(hipdnnHandle_t handle, bool overrideShapeEnabled = true) {
        graph.set_name("relu")
            .set_io_data_type(fe::DataType::FLOAT)
            .set_compute_data_type(fe::DataType::FLOAT);
        graph.set_override_shape_enabled(overrideShapeEnabled);
        x = graph.tensor(fe::graph::Tensor_attributes().set_name("x").set_dim({2, 4}).set_stride({4, 1}));
        y = graph.pointwise(x, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::RELU_FWD));
        y->set_output(true);
        buildError = graph.build(handle);
    }

    fe::Error execute(hipdnnHandle_t handle, const std::vector<int64_t>& uids,
                      const std::vector<std::vector<int64_t>>& shapes,
                      const std::vector<std::vector<int64_t>>& strides) {
        std::unordered_map<int64_t, void*> pack{{x->get_uid(), input.data()}, {y->get_uid(), output.data()}};
        return graph.execute(handle, pack, nullptr, uids, shapes, strides);
    }

    fe::Error buildError;
};

TEST(OverrideShapes, ReachThePluginsOverrideExecute) {
    FakePluginHandle handle("override_execute");
    ASSERT_EQ(handle.status(), HIPDNN_STATUS_SUCCESS);
    ReluRun relu(handle);
    ASSERT_TRUE(relu.buildError.is_good()) << relu.buildError.get_message();
    const auto error = relu.execute(handle, {relu.x->get_uid()}, {{1, 4}}, {{4, 1}});
    ASSERT_TRUE(error.is_good()) << error.get_message();
    EXPECT_EQ(relu.output, (std::vector<float>{0.0f, 0.0f, 0.0f, 1.0f, -100.0f, -100.0f, -100.0f, -100.0f}));
}

TEST(OverrideShapes, NoOverridesRunThePlainExecute) {
    FakePluginHandle handle("override_execute");
    ASSERT_EQ(handle.status(), HIPDNN_STATUS_SUCCESS);
    ReluRun relu(handle);
    ASSERT_TRUE(relu.buildError.is_good()) << relu.buildError.get_message();
    const auto error = relu.execute(handle, {}, {}, {});
    ASSERT_TRUE(error.is_good()) << error.get_message();
    EXPECT_EQ(relu.output, (std::vector<float>{0.0f, 0.0f, 0.0f, 1.0f, 2.0f, 3.0f, 0.0f, 5.0f}));
}

TEST(OverrideShapes, PluginWithoutTheExportIsRefusedByName) {
    FakePluginHandle handle("good_cpu");
    ASSERT_EQ(handle.status(), HIPDNN_STATUS_SUCCESS);
    ReluRun relu(handle);
    ASSERT_TRUE(relu.buildError.is_good()) << relu.buildError.get_message();
    const auto error = relu.execute(handle, {relu.x->get_uid()}, {{1, 4}}, {{4, 1}});
    EXPECT_EQ(error.get_code(), fe::ErrorCode::HIPDNN_BACKEND_ERROR);
    EXPECT_NE(error.get_message().find("fake_good_cpu"), std::string::npos) << error.get_message();
    EXPECT_NE(error.get_message().find("hipdnnEnginePluginExecuteOpGraphWithOverrides"), std::string::npos)
        << error.get_message();
    EXPECT_EQ(relu.output, std::vector<float>(8, -100.0f));
}

TEST(OverrideShapes, NeedTheGraphFlag) {
    FakePluginHandle handle("override_execute");
    ASSERT_EQ(handle.status(), HIPDNN_STATUS_SUCCESS);
    ReluRun relu(handle, /*overrideShapeEnabled=*/false);
    ASSERT_TRUE(relu.buildError.is_good()) << relu.buildError.get_message();
    EXPECT_FALSE(relu.graph.is_override_shape_enabled());
    const auto error = relu.execute(handle, {relu.x->get_uid()}, {{1, 4}}, {{4, 1}});
    EXPECT_EQ(error.get_code(), fe::ErrorCode::INVALID_STATE);
    EXPECT_NE(error.get_message().find("set_override_shape_enabled(true) on graph 'relu'"), std::string::npos)
        << error.get_message();
}

TEST(OverrideShapes, GraphFlagSurvivesSerialization) {
    fe::graph::Graph graph;
    graph.set_override_shape_enabled(true).set_io_data_type(fe::DataType::FLOAT);
    auto x = graph.tensor(fe::graph::Tensor_attributes().set_name("x").set_dim({2, 4}).set_stride({4, 1}));
    graph.pointwise(x, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::RELU_FWD))
        ->set_output(true);
    std::vector<uint8_t> bytes;
    ASSERT_TRUE(graph.serialize(bytes).is_good());
    fe::graph::Graph copy;
    ASSERT_TRUE(copy.deserialize(nullptr, bytes).is_good());
    EXPECT_TRUE(copy.is_override_shape_enabled());
}

TEST(OverrideShapes, InconsistentOverridesAreRefused) {
    FakePluginHandle handle("override_execute");
    ASSERT_EQ(handle.status(), HIPDNN_STATUS_SUCCESS);
    ReluRun relu(handle);
    ASSERT_TRUE(relu.buildError.is_good()) << relu.buildError.get_message();

    auto error = relu.execute(handle, {relu.x->get_uid()}, {{1, 4}}, {{4}});
    EXPECT_EQ(error.get_code(), fe::ErrorCode::INVALID_VALUE);
    EXPECT_NE(error.get_message().find("[1, 4]"), std::string::npos) << error.get_message();

    error = relu.execute(handle, {relu.x->get_uid()}, {{1, 4}, {2, 4}}, {{4, 1}});
    EXPECT_EQ(error.get_code(), fe::ErrorCode::INVALID_VALUE);

    error = relu.execute(handle, {999}, {{1, 4}}, {{4, 1}});
    EXPECT_EQ(error.get_code(), fe::ErrorCode::HIPDNN_BACKEND_ERROR);
    EXPECT_NE(error.get_message().find("999"), std::string::npos) << error.get_message();

    error = relu.execute(handle, {relu.x->get_uid()}, {{0, 4}}, {{4, 1}});
    EXPECT_EQ(error.get_code(), fe::ErrorCode::HIPDNN_BACKEND_ERROR);
    EXPECT_NE(error.get_message().find("is 0"), std::string::npos) << error.get_message();
    EXPECT_EQ(relu.output, std::vector<float>(8, -100.0f));
}

}  // namespace
