// The build lifecycle against the real backend with fake plugins (tests/test_plugins): plan
// creation, "why not" reporting, several plans, preferred engines, knobs, workspace limits and
// execution errors. The fake engines run a float RELU / IDENTITY on host memory.
#include <algorithm>

#include "FrontendTestUtils.hpp"

using namespace hipdnn_frontend_tests;
using fe::ErrorCode;

namespace {

// A CPU handle that loads only the fake plugins of one case directory.
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

    [[nodiscard]] hipdnnStatus_t status() const { return status_; }
    [[nodiscard]] hipdnnHandle_t get() const { return handle_; }

private:
    hipdnnHandle_t handle_ = nullptr;
    hipdnnStatus_t status_ = HIPDNN_STATUS_SUCCESS;
};

struct ReluGraph {
    Graph graph = floatGraph("relu");
    TensorPtr x;
    TensorPtr y;
};

ReluGraph makeRelu(fe::PointwiseMode mode = fe::PointwiseMode::RELU_FWD) {
    ReluGraph relu;
    relu.x = input(relu.graph, "x", {2, 4});
    relu.y = relu.graph.pointwise(relu.x, fe::graph::PointwiseAttributes().set_mode(mode));
    relu.y->set_output(true);
    return relu;
}

const std::vector<float> kInput = {-2.0f, -1.0f, 0.0f, 1.0f, 2.0f, 3.0f, -4.0f, 5.0f};

std::vector<float> expectedRelu(float scale) {
    std::vector<float> result;
    for (float value : kInput) {
        result.push_back(std::max(value, 0.0f) * scale);
    }
    return result;
}

// Runs the graph's active plan on kInput.
std::vector<float> run(const ReluGraph& relu, hipdnnHandle_t handle, fe::Error& error) {
    std::vector<float> x = kInput;
    std::vector<float> y(x.size(), -100.0f);
    std::vector<uint8_t> workspace(static_cast<size_t>(relu.graph.get_workspace_size()));
    std::unordered_map<TensorPtr, void*> pack{{relu.x, x.data()}, {relu.y, y.data()}};
    error = relu.graph.execute(handle, pack, workspace.empty() ? nullptr : workspace.data());
    return y;
}

}  // namespace

#define REQUIRE_HANDLE(handle) \
    ASSERT_EQ((handle).status(), HIPDNN_STATUS_SUCCESS) << "could not create the handle"

TEST(FrontendLifecycle, ExplicitLifecycleBuildsAndExecutes) {
    FakePluginHandle handle("good_cpu");
    REQUIRE_HANDLE(handle);
    auto relu = makeRelu();
    ASSERT_FE_OK(relu.graph.validate());
    ASSERT_FE_OK(relu.graph.build_operation_graph(handle.get()));
    ASSERT_FE_OK(relu.graph.create_execution_plans({fe::HeuristicMode::FALLBACK}));
    ASSERT_FE_OK(relu.graph.check_support());
    ASSERT_FE_OK(relu.graph.build_plans(fe::BuildPlanPolicy::HEURISTICS_CHOICE));
    std::string name;
    ASSERT_FE_OK(relu.graph.get_plan_name(name));
    EXPECT_EQ(name, "FAKE_CPU_RELU_ENGINE");
    EXPECT_TRUE(relu.x->has_uid());
    EXPECT_TRUE(relu.y->has_uid());

    fe::Error error;
    const auto y = run(relu, handle.get(), error);
    ASSERT_FE_OK(error);
    EXPECT_EQ(y, expectedRelu(1.0f));

    // The uid-keyed overload runs the same plan.
    std::vector<float> x = kInput;
    std::vector<float> out(x.size(), 0.0f);
    std::unordered_map<int64_t, void*> byUid{{relu.x->get_uid(), x.data()}, {relu.y->get_uid(), out.data()}};
    ASSERT_FE_OK(relu.graph.execute(handle.get(), byUid, nullptr));
    EXPECT_EQ(out, expectedRelu(1.0f));
}

