// HIPDNN_PLUGIN_DIR and HIPDNN_DEVICE are read at each handle creation; these tests set them and
// restore the previous values.
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "BackendTestUtils.hpp"

using namespace hipdnn_backend_tests;

namespace {

std::string canonical(const std::string& path) {
    return std::filesystem::canonical(path).string();
}

TEST(Environment, PluginDirReplacesTheDefaultAndKeepsCustomPaths) {
    ScopedEnvironment pluginDirectory("HIPDNN_PLUGIN_DIR", pluginDir("good_cpu"));
    // An empty ADDITIVE call keeps the base directory: only HIPDNN_PLUGIN_DIR is searched.
    ASSERT_EQ(hipdnnSetEnginePluginPaths_ext(0, nullptr, HIPDNN_PLUGIN_LOADING_ADDITIVE),
              HIPDNN_STATUS_SUCCESS);
    hipdnnHandle_t only = createCpuHandle();
    EXPECT_EQ(loadedPluginPaths(only),
              std::vector<std::string>{canonical(pluginFile("good_cpu", "fake_good_cpu"))});
    usePluginPaths({pluginDir("knobs")}, HIPDNN_PLUGIN_LOADING_ADDITIVE);
    hipdnnHandle_t both = createCpuHandle();
    std::vector<std::string> loaded = loadedPluginPaths(both);
    std::sort(loaded.begin(), loaded.end());
    std::vector<std::string> expected = {canonical(pluginFile("good_cpu", "fake_good_cpu")),
                                         canonical(pluginFile("knobs", "fake_knobs"))};
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(loaded, expected);
    hipdnnDestroy(only);
    hipdnnDestroy(both);
}

TEST(Environment, AbsolutePathsIgnorePluginDir) {
    ScopedEnvironment pluginDirectory("HIPDNN_PLUGIN_DIR", pluginDir("good_cpu"));
    usePluginPaths({pluginDir("knobs")});
    hipdnnHandle_t handle = createCpuHandle();
    EXPECT_EQ(loadedPluginPaths(handle),
              std::vector<std::string>{canonical(pluginFile("knobs", "fake_knobs"))});
    hipdnnDestroy(handle);
}

TEST(Environment, DefaultDirectoryIsNextToTheBackendLibrary) {
    LogCapture log;
    ASSERT_EQ(hipdnnSetEnginePluginPaths_ext(0, nullptr, HIPDNN_PLUGIN_LOADING_ADDITIVE),
              HIPDNN_STATUS_SUCCESS);
    hipdnnHandle_t handle = createCpuHandle();
    const std::string defaultDirectory =
        (std::filesystem::canonical(HIPDNN_TEST_BACKEND_LIB_DIR) / "hipdnn_plugins" / "engines").string();
    // Searched when it exists, reported missing otherwise; nothing else is searched.
    EXPECT_TRUE(log.contains("Searching plugin directory [" + defaultDirectory + "]") ||
                log.contains("Default plugin directory [" + defaultDirectory + "] does not exist"))
        << log.all();
    EXPECT_FALSE(log.contains("Searching plugin directory [" + std::string(HIPDNN_TEST_PLUGIN_DIR)));
    for (const std::string& path : loadedPluginPaths(handle)) {
        EXPECT_EQ(path.rfind(defaultDirectory, 0), 0u) << path;
    }
    hipdnnDestroy(handle);
}

TEST(Environment, DeviceVariableSelectsTheDeviceAndRejectsBadValues) {
    usePluginPaths({pluginDir("good_cpu")});
    {
        ScopedEnvironment device("HIPDNN_DEVICE", "cpu");
        hipdnnHandle_t handle = nullptr;
        ASSERT_EQ(hipdnnCreate(&handle), HIPDNN_STATUS_SUCCESS) << lastError();
        hipdnnDeviceType_ext_t type = HIPDNN_DEVICE_TYPE_GPU_EXT;
        int ordinal = -1;
        ASSERT_EQ(hipdnnGetDevice_ext(handle, &type, &ordinal), HIPDNN_STATUS_SUCCESS);
        EXPECT_EQ(type, HIPDNN_DEVICE_TYPE_CPU_EXT);
        hipdnnDestroy(handle);
    }
    for (const char* bad : {"tpu", "gpu:", "gpu:x", "GPU0"}) {
        ScopedEnvironment device("HIPDNN_DEVICE", bad);
        hipdnnHandle_t handle = nullptr;
        EXPECT_EQ(hipdnnCreate(&handle), HIPDNN_STATUS_BAD_PARAM) << bad;
        EXPECT_NE(lastError().find(std::string("Invalid HIPDNN_DEVICE value '") + bad + "'"),
                  std::string::npos);
    }
    ScopedEnvironment device("HIPDNN_DEVICE", "gpu:99999");
    hipdnnHandle_t handle = nullptr;
    EXPECT_EQ(hipdnnCreate(&handle), HIPDNN_STATUS_BAD_PARAM);
}

}  // namespace

namespace {

// Asserts on both kinds of machine: GPU 0 when a CUDA device is usable, else the CPU; the handle
// serves exactly the plugins of its device.
TEST(Environment, DefaultBindingIsGpuZeroWhenUsableElseCpu) {
    ScopedEnvironment device("HIPDNN_DEVICE", "");  // empty means unset
    usePluginPaths({pluginDir("good_cpu"), pluginDir("good_gpu")});
    hipdnnHandle_t explicitGpu = nullptr;
    const bool gpuUsable =
        hipdnnCreateForDevice_ext(&explicitGpu, HIPDNN_DEVICE_TYPE_GPU_EXT, 0) == HIPDNN_STATUS_SUCCESS;
    hipdnnHandle_t handle = nullptr;
    ASSERT_EQ(hipdnnCreate(&handle), HIPDNN_STATUS_SUCCESS) << lastError();
    hipdnnDeviceType_ext_t type = HIPDNN_DEVICE_TYPE_CPU_EXT;
    int ordinal = -1;
    ASSERT_EQ(hipdnnGetDevice_ext(handle, &type, &ordinal), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(type, gpuUsable ? HIPDNN_DEVICE_TYPE_GPU_EXT : HIPDNN_DEVICE_TYPE_CPU_EXT);
    EXPECT_EQ(ordinal, 0);
    int64_t id = 0;
    EXPECT_EQ(hipdnnGetEngineIdByName_ext(handle, "FAKE_GPU_RELU_ENGINE", &id),
              gpuUsable ? HIPDNN_STATUS_SUCCESS : HIPDNN_STATUS_NOT_SUPPORTED);
    EXPECT_EQ(hipdnnGetEngineIdByName_ext(handle, "FAKE_CPU_RELU_ENGINE", &id),
              gpuUsable ? HIPDNN_STATUS_NOT_SUPPORTED : HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(loadedPluginPaths(handle).size(), 2u);
    hipdnnDestroy(handle);
    if (gpuUsable) {
        hipdnnDestroy(explicitGpu);
    }
}

}  // namespace
