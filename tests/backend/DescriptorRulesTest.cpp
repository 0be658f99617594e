// The descriptor state machine and attribute checking, through OPERATIONGRAPH and ENGINEHEUR.
#include "BackendTestUtils.hpp"

using namespace hipdnn_backend_tests;

namespace {

class DescriptorRules : public ::testing::Test {
protected:
    void SetUp() override {
        usePluginPaths({pluginDir("good_cpu")});
        _handle = createCpuHandle();
    }
    void TearDown() override { hipdnnDestroy(_handle); }

    hipdnnBackendDescriptor_t unfinalizedGraph() {
        const std::vector<uint8_t> bytes = makeGraph();
        hipdnnBackendDescriptor_t graph = nullptr;
        EXPECT_EQ(hipdnnBackendCreateAndDeserializeGraph_ext(&graph, bytes.data(), bytes.size()),
                  HIPDNN_STATUS_SUCCESS);
        return graph;
    }

    hipdnnHandle_t _handle = nullptr;
};

TEST_F(DescriptorRules, MalformedGraphBytesAreBadParamWithTheReason) {
    const uint8_t garbage[] = {1, 2, 3, 4, 5, 6, 7, 8};
    hipdnnBackendDescriptor_t graph = nullptr;
    EXPECT_EQ(hipdnnBackendCreateAndDeserializeGraph_ext(&graph, garbage, sizeof(garbage)),
              HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("Invalid serialized graph"), std::string::npos);
    EXPECT_EQ(graph, nullptr);
    const std::string json = "{ not json";
    EXPECT_EQ(hipdnnBackendCreateAndDeserializeJsonGraph_ext(&graph, json.data(), json.size()),
              HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("Invalid JSON graph"), std::string::npos);
}

TEST_F(DescriptorRules, GraphReadsBackAsBinaryAndJsonWithTheTwoCallPattern) {
    const std::vector<uint8_t> bytes = makeGraph();
    hipdnnBackendDescriptor_t graph = finalizedGraph(_handle, bytes);
    size_t size = 0;
    ASSERT_EQ(hipdnnBackendGetSerializedBinaryGraph_ext(graph, 0, &size, nullptr), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(size, bytes.size());
    std::vector<uint8_t> small(size - 1);
    EXPECT_EQ(hipdnnBackendGetSerializedBinaryGraph_ext(graph, small.size(), &size, small.data()),
              HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT);
    std::vector<uint8_t> copy(size);
    ASSERT_EQ(hipdnnBackendGetSerializedBinaryGraph_ext(graph, copy.size(), &size, copy.data()),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(copy, bytes);

    ASSERT_EQ(hipdnnBackendGetSerializedJsonGraph_ext(graph, 0, &size, nullptr), HIPDNN_STATUS_SUCCESS);
    std::string json(size, '\0');
    ASSERT_EQ(hipdnnBackendGetSerializedJsonGraph_ext(graph, size, &size, json.data()),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(json.back(), '\0');
    EXPECT_NE(json.find("relu_graph"), std::string::npos);

    hipdnnBackendDescriptor_t fromJson = nullptr;
    ASSERT_EQ(hipdnnBackendCreateAndDeserializeJsonGraph_ext(&fromJson, json.c_str(), json.size() - 1),
              HIPDNN_STATUS_SUCCESS)
        << lastError();
    size_t jsonAgainSize = 0;
    ASSERT_EQ(hipdnnBackendGetSerializedJsonGraph_ext(fromJson, 0, &jsonAgainSize, nullptr),
              HIPDNN_STATUS_SUCCESS);
    std::string jsonAgain(jsonAgainSize, '\0');
    ASSERT_EQ(
        hipdnnBackendGetSerializedJsonGraph_ext(fromJson, jsonAgainSize, &jsonAgainSize, jsonAgain.data()),
        HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(jsonAgain, json);
    hipdnnBackendDestroyDescriptor(fromJson);
    hipdnnBackendDestroyDescriptor(graph);
}

TEST_F(DescriptorRules, GraphNeedsAHandleBeforeFinalize) {
    hipdnnBackendDescriptor_t graph = unfinalizedGraph();
    EXPECT_EQ(hipdnnBackendFinalize(graph), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("HIPDNN_ATTR_OPERATIONGRAPH_HANDLE"), std::string::npos);
    hipdnnBackendDescriptor_t empty = nullptr;
    ASSERT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, &empty),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendFinalize(empty), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("holds no graph"), std::string::npos);
    hipdnnBackendDestroyDescriptor(empty);
    hipdnnBackendDestroyDescriptor(graph);
}

TEST_F(DescriptorRules, StateMachineRules) {
    hipdnnBackendDescriptor_t graph = unfinalizedGraph();
    int64_t count = 0;
    char name[64];
    EXPECT_EQ(hipdnnBackendGetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT, HIPDNN_TYPE_CHAR, 64,
                                        &count, name),
              HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED);
    EXPECT_NE(lastError().find("not finalized"), std::string::npos);
    ASSERT_EQ(
        hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &_handle),
        HIPDNN_STATUS_SUCCESS);
    ASSERT_EQ(hipdnnBackendFinalize(graph), HIPDNN_STATUS_SUCCESS) << lastError();
    EXPECT_EQ(hipdnnBackendFinalize(graph), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("already finalized"), std::string::npos);
    EXPECT_EQ(
        hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &_handle),
        HIPDNN_STATUS_NOT_INITIALIZED);
    EXPECT_NE(lastError().find("finalized"), std::string::npos);
    EXPECT_EQ(charAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT), "relu_graph");
    // A buffer shorter than the name gets a truncated, terminated copy.
    ASSERT_EQ(hipdnnBackendGetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT, HIPDNN_TYPE_CHAR, 5,
                                        &count, name),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_STREQ(name, "relu");
    int64_t engines = 0;
    ASSERT_EQ(hipdnnBackendGetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_ENGINE_GLOBAL_COUNT,
                                        HIPDNN_TYPE_INT64, 1, &count, &engines),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(engines, 1);
    hipdnnBackendDestroyDescriptor(graph);
}

