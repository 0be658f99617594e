// Every troubleshooting case of the plugin guide and every validation rule: the documented
// message is logged, the faulty plugin (or engine) is skipped and the good plugin still serves.
#include <filesystem>

#include "BackendTestUtils.hpp"

using namespace hipdnn_backend_tests;

namespace {

struct FaultyPluginCase {
    const char* directory;
    const char* plugin;
    const char* engine;
    const char* message;  // logged, with {path} replaced by the canonical plugin path
    bool loads;           // listed by hipdnnGetLoadedEnginePluginPaths_ext (fails later)
};

std::ostream& operator<<(std::ostream& out, const FaultyPluginCase& value) {
    return out << value.directory;
}

class FaultyPlugin : public ::testing::TestWithParam<FaultyPluginCase> {};

TEST_P(FaultyPlugin, IsLoggedSkippedAndNeverHidesTheGoodPlugin) {
    const FaultyPluginCase& param = GetParam();
    LogCapture log;
    usePluginPaths({pluginDir(param.directory), pluginDir("good_cpu")});
    hipdnnHandle_t handle = createCpuHandle();
    ASSERT_NE(handle, nullptr);

    std::string expected = param.message;
    const std::string path = std::filesystem::canonical(pluginFile(param.directory, param.plugin)).string();
    if (auto at = expected.find("{path}"); at != std::string::npos) {
        expected.replace(at, 6, path);
    }
    EXPECT_TRUE(log.contains(expected)) << "expected: " << expected << "\nlog:\n" << log.all();

    const std::vector<std::string> loaded = loadedPluginPaths(handle);
    EXPECT_EQ(std::find(loaded.begin(), loaded.end(), path) != loaded.end(), param.loads);
    int64_t id = 0;
    EXPECT_EQ(hipdnnGetEngineIdByName_ext(handle, param.engine, &id), HIPDNN_STATUS_NOT_SUPPORTED);
    EXPECT_EQ(hipdnnGetEngineIdByName_ext(handle, "FAKE_CPU_RELU_ENGINE", &id), HIPDNN_STATUS_SUCCESS);

    // The good plugin still runs a graph.
    hipdnnBackendDescriptor_t graph = finalizedGraph(handle, makeGraph());
    hipdnnBackendDescriptor_t heuristic = finalizedHeuristic(graph);
    EXPECT_EQ(rankedEngineIds(heuristic), std::vector<int64_t>{engineIdOf("FAKE_CPU_RELU_ENGINE")});
    hipdnnBackendDestroyDescriptor(heuristic);
    hipdnnBackendDestroyDescriptor(graph);
    EXPECT_EQ(hipdnnDestroy(handle), HIPDNN_STATUS_SUCCESS);
}

INSTANTIATE_TEST_SUITE_P(
    Guide, FaultyPlugin,
    ::testing::Values(
        FaultyPluginCase{
            "missing_dependency", "fake_missing_dependency", "FAKE_MISSING_DEP_ENGINE",
            "Error loading plugin from [{path}]: libfake_missing_dependency_lib.so: cannot open shared "
            "object file",
            false},
        FaultyPluginCase{
            "missing_symbol", "fake_missing_symbol", "FAKE_MISSING_SYMBOL_ENGINE",
            "Error loading plugin from [{path}]: missing required symbol 'hipdnnEnginePluginExecuteOpGraph'",
            false},
        FaultyPluginCase{"wrong_type", "fake_wrong_type", "FAKE_WRONG_TYPE_ENGINE",
                         "Error loading plugin from [{path}]: plugin 'fake_wrong_type' has type 2, expected "
                         "HIPDNN_PLUGIN_TYPE_ENGINE (1)",
                         false},
        FaultyPluginCase{
            "bad_version", "fake_bad_version", "FAKE_BAD_VERSION_ENGINE",
            "Error loading plugin from [{path}]: plugin 'fake_bad_version' reports an unparseable API "
            "version 'one.two'",
            false},
        FaultyPluginCase{
            "unsupported_version", "fake_unsupported_version", "FAKE_UNSUPPORTED_VERSION_ENGINE",
            "Error loading plugin from [{path}]: plugin 'fake_unsupported_version' uses unsupported "
            "engine plugin API version 2.0.0",
            false},
        FaultyPluginCase{
            "zero_engines", "fake_zero_engines", "FAKE_ZERO_ENGINE",
            "Error loading plugin from [{path}]: plugin 'fake_zero_engines' reports zero engines", false},
        FaultyPluginCase{
            "duplicate_ids", "fake_duplicate_ids", "FAKE_DUPLICATE_ENGINE",
            "Error loading plugin from [{path}]: plugin 'fake_duplicate_ids' reports duplicate engine id",
            false},
        FaultyPluginCase{"create_fails", "fake_create_fails", "FAKE_CREATE_FAILS_ENGINE",
                         "Failed to create handle for plugin 'fake_create_fails'. Status: "
                         "HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR(3), Error: no compatible device found (fake)",
                         true},
        FaultyPluginCase{
            "create_throws", "fake_create_throws", "FAKE_CREATE_THROWS_ENGINE",
            "Failed to create handle for plugin 'fake_create_throws'. Exception: fake plugin create throws",
            true},
        FaultyPluginCase{"create_null", "fake_create_null", "FAKE_CREATE_NULL_ENGINE",
                         "Plugin 'fake_create_null' returned null handle", true}));

TEST(Troubleshooting, CollidingHandlesAreDestroyedAndLoggedWithTheGuidesThreeLines) {
    LogCapture log;
    usePluginPaths({pluginDir("collision"), pluginDir("good_cpu")});
    hipdnnHandle_t handle = createCpuHandle();
    EXPECT_TRUE(
        log.contains("Plugin 'fake_collision_b' returned a handle that collides with another plugin.\n"
                     "        This may indicate a symbol collision between plugins.\n"
                     "        Ensure all plugins are built with -fvisibility=hidden."))
        << log.all();
    int64_t id = 0;
    EXPECT_EQ(hipdnnGetEngineIdByName_ext(handle, "FAKE_COLLISION_A_ENGINE", &id), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnGetEngineIdByName_ext(handle, "FAKE_COLLISION_B_ENGINE", &id),
              HIPDNN_STATUS_NOT_SUPPORTED);
    EXPECT_EQ(hipdnnGetEngineIdByName_ext(handle, "FAKE_CPU_RELU_ENGINE", &id), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(loadedPluginPaths(handle).size(), 3u);
    hipdnnDestroy(handle);
}

TEST(Troubleshooting, AnEngineWhoseNameDoesNotHashToItsIdIsDropped) {
    LogCapture log;
    usePluginPaths({pluginDir("lying_name")});
    hipdnnHandle_t handle = createCpuHandle();
    EXPECT_TRUE(log.contains("reports engine 'FAKE_NAME_THAT_DOES_NOT_HASH_TO_THE_ID'")) << log.all();
    size_t count = 0;
    ASSERT_EQ(hipdnnGetEngineCount_ext(handle, &count), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(count, 1u);
    int64_t id = 0;
    EXPECT_EQ(hipdnnGetEngineIdByName_ext(handle, "FAKE_HONEST_ENGINE", &id), HIPDNN_STATUS_SUCCESS);
    size_t length = 0;
    EXPECT_EQ(hipdnnGetEngineNameById_ext(handle, engineIdOf("FAKE_LYING_ENGINE"), nullptr, &length),
              HIPDNN_STATUS_NOT_SUPPORTED);
    hipdnnDestroy(handle);
}

TEST(Troubleshooting, AnEngineIdOwnedByAnEarlierPluginIsDroppedFromTheLaterOne) {
    LogCapture log;
    usePluginPaths({pluginDir("id_owned")});
    hipdnnHandle_t handle = createCpuHandle();
    EXPECT_TRUE(log.contains("Engine FAKE_CONTESTED_ENGINE")) << log.all();
    EXPECT_TRUE(log.contains("is already provided by plugin 'fake_id_owner_a'")) << log.all();
    size_t count = 0;
    ASSERT_EQ(hipdnnGetEngineCount_ext(handle, &count), HIPDNN_STATUS_SUCCESS);
    ASSERT_EQ(count, 2u);
    for (size_t index = 0; index < count; ++index) {
        int64_t id = 0;
        size_t pluginLength = 64;
        char plugin[64];
        ASSERT_EQ(hipdnnGetEngineInfo_ext(handle, index, &id, nullptr, nullptr, plugin, &pluginLength,
                                          nullptr, nullptr),
                  HIPDNN_STATUS_SUCCESS);
        EXPECT_STREQ(plugin,
                     id == engineIdOf("FAKE_CONTESTED_ENGINE") ? "fake_id_owner_a" : "fake_id_owner_b");
    }
    hipdnnDestroy(handle);
}

}  // namespace
