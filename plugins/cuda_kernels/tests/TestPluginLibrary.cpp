// The plugin through its exported C API: it always loads (NVRTC is opened only at first use),
// reports its engine and device, and creates handles exactly where a GPU is usable. Its engines
// themselves: the behaviour notes they publish in their details.
#include <attention/AttentionEngine.hpp>
#include <graph/GraphEngine.hpp>
#include <matmul/CublasLtEngine.hpp>
#include <norm/NormEngine.hpp>
#include <pointwise/PointwiseEngine.hpp>

#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_test_sdk/DeviceDetection.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <memory>
#include <string>
#include <vector>

namespace {

class CudaKernelsPluginLibrary : public ::testing::Test {
protected:
    void SetUp() override {
        _library = dlopen(HIPDNN_CUDA_KERNELS_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
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

TEST_F(CudaKernelsPluginLibrary, ReportsItsNameEnginesAndDevice) {
    const char* name = nullptr;
    ASSERT_EQ(symbol<decltype(&hipdnnPluginGetName)>("hipdnnPluginGetName")(&name),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_STREQ(name, "cuda_kernels");
    uint32_t count = 0;
    int64_t ids[6] = {};
    ASSERT_EQ(symbol<decltype(&hipdnnEnginePluginGetAllEngineIds)>("hipdnnEnginePluginGetAllEngineIds")(
                  ids, 6, &count),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    ASSERT_EQ(count, 5U);
    EXPECT_EQ(ids[0], hipdnn_data_sdk::utilities::CUDA_POINTWISE_ENGINE_ID);
    EXPECT_EQ(ids[1], hipdnn_data_sdk::utilities::CUDA_NORM_ENGINE_ID);
    EXPECT_EQ(ids[2], hipdnn_data_sdk::utilities::CUBLASLT_ENGINE_ID);
    EXPECT_EQ(ids[3], hipdnn_data_sdk::utilities::CUDA_SDPA_ENGINE_ID);
    EXPECT_EQ(ids[4], hipdnn_data_sdk::utilities::CUDA_GRAPH_ENGINE_ID);
    hipdnnDeviceType_ext_t device = HIPDNN_DEVICE_TYPE_CPU_EXT;
    ASSERT_EQ(symbol<decltype(&hipdnnEnginePluginGetDeviceType_ext)>("hipdnnEnginePluginGetDeviceType_ext")(
                  &device),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(device, HIPDNN_DEVICE_TYPE_GPU_EXT);
}

TEST_F(CudaKernelsPluginLibrary, HandleCreationMatchesDeviceAvailability) {
    auto create = symbol<decltype(&hipdnnEnginePluginCreate)>("hipdnnEnginePluginCreate");
    auto destroy = symbol<decltype(&hipdnnEnginePluginDestroy)>("hipdnnEnginePluginDestroy");
    hipdnnEnginePluginHandle_t handle = nullptr;
    const hipdnnPluginStatus_t status = create(&handle);
    if (hipdnn_test_sdk::cudaDeviceCount() == 0) {
        EXPECT_NE(status, HIPDNN_PLUGIN_STATUS_SUCCESS);
        EXPECT_EQ(handle, nullptr);
        EXPECT_NE(lastError().find("no usable CUDA device"), std::string::npos) << lastError();
    } else {
        ASSERT_EQ(status, HIPDNN_PLUGIN_STATUS_SUCCESS) << lastError();
        ASSERT_NE(handle, nullptr);
        EXPECT_EQ(destroy(handle), HIPDNN_PLUGIN_STATUS_SUCCESS);
    }
}

// Engine details need a handle, hence a GPU; the engines answer without one.
TEST(CudaKernelsEngines, EveryEnginePublishesPlanSerialization) {
    using Engine = hipdnn_plugin_sdk::IEngine<hipdnn_cuda_kernels::CudaKernelsHandle>;
    std::vector<std::unique_ptr<Engine>> engines;
    engines.push_back(std::make_unique<hipdnn_cuda_kernels::PointwiseEngine>());
    engines.push_back(std::make_unique<hipdnn_cuda_kernels::NormEngine>());
    engines.push_back(std::make_unique<hipdnn_cuda_kernels::CublasLtEngine>());
    engines.push_back(std::make_unique<hipdnn_cuda_kernels::AttentionEngine>());
    engines.push_back(std::make_unique<hipdnn_cuda_kernels::GraphEngine>());
    for (const auto& engine : engines) {
        EXPECT_THAT(
            engine->behaviorNotes(),
            ::testing::Contains(
                hipdnn_flatbuffers_sdk::data_objects::BehaviorNote::SUPPORTS_EXECUTION_PLAN_SERIALIZATION))
            << engine->name();
    }
}

}  // namespace
