// A handle whose plugin paths give it no engine says so where a user looks with logging off: the
// "No engine applies" message an ENGINEHEUR leaves as the thread's last error names every path
// searched, what was found there and whether any plugin serves the handle's device.
#include <filesystem>
#include <fstream>

#include "BackendTestUtils.hpp"

using namespace hipdnn_backend_tests;
namespace fs = std::filesystem;

namespace {

fs::path scratchDirectory(const std::string& name) {
    const fs::path directory = fs::path(HIPDNN_TEST_SCRATCH_DIR) / name;
    fs::remove_all(directory);
    fs::create_directories(directory);
    return directory;
}

// The last error after finalizing an ENGINEHEUR for a ReLU graph on a new CPU handle (the
// finalize succeeds with zero results).
std::string noEngineMessage() {
    hipdnnHandle_t handle = createCpuHandle();
    hipdnnBackendDescriptor_t graph = finalizedGraph(handle, makeGraph());
    hipdnnBackendDescriptor_t heuristic = nullptr;
    EXPECT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, &heuristic),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendSetAttribute(heuristic, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH,
                                        HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph),
              HIPDNN_STATUS_SUCCESS);
    const hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
    EXPECT_EQ(
        hipdnnBackendSetAttribute(heuristic, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode),
        HIPDNN_STATUS_SUCCESS);
    (void)lastError();  // nothing stale
    EXPECT_EQ(hipdnnBackendFinalize(heuristic), HIPDNN_STATUS_SUCCESS);
    const std::string message = lastError();
    EXPECT_TRUE(rankedEngineIds(heuristic).empty());
    hipdnnBackendDestroyDescriptor(heuristic);
    hipdnnBackendDestroyDescriptor(graph);
    hipdnnDestroy(handle);
    return message;
}

TEST(PluginSearch, AMissingAbsolutePathIsNamedInTheNoEngineMessage) {
    usePluginPaths({"/nonexistent"});
    EXPECT_EQ(noEngineMessage(),
              "No engine applies to graph 'relu_graph': no engine was asked. Plugins: searched /nonexistent "
              "(does not exist); no plugin serves device cpu");
}

TEST(PluginSearch, AnEngineAskedForByIdNamesThePluginsToo) {
    usePluginPaths({"/nonexistent"});
    hipdnnHandle_t handle = createCpuHandle();
    hipdnnBackendDescriptor_t graph = finalizedGraph(handle, makeGraph());
    hipdnnBackendDescriptor_t engine = nullptr;
    ASSERT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINE_DESCRIPTOR, &engine),
              HIPDNN_STATUS_SUCCESS);
    const int64_t id = engineIdOf("FAKE_CPU_RELU_ENGINE");
    ASSERT_EQ(hipdnnBackendSetAttribute(engine, HIPDNN_ATTR_ENGINE_OPERATION_GRAPH,
                                        HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph),
              HIPDNN_STATUS_SUCCESS);
    ASSERT_EQ(hipdnnBackendSetAttribute(engine, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, &id),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendFinalize(engine), HIPDNN_STATUS_NOT_SUPPORTED);
    EXPECT_EQ(lastError(),
              "No plugin serving this handle's device provides engine " +
                  hipdnn_data_sdk::utilities::formatEngineIdHex(id) +
                  ". Plugins: searched /nonexistent (does not exist); no plugin serves device cpu");
    hipdnnBackendDestroyDescriptor(engine);
    hipdnnBackendDestroyDescriptor(graph);
    hipdnnDestroy(handle);
}

TEST(PluginSearch, APluginDirThatIsAFileIsNamed) {
    ScopedEnvironment directory("HIPDNN_PLUGIN_DIR", "/etc/passwd");
    ASSERT_EQ(hipdnnSetEnginePluginPaths_ext(0, nullptr, HIPDNN_PLUGIN_LOADING_ADDITIVE),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(noEngineMessage(),
              "No engine applies to graph 'relu_graph': no engine was asked. Plugins: searched /etc/passwd "
              "(not a directory or .so file); no plugin serves device cpu");
}

TEST(PluginSearch, AnEmptyOrMissingPluginDirIsNamed) {
    const fs::path empty = scratchDirectory("empty");
    {
        ScopedEnvironment directory("HIPDNN_PLUGIN_DIR", empty.string());
        EXPECT_EQ(noEngineMessage(),
                  "No engine applies to graph 'relu_graph': no engine was asked. Plugins: searched " +
                      empty.string() + " (no .so files); no plugin serves device cpu");
    }
    ScopedEnvironment directory("HIPDNN_PLUGIN_DIR", (empty / "missing").string());
    EXPECT_EQ(noEngineMessage(),
              "No engine applies to graph 'relu_graph': no engine was asked. Plugins: searched " +
                  (empty / "missing").string() + " (does not exist); no plugin serves device cpu");
}

TEST(PluginSearch, WhatWasFoundIsListedWithFailuresAndDevices) {
    const fs::path directory = scratchDirectory("found");
    fs::copy_file(pluginFile("good_gpu", "fake_good_gpu"), directory / "libgpu.so");
    std::ofstream(directory / "libbroken.so") << std::string(100, '#');
    usePluginPaths({directory.string(), "/nonexistent"});
    EXPECT_EQ(noEngineMessage(),
              "No engine applies to graph 'relu_graph': no engine was asked. Plugins: searched " +
                  directory.string() +
                  " (libbroken.so failed to load: not a complete ELF shared "
                  "object: not an ELF file (bad magic bytes); libgpu.so: "
                  "fake_good_gpu, gpu), /nonexistent (does not exist); no plugin "
                  "serves device cpu");
}

TEST(PluginSearch, EnginesThatDeclineAreListedAfterThePlugins) {
    usePluginPaths({pluginFile("declines", "fake_declines")});
    EXPECT_EQ(
        noEngineMessage(),
        "No engine applies to graph 'relu_graph'. Plugins: searched " +
            pluginFile("declines", "fake_declines") +
            " (fake_declines, cpu); plugins serving device cpu: fake_declines. Declined engines (engine, "
            "plugin, reason):\n"
            "FAKE_DECLINING_ENGINE_A\tfake_declines\tdeclines every graph on purpose\n"
            "FAKE_DECLINING_ENGINE_B\tfake_declines\tdeclines every graph on purpose\n");
}

}  // namespace