TEST_F(DescriptorRules, WrongTypeCountAndAttributeAreBadParamWithMessages) {
    hipdnnBackendDescriptor_t graph = unfinalizedGraph();
    const int64_t value = 5;
    EXPECT_EQ(hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_PREFERRED_ENGINE_ID_EXT,
                                        HIPDNN_TYPE_DOUBLE, 1, &value),
              HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("takes type HIPDNN_TYPE_INT64, got HIPDNN_TYPE_DOUBLE"), std::string::npos);
    const int64_t two[] = {1, 2};
    EXPECT_EQ(hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_PREFERRED_ENGINE_ID_EXT,
                                        HIPDNN_TYPE_INT64, 2, two),
              HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("takes 1 element(s), got 2"), std::string::npos);
    EXPECT_EQ(hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, &value),
              HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(
        lastError().find("HIPDNN_ATTR_ENGINE_GLOBAL_INDEX is not valid for a HIPDNN_BACKEND_OPERATIONGRAPH"),
        std::string::npos);
    EXPECT_EQ(hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR,
                                        1, &graph),
              HIPDNN_STATUS_NOT_SUPPORTED);
    hipdnnBackendDestroyDescriptor(graph);
}

TEST_F(DescriptorRules, WrongDescriptorTypeAsElementNamesBothTypes) {
    hipdnnBackendDescriptor_t heuristic = nullptr;
    ASSERT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, &heuristic),
              HIPDNN_STATUS_SUCCESS);
    hipdnnBackendDescriptor_t pack = nullptr;
    ASSERT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &pack),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendSetAttribute(heuristic, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH,
                                        HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &pack),
              HIPDNN_STATUS_BAD_PARAM);
    const std::string message = lastError();
    EXPECT_NE(message.find("must be a HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, got a "
                           "HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR"),
              std::string::npos)
        << message;
    hipdnnBackendDescriptor_t graph = unfinalizedGraph();
    EXPECT_EQ(hipdnnBackendSetAttribute(heuristic, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH,
                                        HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph),
              HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED);
    hipdnnBackendDestroyDescriptor(graph);
    hipdnnBackendDestroyDescriptor(pack);
    hipdnnBackendDestroyDescriptor(heuristic);
}

