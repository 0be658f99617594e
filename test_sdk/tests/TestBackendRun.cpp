// BackendRun.hpp against the fake plugins of tests/test_plugins (real .so files on a CPU
// handle): plans from the heuristics and by engine id (with knob choices), one variant pack
// executed many times, the workspace asked for only when the plan needs one, and the text of each
// kind of failure.
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_test_sdk/BackendRun.hpp>
#include <hipdnn_test_sdk/GraphBuilder.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;
using hipdnn_data_sdk::utilities::engineNameToId;
using namespace hipdnn_test_sdk;
using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr int64_t kX = 1;
constexpr int64_t kY = 2;

std::vector<uint8_t> pointwiseGraph(fb::PointwiseMode mode) {
    return GraphBuilder("pointwise")
        .addTensor(kX, "x", fb::DataType::FLOAT, {4})
        .addTensor(kY, "y", fb::DataType::FLOAT, {4})
        .addPointwise("op", mode, kX, kY)
        .build();
}

/// A CPU handle that loads exactly `pluginFile`.
BackendHandle handleWith(const char* pluginFile) {
    checkBackend(hipdnnSetEnginePluginPaths_ext(1, &pluginFile, HIPDNN_PLUGIN_LOADING_ABSOLUTE),
                 "hipdnnSetEnginePluginPaths_ext");
    return BackendHandle(HIPDNN_DEVICE_TYPE_CPU_EXT);
}

/// The message of the BackendError `body` throws ("" if it throws none).
template <class Body>
std::string backendError(Body&& body) {
    try {
        body();
    } catch (const BackendError& error) {
        return error.what();
    }
    return {};
}

TEST(BackendRun, AHeuristicsPlanExecutesOneVariantPackManyTimes) {
    const BackendHandle handle = handleWith(FAKE_GOOD_CPU_PLUGIN);
    const BackendHeuristics heuristics(handle.get(), pointwiseGraph(fb::PointwiseMode::RELU_FWD));
    EXPECT_EQ(heuristics.resultCount(), 1);
    EXPECT_EQ(heuristics.declined(), "");
    const BackendPlan plan(heuristics);
    EXPECT_EQ(plan.workspaceSize(), 0);

    std::array<float, 4> x = {-1, 2, -3, 4};
    std::array<float, 4> y = {};
    const BackendVariantPack pack({{kX, x.data()}, {kY, y.data()}}, nullptr);
    plan.execute(pack);
    EXPECT_EQ(y, (std::array<float, 4>{0, 2, 0, 4}));
    // The pack binds the buffers, not their contents: new inputs, same pack, new outputs.
    x = {5, -6, 7, -8};
    plan.execute(pack);
    EXPECT_EQ(y, (std::array<float, 4>{5, 0, 7, 0}));
}

TEST(BackendRun, APlanByEngineIdNeedsNoHeuristics) {
    const BackendHandle handle = handleWith(FAKE_GOOD_CPU_PLUGIN);
    const BackendPlan plan(BackendGraph(handle.get(), pointwiseGraph(fb::PointwiseMode::RELU_FWD)),
                           engineNameToId("FAKE_CPU_RELU_ENGINE"));
    std::array<float, 4> x = {-1, 2, -3, 4};
    std::array<float, 4> y = {};
    int workspaceRequests = 0;
    plan.execute({{kX, x.data()}, {kY, y.data()}}, [&](size_t) -> void* {
        ++workspaceRequests;
        return nullptr;
    });
    EXPECT_EQ(y, (std::array<float, 4>{0, 2, 0, 4}));
    EXPECT_EQ(workspaceRequests, 0) << "the plan needs no workspace";
}

TEST(BackendRun, TheWorkspaceIsAskedForOnceWithThePlansSize) {
    // FAKE_KNOB_ENGINE's default configuration needs 8 tiles of 4 bytes and fails on a null one.
    const BackendHandle handle = handleWith(FAKE_KNOBS_PLUGIN);
    const BackendPlan plan{BackendHeuristics{handle.get(), pointwiseGraph(fb::PointwiseMode::RELU_FWD)}};
    EXPECT_EQ(plan.workspaceSize(), 32);
    std::array<float, 4> x = {-1, 2, -3, 4};
    std::array<float, 4> y = {};
    std::vector<size_t> requests;
    std::vector<std::byte> workspace;
    plan.execute({{kX, x.data()}, {kY, y.data()}}, [&](size_t bytes) -> void* {
        requests.push_back(bytes);
        workspace.resize(bytes);
        return workspace.data();
    });
    EXPECT_EQ(requests, std::vector<size_t>{32});
    EXPECT_EQ(y, (std::array<float, 4>{0, 2, 0, 4}));
}

TEST(BackendRun, APlanByEngineIdTakesIntKnobChoices) {
    // fake.tile.size tiles of 4 bytes of workspace (default 8).
    const BackendHandle handle = handleWith(FAKE_KNOBS_PLUGIN);
    const BackendGraph graph(handle.get(), pointwiseGraph(fb::PointwiseMode::RELU_FWD));
    EXPECT_EQ(BackendPlan(graph, engineNameToId("FAKE_KNOB_ENGINE")).workspaceSize(), 32);
    EXPECT_EQ(BackendPlan(graph, engineNameToId("FAKE_KNOB_ENGINE"), {{"fake.tile.size", 3}}).workspaceSize(),
              12);
}