TEST(FrontendLifecycle, DeclinedEnginesExplainWhy) {
    FakePluginHandle handle("declines");
    REQUIRE_HANDLE(handle);
    auto relu = makeRelu();
    ASSERT_FE_OK(relu.graph.build_operation_graph(handle.get()));
    EXPECT_FE_ERROR(relu.graph.create_execution_plans(), ErrorCode::GRAPH_NOT_SUPPORTED,
                    "no engine supports graph 'relu'",
                    "FAKE_DECLINING_ENGINE_A (fake_declines): declines every graph on purpose",
                    "FAKE_DECLINING_ENGINE_B (fake_declines)");
    EXPECT_FE_ERROR(relu.graph.check_support(), ErrorCode::GRAPH_NOT_SUPPORTED, "FAKE_DECLINING_ENGINE_A");

    const auto& declined = relu.graph.get_declined_engines();
    ASSERT_EQ(declined.size(), 2u);
    EXPECT_EQ(declined[0].engine_name, "FAKE_DECLINING_ENGINE_A");
    EXPECT_EQ(declined[0].plugin_name, "fake_declines");
    EXPECT_EQ(declined[0].reason, "declines every graph on purpose");
    EXPECT_EQ(declined[1].engine_name, "FAKE_DECLINING_ENGINE_B");
}

TEST(FrontendLifecycle, UnsupportedOperationReportsTheEnginesReason) {
    FakePluginHandle handle("good_cpu");
    REQUIRE_HANDLE(handle);
    auto abs = makeRelu(fe::PointwiseMode::ABS);
    EXPECT_FE_ERROR(abs.graph.build(handle.get()), ErrorCode::GRAPH_NOT_SUPPORTED, "FAKE_CPU_RELU_ENGINE",
                    "only pointwise RELU_FWD and IDENTITY are supported");
    EXPECT_EQ(abs.graph.get_execution_plan_count(), 0);
}

TEST(FrontendLifecycle, SeveralPlansPreferenceAndDeselection) {
    FakePluginHandle handle("ranking");
    REQUIRE_HANDLE(handle);
    auto relu = makeRelu();
    ASSERT_FE_OK(relu.graph.build_operation_graph(handle.get()));
    ASSERT_FE_OK(relu.graph.create_execution_plans());
    ASSERT_EQ(relu.graph.get_execution_plan_count(), 3);
    std::string last;
    ASSERT_FE_OK(relu.graph.get_plan_name_at_index(2, last));
    EXPECT_EQ(last, "CPU_REFERENCE_ENGINE");

    ASSERT_FE_OK(relu.graph.check_support());
    ASSERT_FE_OK(relu.graph.build_plans(fe::BuildPlanPolicy::ALL));
    for (int64_t index = 0; index < 3; ++index) {
        std::vector<float> x = kInput;
        std::vector<float> y(x.size(), 0.0f);
        std::unordered_map<int64_t, void*> pack{{relu.x->get_uid(), x.data()}, {relu.y->get_uid(), y.data()}};
        ASSERT_FE_OK(relu.graph.execute_plan_at_index(handle.get(), pack, nullptr, index));
        EXPECT_EQ(y, expectedRelu(1.0f)) << "plan " << index;
    }
    EXPECT_FE_ERROR(relu.graph.get_plan_name_at_index(3, last), ErrorCode::INVALID_VALUE, "plan index 3");

    // Deselected engines are skipped by build_plans.
    auto deselect = makeRelu();
    ASSERT_FE_OK(deselect.graph.build_operation_graph(handle.get()));
    ASSERT_FE_OK(deselect.graph.create_execution_plans());
    std::string first;
    ASSERT_FE_OK(deselect.graph.get_plan_name_at_index(0, first));
    ASSERT_FE_OK(deselect.graph.deselect_engines(std::vector<std::string>{first}));
    ASSERT_FE_OK(deselect.graph.build_plans());
    std::string chosen;
    ASSERT_FE_OK(deselect.graph.get_plan_name(chosen));
    EXPECT_NE(chosen, first);

    // A preferred engine, by name or id, comes first.
    auto preferred = makeRelu();
    preferred.graph.set_preferred_engine_id_ext(std::string("FAKE_RANK_B_ENGINE"));
    ASSERT_FE_OK(preferred.graph.build(handle.get()));
    ASSERT_FE_OK(preferred.graph.get_plan_name(chosen));
    EXPECT_EQ(chosen, "FAKE_RANK_B_ENGINE");
    int64_t preferredId = 0;
    ASSERT_FE_OK(preferred.graph.get_engine_id_at_index(0, preferredId));
    auto byId = makeRelu();
    byId.graph.set_preferred_engine_id_ext(preferredId);
    ASSERT_FE_OK(byId.graph.build(handle.get()));
    ASSERT_FE_OK(byId.graph.get_plan_name(chosen));
    EXPECT_EQ(chosen, "FAKE_RANK_B_ENGINE");

    auto unknown = makeRelu();
    unknown.graph.set_preferred_engine_id_ext(std::string("NO_SUCH_ENGINE"));
    EXPECT_FE_ERROR(unknown.graph.build(handle.get()), ErrorCode::INVALID_VALUE, "'NO_SUCH_ENGINE'");
}