// Reading an empty list attribute passed its null data pointer to memcpy (found by the backend
// fuzzer under UBSan); it copies nothing and counts zero.
TEST_F(DescriptorRules, EmptyListAttributeReadsAsZeroElements) {
    hipdnnBackendDescriptor_t pack = nullptr;
    ASSERT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &pack),
              HIPDNN_STATUS_SUCCESS);
    ASSERT_EQ(hipdnnBackendFinalize(pack), HIPDNN_STATUS_SUCCESS) << lastError();
    std::vector<int64_t> values(4, -1);
    int64_t count = -1;
    EXPECT_EQ(hipdnnBackendGetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_SHAPES_EXT, HIPDNN_TYPE_INT64,
                                        4, &count, values.data()),
              HIPDNN_STATUS_SUCCESS)
        << lastError();
    EXPECT_EQ(count, 0);
    EXPECT_EQ(values, std::vector<int64_t>(4, -1));
    hipdnnBackendDestroyDescriptor(pack);
}

TEST_F(DescriptorRules, HeuristicModes) {
    hipdnnBackendDescriptor_t heuristic = nullptr;
    ASSERT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, &heuristic),
              HIPDNN_STATUS_SUCCESS);
    for (hipdnnBackendHeurMode_t mode : {HIPDNN_HEUR_MODE_FALLBACK, HIPDNN_HEUR_MODE_A, HIPDNN_HEUR_MODE_B}) {
        EXPECT_EQ(hipdnnBackendSetAttribute(heuristic, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1,
                                            &mode),
                  HIPDNN_STATUS_SUCCESS);
    }
    hipdnnBackendHeurMode_t instant = HIPDNN_HEUR_MODE_INSTANT;
    EXPECT_EQ(
        hipdnnBackendSetAttribute(heuristic, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &instant),
        HIPDNN_STATUS_NOT_SUPPORTED);
    EXPECT_NE(lastError().find("INSTANT"), std::string::npos);
    auto invalid = static_cast<hipdnnBackendHeurMode_t>(42);
    EXPECT_EQ(
        hipdnnBackendSetAttribute(heuristic, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &invalid),
        HIPDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(hipdnnBackendFinalize(heuristic), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH"), std::string::npos);
    hipdnnBackendDestroyDescriptor(heuristic);
}

TEST_F(DescriptorRules, DestroyingAReferencedDescriptorIsSafe) {
    hipdnnBackendDescriptor_t graph = finalizedGraph(_handle, makeGraph());
    hipdnnBackendDescriptor_t engine = finalizedEngine(graph, engineIdOf("FAKE_CPU_RELU_ENGINE"));
    ASSERT_EQ(hipdnnBackendDestroyDescriptor(graph), HIPDNN_STATUS_SUCCESS);
    hipdnnBackendDescriptor_t config = finalizedConfig(engine);
    hipdnnBackendDescriptor_t plan = finalizedPlan(config);
    ASSERT_EQ(hipdnnBackendDestroyDescriptor(engine), HIPDNN_STATUS_SUCCESS);
    ASSERT_EQ(hipdnnBackendDestroyDescriptor(config), HIPDNN_STATUS_SUCCESS);
    std::vector<float> x = {-1, 2, -3, 4, -5, 6, -7, 8}, y(8, 0);
    hipdnnBackendDescriptor_t pack = variantPack({kInputUid, kOutputUid}, {x.data(), y.data()});
    EXPECT_EQ(hipdnnBackendExecute(_handle, plan, pack), HIPDNN_STATUS_SUCCESS) << lastError();
    EXPECT_EQ(y[1], 2.0f);
    EXPECT_EQ(y[0], 0.0f);
    hipdnnBackendDestroyDescriptor(pack);
    hipdnnBackendDestroyDescriptor(plan);
}

}  // namespace