TEST(BackendRun, AFailedCallNamesTheCallAndCarriesTheBackendsMessage) {
    const BackendHandle handle = handleWith(FAKE_GOOD_CPU_PLUGIN);

    const std::vector<uint8_t> garbage = {1, 2, 3, 4};
    EXPECT_THAT(backendError([&] { BackendGraph(handle.get(), garbage); }),
                StartsWith("hipdnnBackendCreateAndDeserializeGraph_ext failed (HIPDNN_STATUS_BAD_PARAM"));

    const BackendGraph graph(handle.get(), pointwiseGraph(fb::PointwiseMode::RELU_FWD));
    const std::string unknownEngine =
        backendError([&] { BackendPlan(graph, engineNameToId("NO_SUCH_ENGINE")); });
    EXPECT_THAT(unknownEngine, StartsWith("finalize ENGINE failed (HIPDNN_STATUS_NOT_SUPPORTED"));
    EXPECT_THAT(unknownEngine, HasSubstr("): No plugin serving this handle's device provides engine"));

    const std::string declined = backendError([&] {
        BackendPlan(BackendGraph(handle.get(), pointwiseGraph(fb::PointwiseMode::TANH_FWD)),
                    engineNameToId("FAKE_CPU_RELU_ENGINE"));
    });
    EXPECT_THAT(declined, StartsWith("finalize ENGINE failed (HIPDNN_STATUS_NOT_SUPPORTED"));
    EXPECT_THAT(declined, HasSubstr("only pointwise RELU_FWD and IDENTITY are supported"));

    // The heuristics mode reaches the backend as given.
    EXPECT_EQ(BackendHeuristics(graph, HIPDNN_HEUR_MODE_A).resultCount(), 1);
    const std::string instant = backendError([&] { BackendHeuristics(graph, HIPDNN_HEUR_MODE_INSTANT); });
    EXPECT_THAT(instant, StartsWith("set ENGINEHEUR_MODE failed (HIPDNN_STATUS_NOT_SUPPORTED"));
    EXPECT_THAT(instant, HasSubstr("HIPDNN_HEUR_MODE_INSTANT is not supported"));
}

TEST(BackendRun, AFailedExecuteCarriesThePluginsMessage) {
    const BackendHandle handle = handleWith(FAKE_EXECUTE_FAILS_PLUGIN);
    const BackendPlan plan{BackendHeuristics{handle.get(), pointwiseGraph(fb::PointwiseMode::RELU_FWD)}};
    std::array<float, 4> x = {};
    std::array<float, 4> y = {};
    const BackendVariantPack pack({{kX, x.data()}, {kY, y.data()}}, nullptr);
    const std::string message = backendError([&] { plan.execute(pack); });
    EXPECT_THAT(message, StartsWith("hipdnnBackendExecute failed ("));
    EXPECT_THAT(message, HasSubstr("fake kernel launch failed"));
}

TEST(BackendRun, NoEngineAcceptingTheGraphListsTheDeclinedEngines) {
    const BackendHandle handle = handleWith(FAKE_DECLINES_PLUGIN);
    const std::vector<uint8_t> graph = pointwiseGraph(fb::PointwiseMode::RELU_FWD);
    const BackendHeuristics heuristics(handle.get(), graph);
    EXPECT_EQ(heuristics.resultCount(), 0);
    const std::string declined = heuristics.declined();
    EXPECT_THAT(declined,
                HasSubstr("FAKE_DECLINING_ENGINE_A\tfake_declines\tdeclines every graph on purpose\n"));
    EXPECT_THAT(declined,
                HasSubstr("FAKE_DECLINING_ENGINE_B\tfake_declines\tdeclines every graph on purpose\n"));
    const std::string expected = "no engine accepted the graph; declined:\n" + declined;
    EXPECT_EQ(backendError([&] { BackendPlan{heuristics}; }), expected);

    std::array<float, 4> x = {};
    std::array<float, 4> y = {};
    EXPECT_EQ(runThroughBackend(handle.get(), graph, {{kX, x.data()}, {kY, y.data()}},
                                [](size_t) -> void* { return nullptr; }),
              expected);
}

TEST(BackendRun, RunThroughBackendReturnsNothingOnSuccess) {
    const BackendHandle handle = handleWith(FAKE_GOOD_CPU_PLUGIN);
    std::array<float, 4> x = {-1, 2, -3, 4};
    std::array<float, 4> y = {};
    EXPECT_EQ(runThroughBackend(handle.get(), pointwiseGraph(fb::PointwiseMode::RELU_FWD),
                                {{kX, x.data()}, {kY, y.data()}}, [](size_t) -> void* { return nullptr; }),
              "");
    EXPECT_EQ(y, (std::array<float, 4>{0, 2, 0, 4}));
}

TEST(BackendRun, CheckBackendNamesTheStatus) {
    EXPECT_NO_THROW(checkBackend(HIPDNN_STATUS_SUCCESS, "a call"));
    char cleared[HIPDNN_ERROR_STRING_MAX_LENGTH] = {};
    hipdnnGetLastErrorString(cleared, sizeof(cleared));
    EXPECT_EQ(backendError([] { checkBackend(HIPDNN_STATUS_BAD_PARAM, "a call"); }),
              std::string("a call failed (") + hipdnnGetErrorString(HIPDNN_STATUS_BAD_PARAM) + ")");
}

}  // namespace
