// Plugin discovery: loading modes, path forms, file filtering, per-device serving, and paths
// changed while handles live.
#include <filesystem>

#include "BackendTestUtils.hpp"

using namespace hipdnn_backend_tests;
namespace fs = std::filesystem;

namespace {

std::string canonical(const std::string& path) {
    return fs::canonical(path).string();
}

fs::path scratchDirectory(const std::string& name) {
    const fs::path directory = fs::path(HIPDNN_TEST_SCRATCH_DIR) / name;
    fs::remove_all(directory);
    fs::create_directories(directory);
    return directory;
}

TEST(PluginLoading, AbsoluteLoadsOnlyTheGivenPaths) {
    usePluginPaths({pluginDir("good_cpu")});
    hipdnnHandle_t handle = createCpuHandle();
    EXPECT_EQ(loadedPluginPaths(handle),
              std::vector<std::string>{canonical(pluginFile("good_cpu", "fake_good_cpu"))});
    hipdnnDestroy(handle);
}

TEST(PluginLoading, AdditiveAddsToTheExistingPaths) {
    usePluginPaths({pluginDir("good_cpu")});
    usePluginPaths({pluginFile("knobs", "fake_knobs")}, HIPDNN_PLUGIN_LOADING_ADDITIVE);
    hipdnnHandle_t handle = createCpuHandle();
    const std::vector<std::string> expected = {canonical(pluginFile("good_cpu", "fake_good_cpu")),
                                               canonical(pluginFile("knobs", "fake_knobs"))};
    std::vector<std::string> loaded = loadedPluginPaths(handle);
    std::sort(loaded.begin(), loaded.end());
    std::vector<std::string> sortedExpected = expected;
    std::sort(sortedExpected.begin(), sortedExpected.end());
    EXPECT_EQ(loaded, sortedExpected);
    hipdnnDestroy(handle);
}

TEST(PluginLoading, RelativePathsResolveAgainstTheBackendLibraryDirectory) {
    const fs::path relative = fs::relative(pluginDir("good_cpu"), HIPDNN_TEST_BACKEND_LIB_DIR);
    usePluginPaths({relative.string()});
    hipdnnHandle_t handle = createCpuHandle();
    EXPECT_EQ(loadedPluginPaths(handle),
              std::vector<std::string>{canonical(pluginFile("good_cpu", "fake_good_cpu"))});
    hipdnnDestroy(handle);
}

TEST(PluginLoading, OnlyRegularDotSoFilesDirectlyInsideADirectoryLoadOncePerCanonicalPath) {
    const fs::path directory = scratchDirectory("filtering");
    const fs::path good = pluginFile("good_cpu", "fake_good_cpu");
    fs::copy_file(good, directory / "libplugin.so");
    fs::copy_file(pluginFile("knobs", "fake_knobs"), directory / "libversioned.so.1");
    fs::copy_file(pluginFile("knobs", "fake_knobs"), directory / "libknobs.so.txt");
    fs::create_directories(directory / "nested");
    fs::copy_file(pluginFile("knobs", "fake_knobs"), directory / "nested" / "libnested.so");
    fs::create_symlink(directory / "libplugin.so", directory / "liblink.so");
    usePluginPaths(
        {directory.string(), (directory / "libplugin.so").string(), (directory / "liblink.so").string()});
    hipdnnHandle_t handle = createCpuHandle();
    EXPECT_EQ(loadedPluginPaths(handle),
              std::vector<std::string>{canonical((directory / "libplugin.so").string())});
    hipdnnDestroy(handle);
}

TEST(PluginLoading, MissingPathsAreLoggedAndSkipped) {
    LogCapture log;
    usePluginPaths({"/definitely/not/a/plugin/dir", pluginDir("good_cpu")});
    hipdnnHandle_t handle = createCpuHandle();
    EXPECT_EQ(loadedPluginPaths(handle).size(), 1u);
    EXPECT_TRUE(log.contains("Plugin path [/definitely/not/a/plugin/dir] does not exist")) << log.all();
    hipdnnDestroy(handle);
}

TEST(PluginLoading, GpuPluginsAreListedButNotServedOnCpuHandles) {
    usePluginPaths({pluginDir("good_cpu"), pluginDir("good_gpu")});
    hipdnnHandle_t handle = createCpuHandle();
    EXPECT_EQ(loadedPluginPaths(handle).size(), 2u);
    size_t engines = 0;
    ASSERT_EQ(hipdnnGetEngineCount_ext(handle, &engines), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(engines, 1u);
    int64_t id = 0;
    EXPECT_EQ(hipdnnGetEngineIdByName_ext(handle, "FAKE_GPU_RELU_ENGINE", &id), HIPDNN_STATUS_NOT_SUPPORTED);
    EXPECT_EQ(hipdnnGetEngineIdByName_ext(handle, "FAKE_CPU_RELU_ENGINE", &id), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(id, engineIdOf("FAKE_CPU_RELU_ENGINE"));
    hipdnnDestroy(handle);
}

TEST(PluginLoading, PathChangesApplyToTheNextHandleOnly) {
    usePluginPaths({pluginDir("good_cpu")});
    hipdnnHandle_t first = createCpuHandle();
    usePluginPaths({pluginDir("knobs")});
    hipdnnHandle_t second = createCpuHandle();
    EXPECT_EQ(loadedPluginPaths(first),
              std::vector<std::string>{canonical(pluginFile("good_cpu", "fake_good_cpu"))});
    EXPECT_EQ(loadedPluginPaths(second),
              std::vector<std::string>{canonical(pluginFile("knobs", "fake_knobs"))});
    // The live handle still runs its own plugins.
    int64_t id = 0;
    EXPECT_EQ(hipdnnGetEngineIdByName_ext(first, "FAKE_CPU_RELU_ENGINE", &id), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnGetEngineIdByName_ext(second, "FAKE_CPU_RELU_ENGINE", &id), HIPDNN_STATUS_NOT_SUPPORTED);
    hipdnnDestroy(first);
    hipdnnDestroy(second);
}

TEST(PluginLoading, HandlesOfOneConfigurationEachCreateTheirOwnPluginHandle) {
    usePluginPaths({pluginDir("good_cpu")});
    LogCapture log;
    hipdnnHandle_t first = createCpuHandle();
    hipdnnHandle_t second = createCpuHandle();
    const auto messages = log.messages();
    EXPECT_EQ(std::count_if(messages.begin(), messages.end(),
                            [](const std::string& m) {
                                return m.find("[fake_good_cpu] created a handle") != std::string::npos;
                            }),
              2);
    EXPECT_EQ(std::count_if(messages.begin(), messages.end(),
                            [](const std::string& m) {
                                return m.find("Loaded engine plugin 'fake_good_cpu'") != std::string::npos;
                            }),
              1);
    hipdnnDestroy(first);
    hipdnnDestroy(second);
}

TEST(PluginLoading, InvalidPathArgumentsAreRejected) {
    EXPECT_EQ(hipdnnSetEnginePluginPaths_ext(1, nullptr, HIPDNN_PLUGIN_LOADING_ADDITIVE),
              HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    const char* withNull[] = {nullptr};
    EXPECT_EQ(hipdnnSetEnginePluginPaths_ext(1, withNull, HIPDNN_PLUGIN_LOADING_ADDITIVE),
              HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    const char* empty[] = {""};
    EXPECT_EQ(hipdnnSetEnginePluginPaths_ext(1, empty, HIPDNN_PLUGIN_LOADING_ADDITIVE),
              HIPDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(hipdnnSetEnginePluginPaths_ext(0, nullptr, static_cast<hipdnnPluginLoadingMode_ext_t>(9)),
              HIPDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(hipdnnSetPluginUnloadMode_ext(static_cast<hipdnnPluginUnloadingMode_ext_t>(9)),
              HIPDNN_STATUS_BAD_PARAM);
}

TEST(PluginLoading, LoadedPathsTwoCallRejectsSmallBuffers) {
    usePluginPaths({pluginDir("good_cpu")});
    hipdnnHandle_t handle = createCpuHandle();
    size_t count = 0;
    size_t maxLength = 0;
    ASSERT_EQ(hipdnnGetLoadedEnginePluginPaths_ext(handle, &count, nullptr, &maxLength),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(count, 1u);
    EXPECT_EQ(maxLength, canonical(pluginFile("good_cpu", "fake_good_cpu")).size() + 1);
    std::vector<char> buffer(maxLength);
    char* pointers[] = {buffer.data()};
    size_t tooShort = maxLength - 1;
    EXPECT_EQ(hipdnnGetLoadedEnginePluginPaths_ext(handle, &count, pointers, &tooShort),
              HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT);
    hipdnnDestroy(handle);
}

TEST(PluginLoading, EngineListingIsSortedAndUsesTwoCallStrings) {
    usePluginPaths({pluginDir("ranking")});
    hipdnnHandle_t handle = createCpuHandle();
    size_t count = 0;
    ASSERT_EQ(hipdnnGetEngineCount_ext(handle, &count), HIPDNN_STATUS_SUCCESS);
    ASSERT_EQ(count, 3u);
    std::vector<std::string> names;
    for (size_t index = 0; index < count; ++index) {
        size_t nameLength = 0;
        size_t pluginLength = 0;
        ASSERT_EQ(hipdnnGetEngineInfo_ext(handle, index, nullptr, nullptr, &nameLength, nullptr,
                                          &pluginLength, nullptr, nullptr),
                  HIPDNN_STATUS_SUCCESS);
        std::string name(nameLength, '\0');
        std::string plugin(pluginLength, '\0');
        int64_t id = 0;
        ASSERT_EQ(hipdnnGetEngineInfo_ext(handle, index, &id, name.data(), &nameLength, plugin.data(),
                                          &pluginLength, nullptr, nullptr),
                  HIPDNN_STATUS_SUCCESS);
        name.pop_back();
        EXPECT_EQ(id, engineIdOf(name.c_str()));
        names.push_back(name);
    }
    EXPECT_EQ(names,
              (std::vector<std::string>{"CPU_REFERENCE_ENGINE", "FAKE_RANK_A_ENGINE", "FAKE_RANK_B_ENGINE"}));
    char small[4];
    size_t smallLength = sizeof(small);
    EXPECT_EQ(
        hipdnnGetEngineInfo_ext(handle, 0, nullptr, small, &smallLength, nullptr, nullptr, nullptr, nullptr),
        HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT);
    EXPECT_EQ(
        hipdnnGetEngineInfo_ext(handle, 3, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr),
        HIPDNN_STATUS_BAD_PARAM_OUT_OF_BOUND);
    size_t length = 0;
    ASSERT_EQ(hipdnnGetEngineNameById_ext(handle, engineIdOf("FAKE_RANK_B_ENGINE"), nullptr, &length),
              HIPDNN_STATUS_SUCCESS);
    std::string name(length, '\0');
    ASSERT_EQ(hipdnnGetEngineNameById_ext(handle, engineIdOf("FAKE_RANK_B_ENGINE"), name.data(), &length),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_STREQ(name.c_str(), "FAKE_RANK_B_ENGINE");
    EXPECT_EQ(hipdnnGetEngineNameById_ext(handle, 12345, nullptr, &length), HIPDNN_STATUS_NOT_SUPPORTED);
    int64_t id = 0;
    EXPECT_EQ(hipdnnGetEngineIdByName_ext(handle, "NO_SUCH_ENGINE", &id), HIPDNN_STATUS_NOT_SUPPORTED);
    EXPECT_NE(lastError().find("NO_SUCH_ENGINE"), std::string::npos);
    hipdnnDestroy(handle);
}

}  // namespace
