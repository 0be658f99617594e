// Ranking across plugins, preferred engines, declines with reasons, API-version floors and
// misbehaving plugins.
#include "BackendTestUtils.hpp"

using namespace hipdnn_backend_tests;

namespace {

std::vector<int64_t> ids(std::initializer_list<const char*> names) {
    std::vector<int64_t> result;
    for (const char* name : names) {
        result.push_back(engineIdOf(name));
    }
    return result;
}

class Heuristics : public ::testing::Test {
protected:
    void TearDown() override {
        if (_handle != nullptr) {
            hipdnnDestroy(_handle);
        }
    }
    std::vector<int64_t> rank(const std::vector<std::string>& dirs, const GraphOptions& options = {},
                              std::optional<int64_t> preferredAttribute = std::nullopt,
                              hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK) {
        usePluginPaths(dirs);
        _handle = createCpuHandle();
        const std::vector<uint8_t> bytes = makeGraph(options);
        hipdnnBackendDescriptor_t graph = nullptr;
        EXPECT_EQ(hipdnnBackendCreateAndDeserializeGraph_ext(&graph, bytes.data(), bytes.size()),
                  HIPDNN_STATUS_SUCCESS);
        hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &_handle);
        if (preferredAttribute) {
            EXPECT_EQ(hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_PREFERRED_ENGINE_ID_EXT,
                                                HIPDNN_TYPE_INT64, 1, &*preferredAttribute),
                      HIPDNN_STATUS_SUCCESS);
        }
        EXPECT_EQ(hipdnnBackendFinalize(graph), HIPDNN_STATUS_SUCCESS) << lastError();
        hipdnnBackendDescriptor_t heuristic = finalizedHeuristic(graph, mode);
        _declined = charAttribute(heuristic, HIPDNN_ATTR_ENGINEHEUR_DECLINED_EXT);
        std::vector<int64_t> ranked = rankedEngineIds(heuristic);
        hipdnnBackendDestroyDescriptor(heuristic);
        hipdnnBackendDestroyDescriptor(graph);
        return ranked;
    }

    hipdnnHandle_t _handle = nullptr;
    std::string _declined;
};

TEST_F(Heuristics, PluginLoadOrderWithTheReferenceEngineLast) {
    EXPECT_EQ(rank({pluginDir("ranking")}),
              ids({"FAKE_RANK_A_ENGINE", "FAKE_RANK_B_ENGINE", "CPU_REFERENCE_ENGINE"}));
}

TEST_F(Heuristics, EstimatedTimesOrderTheEnginesFastestFirstThenTheRestInLoadOrder) {
    LogCapture log;
    EXPECT_EQ(rank({pluginDir("estimates")}),
              ids({"FAKE_ESTIMATE_FAST_ENGINE", "FAKE_ESTIMATE_SLOW_ENGINE", "FAKE_ESTIMATE_NONE_ENGINE",
                   "FAKE_ESTIMATE_FAILS_ENGINE", "FAKE_ESTIMATE_NAN_ENGINE", "CPU_REFERENCE_ENGINE"}));
    // A failed or meaningless estimate is logged and ranks as no estimate.
    EXPECT_TRUE(log.contains("failed to estimate the time of engine FAKE_ESTIMATE_FAILS_ENGINE"))
        << log.all();
    EXPECT_TRUE(log.contains("estimate failed on purpose")) << log.all();
    EXPECT_TRUE(log.contains("estimated nan seconds for engine FAKE_ESTIMATE_NAN_ENGINE")) << log.all();
}

TEST_F(Heuristics, APreferredEngineOutranksEveryEstimate) {
    GraphOptions options;
    options.preferredEngineId = engineIdOf("FAKE_ESTIMATE_NONE_ENGINE");
    EXPECT_EQ(rank({pluginDir("estimates")}, options).front(), engineIdOf("FAKE_ESTIMATE_NONE_ENGINE"));
}

TEST_F(Heuristics, ModesAAndBRankLikeFallback) {
    EXPECT_EQ(rank({pluginDir("ranking")}, {}, std::nullopt, HIPDNN_HEUR_MODE_A),
              ids({"FAKE_RANK_A_ENGINE", "FAKE_RANK_B_ENGINE", "CPU_REFERENCE_ENGINE"}));
}

TEST_F(Heuristics, GraphPreferredEngineComesFirst) {
    GraphOptions options;
    options.preferredEngineId = engineIdOf("FAKE_RANK_B_ENGINE");
    EXPECT_EQ(rank({pluginDir("ranking")}, options),
              ids({"FAKE_RANK_B_ENGINE", "FAKE_RANK_A_ENGINE", "CPU_REFERENCE_ENGINE"}));
}

TEST_F(Heuristics, PreferredEngineAttributeOverridesTheGraph) {
    GraphOptions options;
    options.preferredEngineId = engineIdOf("FAKE_RANK_B_ENGINE");
    EXPECT_EQ(rank({pluginDir("ranking")}, options, engineIdOf("CPU_REFERENCE_ENGINE")),
              ids({"CPU_REFERENCE_ENGINE", "FAKE_RANK_A_ENGINE", "FAKE_RANK_B_ENGINE"}));
}

