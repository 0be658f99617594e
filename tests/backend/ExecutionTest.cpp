// Heuristics -> engine -> config -> plan -> execute (or time), and every variant pack check.
#include "BackendTestUtils.hpp"

using namespace hipdnn_backend_tests;

namespace {

class Execution : public ::testing::Test {
protected:
    void SetUp() override {
        usePluginPaths({pluginDir("good_cpu"), pluginDir("execute_fails"), pluginDir("knobs")});
        _handle = createCpuHandle();
        _graph = finalizedGraph(_handle, makeGraph());
    }
    void TearDown() override {
        hipdnnBackendDestroyDescriptor(_graph);
        hipdnnDestroy(_handle);
    }

    hipdnnBackendDescriptor_t planFor(const char* engineName) {
        hipdnnBackendDescriptor_t engine = finalizedEngine(_graph, engineIdOf(engineName));
        hipdnnBackendDescriptor_t config = finalizedConfig(engine);
        hipdnnBackendDescriptor_t plan = finalizedPlan(config);
        hipdnnBackendDestroyDescriptor(config);
        hipdnnBackendDestroyDescriptor(engine);
        return plan;
    }

    hipdnnHandle_t _handle = nullptr;
    hipdnnBackendDescriptor_t _graph = nullptr;
    std::vector<float> _x = {-1, 2, -3, 4, -5, 6, -7, 8};
    std::vector<float> _y = std::vector<float>(8, 99.0f);
};

TEST_F(Execution, HeuristicResultsBuildAPlanThatComputesRelu) {
    // execute_fails sorts first; prefer the good engine so that the first result runs.
    GraphOptions options;
    options.preferredEngineId = engineIdOf("FAKE_CPU_RELU_ENGINE");
    hipdnnBackendDescriptor_t graph = finalizedGraph(_handle, makeGraph(options));
    hipdnnBackendDescriptor_t heuristic = finalizedHeuristic(graph);
    int64_t count = 0;
    ASSERT_EQ(hipdnnBackendGetAttribute(heuristic, HIPDNN_ATTR_ENGINEHEUR_RESULTS,
                                        HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, nullptr),
              HIPDNN_STATUS_SUCCESS);
    ASSERT_EQ(count, 3);
    hipdnnBackendDescriptor_t config = nullptr;
    ASSERT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &config),
              HIPDNN_STATUS_SUCCESS);
    ASSERT_EQ(hipdnnBackendGetAttribute(heuristic, HIPDNN_ATTR_ENGINEHEUR_RESULTS,
                                        HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &count, &config),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(count, 1);
    ASSERT_EQ(hipdnnBackendFinalize(config), HIPDNN_STATUS_SUCCESS) << lastError();
    hipdnnBackendDescriptor_t plan = finalizedPlan(config);
    int64_t workspace = -1;
    ASSERT_EQ(hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1,
                                        &count, &workspace),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(workspace, 0);
    std::vector<int64_t> uids(4);
    ASSERT_EQ(hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_TENSOR_UIDS_EXT, HIPDNN_TYPE_INT64,
                                        4, &count, uids.data()),
              HIPDNN_STATUS_SUCCESS);
    ASSERT_EQ(count, 2);
    EXPECT_EQ(uids[0], kInputUid);
    EXPECT_EQ(uids[1], kOutputUid);
    hipdnnBackendDescriptor_t pack = variantPack({kOutputUid, kInputUid}, {_y.data(), _x.data()});
    ASSERT_EQ(hipdnnBackendExecute(_handle, plan, pack), HIPDNN_STATUS_SUCCESS) << lastError();
    EXPECT_EQ(_y, (std::vector<float>{0, 2, 0, 4, 0, 6, 0, 8}));
    for (auto descriptor : {pack, plan, config, heuristic, graph}) {
        hipdnnBackendDestroyDescriptor(descriptor);
    }
}

TEST_F(Execution, EngineReportsNameNotesAndPlugin) {
    hipdnnBackendDescriptor_t engine = finalizedEngine(_graph, engineIdOf("FAKE_CPU_RELU_ENGINE"));
    EXPECT_EQ(charAttribute(engine, HIPDNN_ATTR_ENGINE_NAME_EXT), "FAKE_CPU_RELU_ENGINE");
    EXPECT_EQ(charAttribute(engine, HIPDNN_ATTR_ENGINE_PLUGIN_NAME_EXT), "fake_good_cpu");
    int32_t notes[4];
    int64_t count = 0;
    ASSERT_EQ(hipdnnBackendGetAttribute(engine, HIPDNN_ATTR_ENGINE_BEHAVIOR_NOTE, HIPDNN_TYPE_INT32, 4,
                                        &count, notes),
              HIPDNN_STATUS_SUCCESS);
    ASSERT_EQ(count, 1);
    EXPECT_EQ(notes[0], static_cast<int32_t>(fb::BehaviorNote::DETERMINISTIC));
    hipdnnBackendDestroyDescriptor(engine);
}