TEST(FrontendLifecycle, KnobDiscoveryAndPlansWithKnobs) {
    FakePluginHandle handle("knobs");
    REQUIRE_HANDLE(handle);
    auto relu = makeRelu();
    ASSERT_FE_OK(relu.graph.build_operation_graph(handle.get()));
    std::vector<fe::Knob> knobs;
    ASSERT_FE_OK(relu.graph.get_knobs_for_engine("FAKE_KNOB_ENGINE", knobs));
    ASSERT_EQ(knobs.size(), 3u);
    EXPECT_EQ(knobs[0].id, "fake.tile.size");
    EXPECT_EQ(std::get<int64_t>(knobs[0].defaultValue), 8);
    const auto* tiles = std::get_if<fe::IntKnobConstraint>(&knobs[0].constraint);
    ASSERT_NE(tiles, nullptr);
    EXPECT_EQ(tiles->min, 1);
    EXPECT_EQ(tiles->max, 64);
    EXPECT_EQ(tiles->validValues, (std::vector<int64_t>{1, 2, 4, 8, 16, 32, 64}));
    EXPECT_EQ(knobs[1].id, "fake.scale");
    EXPECT_NE(std::get_if<fe::FloatKnobConstraint>(&knobs[1].constraint), nullptr);

    ASSERT_FE_OK(relu.graph.create_execution_plan_ext(
        "FAKE_KNOB_ENGINE",
        {{"fake.tile.size", int64_t{16}}, {"fake.scale", 2.0}, {"fake.unknown", int64_t{1}}}));
    ASSERT_FE_OK(relu.graph.check_support());
    ASSERT_FE_OK(relu.graph.build_plans());
    EXPECT_EQ(relu.graph.get_workspace_size(), 64);
    fe::Error error;
    const auto y = run(relu, handle.get(), error);
    ASSERT_FE_OK(error);
    EXPECT_EQ(y, expectedRelu(2.0f));

    EXPECT_FE_ERROR(
        relu.graph.create_execution_plan_ext("FAKE_KNOB_ENGINE", {{"fake.tile.size", int64_t{100}}}),
        ErrorCode::INVALID_VALUE, "fake.tile.size", "100", "[1, 64]");
    EXPECT_FE_ERROR(relu.graph.create_execution_plan_ext("FAKE_KNOB_ENGINE", {{"fake.scale", int64_t{2}}}),
                    ErrorCode::INVALID_VALUE, "fake.scale", "takes double");
    EXPECT_FE_ERROR(relu.graph.create_execution_plan_ext("NO_SUCH_ENGINE", {}), ErrorCode::INVALID_VALUE,
                    "'NO_SUCH_ENGINE'");
    EXPECT_FE_ERROR(relu.graph.create_execution_plan_ext(int64_t{12345}, {}), ErrorCode::GRAPH_NOT_SUPPORTED);
}

