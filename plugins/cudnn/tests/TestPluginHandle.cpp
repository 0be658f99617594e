// Handle creation through the plugin's exported C API: with a usable GPU it succeeds; without one
// it fails cleanly with a message that names the reason (so the backend can skip the plugin).
#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_test_sdk/DeviceDetection.hpp>

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <string>

namespace {

class CudnnPluginLibrary : public ::testing::Test {
protected:
    void SetUp() override {
        _library = dlopen(HIPDNN_CUDNN_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
        ASSERT_NE(_library, nullptr) << dlerror();
    }
    void TearDown() override {
        if (_library != nullptr) {
            dlclose(_library);
        }
    }
    template <class F>
    F symbol(const char* name) {
        return reinterpret_cast<F>(dlsym(_library, name));
    }
    std::string lastError() {
        const char* text = nullptr;
        symbol<void (*)(const char**)>("hipdnnPluginGetLastErrorString")(&text);
        return text == nullptr ? std::string() : std::string(text);
    }
    void* _library = nullptr;
};

TEST_F(CudnnPluginLibrary, ReportsItsEnginesAndDevice) {
    uint32_t count = 0;
    int64_t ids[4] = {};
    ASSERT_EQ(symbol<decltype(&hipdnnEnginePluginGetAllEngineIds)>("hipdnnEnginePluginGetAllEngineIds")(
                  ids, 4, &count),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    ASSERT_EQ(count, 2U);
    EXPECT_EQ(ids[0], hipdnn_data_sdk::utilities::CUDNN_ENGINE_ID);
    EXPECT_EQ(ids[1], hipdnn_data_sdk::utilities::CUDNN_ENGINE_DETERMINISTIC_ID);
    hipdnnDeviceType_ext_t device = HIPDNN_DEVICE_TYPE_CPU_EXT;
    ASSERT_EQ(symbol<decltype(&hipdnnEnginePluginGetDeviceType_ext)>("hipdnnEnginePluginGetDeviceType_ext")(
                  &device),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(device, HIPDNN_DEVICE_TYPE_GPU_EXT);
}

TEST_F(CudnnPluginLibrary, HandleCreationMatchesDeviceAvailability) {
    auto create = symbol<decltype(&hipdnnEnginePluginCreate)>("hipdnnEnginePluginCreate");
    auto destroy = symbol<decltype(&hipdnnEnginePluginDestroy)>("hipdnnEnginePluginDestroy");
    hipdnnEnginePluginHandle_t handle = nullptr;
    const hipdnnPluginStatus_t status = create(&handle);
    if (hipdnn_test_sdk::cudaDeviceCount() == 0) {
        EXPECT_NE(status, HIPDNN_PLUGIN_STATUS_SUCCESS);
        EXPECT_EQ(handle, nullptr);
        const std::string error = lastError();
        EXPECT_TRUE(error.find("no CUDA device") != std::string::npos ||
                    error.find("cudnnCreate failed") != std::string::npos)
            << error;
    } else {
        ASSERT_EQ(status, HIPDNN_PLUGIN_STATUS_SUCCESS) << lastError();
        ASSERT_NE(handle, nullptr);
        EXPECT_EQ(destroy(handle), HIPDNN_PLUGIN_STATUS_SUCCESS);
    }
}

}  // namespace