TEST_F(Execution, EnginesThatDoNotApplyOrDoNotExistAreNotSupported) {
    hipdnnBackendDescriptor_t absGraph = finalizedGraph(_handle, makeGraph(withMode(fb::PointwiseMode::ABS)));
    hipdnnBackendDescriptor_t engine = nullptr;
    ASSERT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINE_DESCRIPTOR, &engine),
              HIPDNN_STATUS_SUCCESS);
    int64_t id = engineIdOf("FAKE_CPU_RELU_ENGINE");
    hipdnnBackendSetAttribute(engine, HIPDNN_ATTR_ENGINE_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                              &absGraph);
    hipdnnBackendSetAttribute(engine, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, &id);
    EXPECT_EQ(hipdnnBackendFinalize(engine), HIPDNN_STATUS_NOT_SUPPORTED);
    EXPECT_NE(lastError().find("only pointwise RELU_FWD and IDENTITY are supported"), std::string::npos);
    hipdnnBackendDestroyDescriptor(engine);

    ASSERT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINE_DESCRIPTOR, &engine),
              HIPDNN_STATUS_SUCCESS);
    id = 42;
    hipdnnBackendSetAttribute(engine, HIPDNN_ATTR_ENGINE_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                              &_graph);
    hipdnnBackendSetAttribute(engine, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, &id);
    EXPECT_EQ(hipdnnBackendFinalize(engine), HIPDNN_STATUS_NOT_SUPPORTED);
    EXPECT_NE(lastError().find("0x000000000000002A"), std::string::npos);
    hipdnnBackendDestroyDescriptor(engine);
    hipdnnBackendDestroyDescriptor(absGraph);
}

TEST_F(Execution, VariantPackLengthsMustMatchAndUidsBeUnique) {
    hipdnnBackendDescriptor_t pack = variantPack({kInputUid, kOutputUid}, {_x.data()}, nullptr, false);
    EXPECT_EQ(hipdnnBackendFinalize(pack), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("2 unique ids but 1 data pointers"), std::string::npos);
    hipdnnBackendDestroyDescriptor(pack);
    pack = variantPack({kInputUid, kInputUid}, {_x.data(), _y.data()}, nullptr, false);
    EXPECT_EQ(hipdnnBackendFinalize(pack), HIPDNN_STATUS_BAD_PARAM);
    hipdnnBackendDestroyDescriptor(pack);
}

TEST_F(Execution, VariantPackMustBindExactlyTheGraphsTensors) {
    hipdnnBackendDescriptor_t plan = planFor("FAKE_CPU_RELU_ENGINE");
    hipdnnBackendDescriptor_t missing = variantPack({kInputUid}, {_x.data()});
    EXPECT_EQ(hipdnnBackendExecute(_handle, plan, missing), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("no data pointer for tensor uid 2 ('y')"), std::string::npos);
    hipdnnBackendDescriptor_t unknown =
        variantPack({kInputUid, kOutputUid, 77}, {_x.data(), _y.data(), _y.data()});
    EXPECT_EQ(hipdnnBackendExecute(_handle, plan, unknown), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("uid 77 is not a tensor of the graph"), std::string::npos);
    hipdnnBackendDescriptor_t nullData = variantPack({kInputUid, kOutputUid}, {_x.data(), nullptr});
    EXPECT_EQ(hipdnnBackendExecute(_handle, plan, nullData), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("data pointer for tensor uid 2 is null"), std::string::npos);
    hipdnnBackendDescriptor_t unfinalized =
        variantPack({kInputUid, kOutputUid}, {_x.data(), _y.data()}, nullptr, false);
    EXPECT_EQ(hipdnnBackendExecute(_handle, plan, unfinalized), HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED);
    EXPECT_EQ(hipdnnBackendExecute(_handle, unfinalized, plan), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("must be a HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR"), std::string::npos);
    for (auto descriptor : {missing, unknown, nullData, unfinalized, plan}) {
        hipdnnBackendDestroyDescriptor(descriptor);
    }
}

TEST_F(Execution, NullWorkspaceIsRejectedWhenThePlanNeedsOne) {
    hipdnnBackendDescriptor_t plan = planFor("FAKE_KNOB_ENGINE");
    hipdnnBackendDescriptor_t pack = variantPack({kInputUid, kOutputUid}, {_x.data(), _y.data()});
    EXPECT_EQ(hipdnnBackendExecute(_handle, plan, pack), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("needs a workspace of 32 bytes"), std::string::npos);
    std::vector<char> workspace(32);
    hipdnnBackendDescriptor_t withWorkspace =
        variantPack({kInputUid, kOutputUid}, {_x.data(), _y.data()}, workspace.data());
    EXPECT_EQ(hipdnnBackendExecute(_handle, plan, withWorkspace), HIPDNN_STATUS_SUCCESS) << lastError();
    for (auto descriptor : {pack, withWorkspace, plan}) {
        hipdnnBackendDestroyDescriptor(descriptor);
    }
}

