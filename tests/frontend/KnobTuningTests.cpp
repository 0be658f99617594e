// Tuning records that carry knob settings, with the fake plugin's FAKE_KNOB_ENGINE (its
// "fake.tile.size" knob lists 1, 2, 4, ..., 64 tiles of 4 workspace bytes, default 8): the
// heuristics' choice plans with the recorded settings, an explicitly created plan keeps the
// engine's defaults, and a setting the plugin rejects is dropped rather than costing the engine.
#include <string>
#include <vector>

#include "TuningDatabaseTest.hpp"

using namespace hipdnn_frontend_tests;

namespace {

constexpr int64_t kTileBytes = 4;

struct Relu {
    Graph graph;
    TensorPtr x, y;
};

Relu makeRelu(const std::string& name) {
    Relu relu{floatGraph(name), nullptr, nullptr};
    relu.x = input(relu.graph, name + "_x", {2, 4});
    relu.y =
        relu.graph.pointwise(relu.x, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::RELU_FWD));
    relu.y->set_output(true);
    return relu;
}

class KnobTuning : public TuningDatabaseTest {
protected:
    void SetUp() override { startWith({std::string(HIPDNN_TEST_PLUGIN_DIR) + "/knobs"}); }

    // Builds the plan with `tiles` among the knob variants and records it as the fastest.
    void recordTiles(int64_t tiles) {
        Relu relu = makeRelu("tuned");
        ASSERT_FE_OK(relu.graph.build_operation_graph(_handle.get()));
        ASSERT_FE_OK(relu.graph.create_execution_plans());
        ASSERT_FE_OK(relu.graph.add_knob_variants_ext());
        for (int64_t index = 0; index < relu.graph.get_execution_plan_count(); ++index) {
            std::vector<fe::KnobSetting> knobs;
            ASSERT_FE_OK(relu.graph.get_plan_knobs_at_index_ext(index, knobs));
            if (knobs.size() == 1 && knobs[0].value == fe::KnobValue(tiles)) {
                ASSERT_FE_OK(relu.graph.build_plan_at_index(index));
                ASSERT_FE_OK(relu.graph.record_tuning_result_at_index(index, 0.5, 0.75, "test"));
                return;
            }
        }
        FAIL() << "no knob variant with " << tiles << " tiles";
    }

    // The workspace of the plan a fresh graph (other names) gets with default settings, after
    // checking that it computes the ReLU.
    int64_t defaultPlanWorkspace() {
        Relu relu = makeRelu("fresh");
        EXPECT_TRUE(relu.graph.build(_handle.get()).is_good());
        std::string engine;
        EXPECT_TRUE(relu.graph.get_plan_name(engine).is_good());
        EXPECT_EQ(engine, "FAKE_KNOB_ENGINE");
        std::vector<float> x{-2, -1, 0, 1, 2, 3, -4, 5};
        std::vector<float> y(x.size(), -100.0f);
        std::vector<uint8_t> workspace(static_cast<size_t>(relu.graph.get_workspace_size()));
        std::unordered_map<TensorPtr, void*> pack{{relu.x, x.data()}, {relu.y, y.data()}};
        EXPECT_TRUE(relu.graph.execute(_handle.get(), pack, workspace.data()).is_good());
        EXPECT_EQ(y, (std::vector<float>{0, 0, 0, 1, 2, 3, 0, 5}));
        return relu.graph.get_workspace_size();
    }
};

}  // namespace

TEST_F(KnobTuning, TheHeuristicsChoicePlansWithTheRecordedKnobSettings) {
    ASSERT_EQ(defaultPlanWorkspace(), 8 * kTileBytes);
    recordTiles(32);
    EXPECT_EQ(onlyRecord()["knobs"], nlohmann::json({{"fake.tile.size", 32}}));
    EXPECT_EQ(defaultPlanWorkspace(), 32 * kTileBytes);
    createHandle();
    EXPECT_EQ(defaultPlanWorkspace(), 32 * kTileBytes);

    // A plan created for the engine explicitly keeps the engine's defaults.
    Relu relu = makeRelu("explicit");
    ASSERT_FE_OK(relu.graph.build_operation_graph(_handle.get()));
    ASSERT_FE_OK(relu.graph.create_execution_plan_ext("FAKE_KNOB_ENGINE"));
    ASSERT_FE_OK(relu.graph.check_support());
    ASSERT_FE_OK(relu.graph.build_plans());
    EXPECT_EQ(relu.graph.get_workspace_size(), 8 * kTileBytes);
}

TEST_F(KnobTuning, ARecordedSettingThePluginRejectsIsDropped) {
    recordTiles(16);
    nlohmann::json record = onlyRecord();
    record["knobs"]["fake.tile.size"] = 1000;
    replaceOnlyRecord(record);
    createHandle();
    EXPECT_EQ(defaultPlanWorkspace(), 8 * kTileBytes);
}