TEST(FrontendLifecycle, KnobVariantsAddOnePlanPerListedValue) {
    FakePluginHandle handle("knobs");
    REQUIRE_HANDLE(handle);
    auto relu = makeRelu();
    ASSERT_FE_OK(relu.graph.build_operation_graph(handle.get()));
    ASSERT_FE_OK(relu.graph.create_execution_plans());
    ASSERT_EQ(relu.graph.get_execution_plan_count(), 1);
    ASSERT_FE_OK(relu.graph.add_knob_variants_ext());
    // The heuristic plan (engine defaults), then every listed tile count but the default 8, then
    // the variant "b"; the float knob has no list and adds nothing.
    ASSERT_EQ(relu.graph.get_execution_plan_count(), 8);
    std::vector<fe::KnobSetting> knobs;
    ASSERT_FE_OK(relu.graph.get_plan_knobs_at_index_ext(0, knobs));
    EXPECT_TRUE(knobs.empty());
    std::vector<int64_t> tiles;
    for (int64_t index = 1; index < 7; ++index) {
        ASSERT_FE_OK(relu.graph.get_plan_knobs_at_index_ext(index, knobs));
        ASSERT_EQ(knobs.size(), 1u);
        EXPECT_EQ(knobs[0].id, "fake.tile.size");
        tiles.push_back(std::get<int64_t>(knobs[0].value));
        std::string engine;
        ASSERT_FE_OK(relu.graph.get_plan_name_at_index(index, engine));
        EXPECT_EQ(engine, "FAKE_KNOB_ENGINE");
        ASSERT_FE_OK(relu.graph.build_plan_at_index(index));
        int64_t workspace = 0;
        ASSERT_FE_OK(relu.graph.get_workspace_size_plan_at_index(index, workspace));
        EXPECT_EQ(workspace, tiles.back() * 4);
    }
    EXPECT_EQ(tiles, (std::vector<int64_t>{1, 2, 4, 16, 32, 64}));
    ASSERT_FE_OK(relu.graph.get_plan_knobs_at_index_ext(7, knobs));
    ASSERT_EQ(knobs.size(), 1u);
    EXPECT_EQ(knobs[0].id, "fake.variant");
    EXPECT_EQ(std::get<std::string>(knobs[0].value), "b");
    ASSERT_FE_OK(relu.graph.build_plan_at_index(7));
    EXPECT_FE_ERROR(relu.graph.get_plan_knobs_at_index_ext(8, knobs), ErrorCode::INVALID_VALUE);

    // At most `maxValuesPerKnob` per knob; a knob a candidate already sets is left alone.
    ASSERT_FE_OK(relu.graph.create_execution_plans());
    ASSERT_FE_OK(relu.graph.add_knob_variants_ext(2));
    EXPECT_EQ(relu.graph.get_execution_plan_count(), 4);
    ASSERT_FE_OK(relu.graph.create_execution_plan_ext("FAKE_KNOB_ENGINE", {{"fake.tile.size", int64_t{16}}}));
    ASSERT_FE_OK(relu.graph.add_knob_variants_ext());
    EXPECT_EQ(relu.graph.get_execution_plan_count(), 2);
}

TEST(FrontendLifecycle, WorkspaceLimitBarsPlans) {
    FakePluginHandle handle("knobs");
    REQUIRE_HANDLE(handle);
    auto relu = makeRelu();
    ASSERT_FE_OK(relu.graph.build_operation_graph(handle.get()));
    ASSERT_FE_OK(relu.graph.create_execution_plan_ext("FAKE_KNOB_ENGINE", {{"fake.tile.size", int64_t{16}}}));
    ASSERT_FE_OK(relu.graph.deselect_workspace_greater_than(32));
    EXPECT_FE_ERROR(relu.graph.build_plans(), ErrorCode::GRAPH_NOT_SUPPORTED, "64 bytes", "limit of 32");
    EXPECT_FE_ERROR(relu.graph.deselect_workspace_greater_than(-1), ErrorCode::INVALID_VALUE);
}

TEST(FrontendLifecycle, ExecutionFailureCarriesTheBackendMessage) {
    FakePluginHandle handle("execute_fails");
    REQUIRE_HANDLE(handle);
    auto relu = makeRelu();
    ASSERT_FE_OK(relu.graph.build(handle.get()));
    fe::Error error;
    run(relu, handle.get(), error);
    EXPECT_EQ(error.code, ErrorCode::HIPDNN_BACKEND_ERROR) << error;
    EXPECT_NE(error.message.find("FAKE_EXECUTE_FAILS_ENGINE"), std::string::npos) << error;
}

TEST(FrontendLifecycle, DeserializedGraphBuildsAndRuns) {
    FakePluginHandle handle("good_cpu");
    REQUIRE_HANDLE(handle);
    auto relu = makeRelu();
    relu.x->set_uid(10);
    relu.y->set_uid(11);
    std::string json;
    ASSERT_FE_OK(relu.graph.serialize(json));

    Graph restored;
    ASSERT_FE_OK(restored.deserialize(handle.get(), json));
    ASSERT_FE_OK(restored.create_execution_plans());
    ASSERT_FE_OK(restored.check_support());
    ASSERT_FE_OK(restored.build_plans());
    std::vector<float> x = kInput;
    std::vector<float> y(x.size(), 0.0f);
    std::unordered_map<int64_t, void*> pack{{10, x.data()}, {11, y.data()}};
    ASSERT_FE_OK(restored.execute(handle.get(), pack, nullptr));
    EXPECT_EQ(y, expectedRelu(1.0f));
}