TEST_F(Heuristics, NothingAppliesFinalizesWithZeroResultsAndReasons) {
    LogCapture log;
    EXPECT_TRUE(rank({pluginDir("declines")}).empty());
    EXPECT_EQ(_declined,
              "FAKE_DECLINING_ENGINE_A\tfake_declines\tdeclines every graph on purpose\n"
              "FAKE_DECLINING_ENGINE_B\tfake_declines\tdeclines every graph on purpose\n");
    EXPECT_TRUE(log.contains("No engine applies to graph 'relu_graph'")) << log.all();
}

TEST_F(Heuristics, DeclineReasonsComeFromThePluginsLastErrorLines) {
    EXPECT_TRUE(rank({pluginDir("good_cpu")}, withMode(fb::PointwiseMode::ABS)).empty());
    EXPECT_EQ(_declined,
              "FAKE_CPU_RELU_ENGINE\tfake_good_cpu\tonly pointwise RELU_FWD and IDENTITY are supported\n");
}

TEST_F(Heuristics, PluginsBelowTheGraphsApiVersionAreSkipped) {
    GraphOptions options;
    options.minimumApiVersion = fb::EngineApiVersion(1, 3, 0);
    EXPECT_EQ(rank({pluginDir("old_api"), pluginDir("good_cpu")}, options), ids({"FAKE_CPU_RELU_ENGINE"}));
    EXPECT_NE(
        _declined.find("FAKE_OLD_API_ENGINE\tfake_old_api\tplugin API version 1.0.0 is below the graph's "
                       "required 1.3.0"),
        std::string::npos)
        << _declined;
}

TEST_F(Heuristics, PluginsMeetingTheApiVersionAreAsked) {
    EXPECT_EQ(rank({pluginDir("old_api")}), ids({"FAKE_OLD_API_ENGINE"}));
}

TEST_F(Heuristics, ForeignApplicableIdsArePluginErrorsThatDoNotHideOtherPlugins) {
    LogCapture log;
    EXPECT_EQ(rank({pluginDir("foreign_ids"), pluginDir("good_cpu")}), ids({"FAKE_CPU_RELU_ENGINE"}));
    EXPECT_NE(
        _declined.find("FAKE_FOREIGN_IDS_ENGINE\tfake_foreign_ids\tFailed to get applicable engine ids."),
        std::string::npos)
        << _declined;
    EXPECT_TRUE(log.contains("which is not one of its engines")) << log.all();
    hipdnnBackendDescriptor_t graph = finalizedGraph(_handle, makeGraph());
    hipdnnBackendDescriptor_t engine = nullptr;
    ASSERT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINE_DESCRIPTOR, &engine),
              HIPDNN_STATUS_SUCCESS);
    int64_t id = engineIdOf("FAKE_FOREIGN_IDS_ENGINE");
    hipdnnBackendSetAttribute(engine, HIPDNN_ATTR_ENGINE_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                              &graph);
    hipdnnBackendSetAttribute(engine, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, &id);
    EXPECT_EQ(hipdnnBackendFinalize(engine), HIPDNN_STATUS_PLUGIN_ERROR);
    hipdnnBackendDestroyDescriptor(engine);
    hipdnnBackendDestroyDescriptor(graph);
}

TEST_F(Heuristics, MalformedEngineDetailsArePluginErrors) {
    usePluginPaths({pluginDir("malformed_details")});
    _handle = createCpuHandle();
    hipdnnBackendDescriptor_t graph = finalizedGraph(_handle, makeGraph());
    hipdnnBackendDescriptor_t heuristic = finalizedHeuristic(graph);
    hipdnnBackendDescriptor_t config = nullptr;
    ASSERT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &config),
              HIPDNN_STATUS_SUCCESS);
    int64_t count = 0;
    EXPECT_EQ(hipdnnBackendGetAttribute(heuristic, HIPDNN_ATTR_ENGINEHEUR_RESULTS,
                                        HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &count, &config),
              HIPDNN_STATUS_PLUGIN_ERROR);
    EXPECT_NE(lastError().find("engine details that fail FlatBuffer verification"), std::string::npos);
    for (auto descriptor : {config, heuristic, graph}) {
        hipdnnBackendDestroyDescriptor(descriptor);
    }
}

TEST_F(Heuristics, FindFirstStopsAtTheFirstPluginWithAMatch) {
    usePluginPaths({pluginDir("ranking")});
    _handle = createCpuHandle();
    hipdnnBackendDescriptor_t graph = finalizedGraph(_handle, makeGraph());
    hipdnnBackendDescriptor_t heuristic = nullptr;
    ASSERT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, &heuristic),
              HIPDNN_STATUS_SUCCESS);
    hipdnnBackendSetAttribute(heuristic, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH,
                              HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph);
    hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_B;
    hipdnnBackendSetAttribute(heuristic, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode);
    bool findFirst = true;
    ASSERT_EQ(hipdnnBackendSetAttribute(heuristic, HIPDNN_ATTR_ENGINEHEUR_FIND_FIRST_EXT, HIPDNN_TYPE_BOOLEAN,
                                        1, &findFirst),
              HIPDNN_STATUS_SUCCESS);
    ASSERT_EQ(hipdnnBackendFinalize(heuristic), HIPDNN_STATUS_SUCCESS);
    // aaa_fake_reference loads first (sorted paths).
    EXPECT_EQ(rankedEngineIds(heuristic), ids({"CPU_REFERENCE_ENGINE"}));
    hipdnnBackendDestroyDescriptor(heuristic);
    hipdnnBackendDestroyDescriptor(graph);
}

}  // namespace
