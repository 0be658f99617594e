// Plugin sets replaced while the process keeps running: after a plan of the oneDNN engine has
// run, a change of the plugin paths unloads the plugins, and convolutions built on new handles
// under the new paths (oneDNN absent, then oneDNN loaded again) must still run and be right.
#include <hipdnn_test_sdk/AllClose.hpp>
#include <hipdnn_test_sdk/Seed.hpp>
#include <hipdnn_test_sdk/Tolerances.hpp>
#include <hipdnn_test_sdk/references/References.hpp>

#include <memory>
#include <random>

#include "FrontendTestUtils.hpp"

using namespace hipdnn_frontend_tests;
namespace refs = hipdnn_test_sdk::references;
namespace fbs = hipdnn_flatbuffers_sdk::data_objects;

namespace {

std::vector<float> randomValues(const TensorPtr& tensor, uint32_t salt) {
    std::vector<float> values(static_cast<size_t>(
        hipdnn_data_sdk::utilities::storageElementCount(tensor->get_dim(), tensor->get_stride())));
    std::mt19937 generator(hipdnn_test_sdk::globalTestSeed() + salt);
    std::uniform_real_distribution<float> distribution(-1.0f, 1.0f);
    for (float& value : values) {
        value = distribution(generator);
    }
    return values;
}

hipdnnStatus_t usePluginsOnly(std::vector<std::string> paths) {
    std::vector<const char*> entries;
    for (const std::string& path : paths) {
        entries.push_back(path.c_str());
    }
    return hipdnnSetEnginePluginPaths_ext(entries.size(), entries.data(), HIPDNN_PLUGIN_LOADING_ABSOLUTE);
}

// Several images and channels, not a toy size: oneDNN splits it over its OpenMP threads.
const std::vector<int64_t> kConvInputDims{4, 32, 28, 28};
const std::vector<int64_t> kConvFilterDims{32, 32, 3, 3};

// Builds a convolution on a new CPU handle with `engineName` preferred, runs it, checks that
// engine ran it and compares the output with the test SDK's reference.
void runConvolutionOnNewHandle(const std::string& engineName) {
    hipdnnHandle_t handle = nullptr;
    ASSERT_EQ(hipdnnCreateForDevice_ext(&handle, HIPDNN_DEVICE_TYPE_CPU_EXT, 0), HIPDNN_STATUS_SUCCESS);
    std::unique_ptr<hipdnnHandle, decltype(&hipdnnDestroy)> owner(handle, hipdnnDestroy);

    Graph graph = floatGraph("conv_after_plugin_switch");
    graph.set_preferred_engine_id_ext(engineName);
    auto x = input(graph, "x", kConvInputDims);
    auto w = input(graph, "w", kConvFilterDims);
    auto y = graph.conv_fprop(x, w, conv3x3());
    y->set_output(true);
    ASSERT_FE_OK(graph.build(handle));
    std::string planEngine;
    ASSERT_FE_OK(graph.get_plan_name(planEngine));
    ASSERT_EQ(planEngine, engineName);

    std::vector<float> xs = randomValues(x, 1);
    std::vector<float> ws = randomValues(w, 2);
    std::vector<float> ys(
        static_cast<size_t>(hipdnn_data_sdk::utilities::storageElementCount(y->get_dim(), y->get_stride())));
    std::unordered_map<TensorPtr, void*> pack{{x, xs.data()}, {w, ws.data()}, {y, ys.data()}};
    std::vector<uint8_t> workspace(static_cast<size_t>(graph.get_workspace_size()));
    ASSERT_FE_OK(graph.execute(handle, pack, workspace.empty() ? nullptr : workspace.data()));

    std::vector<float> expected(ys.size());
    refs::convolutionFprop<float>(refs::TensorView<const float>{xs.data(), x->get_dim(), x->get_stride()},
                                  refs::TensorView<const float>{ws.data(), w->get_dim(), w->get_stride()},
                                  refs::TensorView<float>{expected.data(), y->get_dim(), y->get_stride()},
                                  refs::ConvolutionParams{{1, 1}, {1, 1}, {1, 1}, {1, 1}});
    const auto report = hipdnn_test_sdk::allClose(
        {fbs::DataType::FLOAT, expected.data(), y->get_dim(), y->get_stride()},
        {fbs::DataType::FLOAT, ys.data(), y->get_dim(), y->get_stride()},
        hipdnn_test_sdk::fixedTolerance(hipdnn_test_sdk::ToleranceOp::ConvolutionFwd, fbs::DataType::FLOAT));
    EXPECT_TRUE(report.passed) << engineName << ": " << report.describe();
}

// An elementwise product on a new CPU handle with `engineName` preferred.
void runMultiplyOnNewHandle(const std::string& engineName) {
    hipdnnHandle_t handle = nullptr;
    ASSERT_EQ(hipdnnCreateForDevice_ext(&handle, HIPDNN_DEVICE_TYPE_CPU_EXT, 0), HIPDNN_STATUS_SUCCESS);
    std::unique_ptr<hipdnnHandle, decltype(&hipdnnDestroy)> owner(handle, hipdnnDestroy);

    Graph graph = floatGraph("mul_before_plugin_switch");
    graph.set_preferred_engine_id_ext(engineName);
    auto a = input(graph, "a", {2, 3});
    auto b = input(graph, "b", {2, 3});
    auto c = graph.pointwise(a, b, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::MUL));
    c->set_output(true);
    ASSERT_FE_OK(graph.build(handle));
    std::string planEngine;
    ASSERT_FE_OK(graph.get_plan_name(planEngine));
    ASSERT_EQ(planEngine, engineName);

    std::vector<float> as = randomValues(a, 3);
    std::vector<float> bs = randomValues(b, 4);
    std::vector<float> cs(as.size());
    std::unordered_map<TensorPtr, void*> pack{{a, as.data()}, {b, bs.data()}, {c, cs.data()}};
    std::vector<uint8_t> workspace(static_cast<size_t>(graph.get_workspace_size()));
    ASSERT_FE_OK(graph.execute(handle, pack, workspace.empty() ? nullptr : workspace.data()));
    for (size_t i = 0; i < cs.size(); ++i) {
        EXPECT_EQ(cs[i], as[i] * bs[i]) << "element " << i;
    }
}

}  // namespace

TEST(FrontendPluginSwitch, ConvolutionRunsOnNewHandlesAfterTheOnednnPluginIsUnloaded) {
    const std::string reference = HIPDNN_TEST_CPU_REFERENCE_PLUGIN;
    const std::string onednn = HIPDNN_TEST_ONEDNN_PLUGIN;
    ASSERT_EQ(usePluginsOnly({reference, onednn}), HIPDNN_STATUS_SUCCESS);
    ASSERT_NO_FATAL_FAILURE(runMultiplyOnNewHandle("ONEDNN_ENGINE"));
    ASSERT_NO_FATAL_FAILURE(runConvolutionOnNewHandle("ONEDNN_ENGINE"));

    // No handle is left, so the path change unloads both plugins.
    ASSERT_EQ(usePluginsOnly({reference}), HIPDNN_STATUS_SUCCESS);
    ASSERT_NO_FATAL_FAILURE(runConvolutionOnNewHandle("CPU_REFERENCE_ENGINE"));

    ASSERT_EQ(usePluginsOnly({onednn, reference}), HIPDNN_STATUS_SUCCESS);
    ASSERT_NO_FATAL_FAILURE(runConvolutionOnNewHandle("ONEDNN_ENGINE"));
}