TEST_F(Execution, PluginExecuteFailureIsPluginErrorWithThePluginsMessage) {
    hipdnnBackendDescriptor_t plan = planFor("FAKE_EXECUTE_FAILS_ENGINE");
    hipdnnBackendDescriptor_t pack = variantPack({kInputUid, kOutputUid}, {_x.data(), _y.data()});
    EXPECT_EQ(hipdnnBackendExecute(_handle, plan, pack), HIPDNN_STATUS_PLUGIN_ERROR);
    EXPECT_NE(lastError().find(
                  "Failed to execute the operation graph. Status: HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR(3), "
                  "Error: fake kernel launch failed"),
              std::string::npos);
    hipdnnBackendDestroyDescriptor(pack);
    hipdnnBackendDestroyDescriptor(plan);
}

TEST_F(Execution, PlansRunOnlyOnTheirOwnHandle) {
    hipdnnBackendDescriptor_t plan = planFor("FAKE_CPU_RELU_ENGINE");
    hipdnnHandle_t other = createCpuHandle();
    hipdnnBackendDescriptor_t pack = variantPack({kInputUid, kOutputUid}, {_x.data(), _y.data()});
    EXPECT_EQ(hipdnnBackendExecute(other, plan, pack), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("another handle"), std::string::npos);
    hipdnnBackendDestroyDescriptor(pack);
    hipdnnBackendDestroyDescriptor(plan);
    hipdnnDestroy(other);
}

TEST_F(Execution, TimedExecutionRunsThePlanAndReportsTheMedianTime) {
    hipdnnBackendDescriptor_t plan = planFor("FAKE_CPU_RELU_ENGINE");
    hipdnnBackendDescriptor_t pack = variantPack({kInputUid, kOutputUid}, {_x.data(), _y.data()});
    double medianMs = -1;
    ASSERT_EQ(hipdnnBackendTimeExecution_ext(_handle, plan, pack, 3, &medianMs), HIPDNN_STATUS_SUCCESS)
        << lastError();
    EXPECT_GT(medianMs, 0.0);
    EXPECT_LT(medianMs, 1000.0);
    EXPECT_EQ(_y, (std::vector<float>{0, 2, 0, 4, 0, 6, 0, 8}));
    hipdnnBackendDestroyDescriptor(pack);
    hipdnnBackendDestroyDescriptor(plan);
}

TEST_F(Execution, TimedExecutionNamesWhatIsWrong) {
    hipdnnBackendDescriptor_t plan = planFor("FAKE_CPU_RELU_ENGINE");
    hipdnnBackendDescriptor_t pack = variantPack({kInputUid, kOutputUid}, {_x.data(), _y.data()});
    double medianMs = -1;
    for (const int32_t runs : {0, -1, 10001}) {
        EXPECT_EQ(hipdnnBackendTimeExecution_ext(_handle, plan, pack, runs, &medianMs),
                  HIPDNN_STATUS_BAD_PARAM);
        EXPECT_NE(lastError().find("runs must be in [1, 10000], got " + std::to_string(runs)),
                  std::string::npos);
    }
    EXPECT_EQ(hipdnnBackendTimeExecution_ext(_handle, plan, pack, 3, nullptr),
              HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    EXPECT_NE(lastError().find("median_ms is null"), std::string::npos);
    EXPECT_EQ(hipdnnBackendTimeExecution_ext(nullptr, plan, pack, 3, &medianMs),
              HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    EXPECT_EQ(hipdnnBackendTimeExecution_ext(_handle, pack, plan, 3, &medianMs), HIPDNN_STATUS_BAD_PARAM);
    hipdnnHandle_t other = createCpuHandle();
    EXPECT_EQ(hipdnnBackendTimeExecution_ext(other, plan, pack, 3, &medianMs), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("another handle"), std::string::npos);
    hipdnnDestroy(other);
    EXPECT_EQ(medianMs, -1) << "a refused call wrote its result";

    hipdnnBackendDescriptor_t failing = planFor("FAKE_EXECUTE_FAILS_ENGINE");
    EXPECT_EQ(hipdnnBackendTimeExecution_ext(_handle, failing, pack, 3, &medianMs),
              HIPDNN_STATUS_PLUGIN_ERROR);
    EXPECT_NE(lastError().find("fake kernel launch failed"), std::string::npos);
    for (auto descriptor : {pack, plan, failing}) {
        hipdnnBackendDestroyDescriptor(descriptor);
    }
}

}  // namespace
