// Tuning on a GPU handle: hipdnnBackendTimeExecution_ext times the plan's kernels on the handle's
// stream (not the host's launch), and a tuning record made on the handle names the GPU and the
// libraries the plugin runs on.
#include <hipdnn_backend.h>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_test_sdk/BackendRun.hpp>
#include <hipdnn_test_sdk/GraphBuilder.hpp>
#include <hipdnn_test_sdk/SkipIfNoDevice.hpp>

#include <cuda_runtime.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace cuda_kernels_integration {
namespace {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;
using hipdnn_test_sdk::checkBackend;
using ::testing::HasSubstr;

// y = relu(1.5 * x + b), fp32, 64 Mi elements: 768 MiB of traffic, at least 0.15 ms on any GPU of
// today, where a launch takes microseconds.
constexpr size_t kElements = size_t{64} << 20;
constexpr double kFastestPossibleMs = 0.1;

std::vector<uint8_t> scaleAddRelu() {
    const std::vector<int64_t> dims{64, 1024, 1024};
    hipdnn_test_sdk::GraphBuilder builder("timed_scale_add_relu");
    builder.addTensor(1, "x", fb::DataType::FLOAT, dims)
        .addScalar(2, "alpha", fb::DataType::FLOAT, 1.5)
        .addTensor(3, "scaled", fb::DataType::FLOAT, dims, {}, true)
        .addTensor(4, "b", fb::DataType::FLOAT, dims)
        .addTensor(5, "sum", fb::DataType::FLOAT, dims, {}, true)
        .addTensor(6, "y", fb::DataType::FLOAT, dims)
        .addPointwise("scale", fb::PointwiseMode::MUL, 1, 3, 2)
        .addPointwise("add", fb::PointwiseMode::ADD, 3, 5, 4)
        .addPointwise("relu", fb::PointwiseMode::RELU_FWD, 5, 6);
    return builder.build();
}

class DeviceFloats {
public:
    explicit DeviceFloats(int byte) {
        EXPECT_EQ(cudaMalloc(&_data, kElements * sizeof(float)), cudaSuccess);
        EXPECT_EQ(cudaMemset(_data, byte, kElements * sizeof(float)), cudaSuccess);
    }
    ~DeviceFloats() { cudaFree(_data); }
    DeviceFloats(const DeviceFloats&) = delete;
    DeviceFloats& operator=(const DeviceFloats&) = delete;
    void* get() const { return _data; }

private:
    void* _data = nullptr;
};

std::string tuningRecords() {
    size_t size = 0;
    checkBackend(hipdnnGetTuningRecords_ext(nullptr, 0, &size, nullptr), "hipdnnGetTuningRecords_ext");
    std::string text(size, '\0');
    checkBackend(hipdnnGetTuningRecords_ext(nullptr, size, &size, text.data()), "hipdnnGetTuningRecords_ext");
    text.resize(size > 0 ? size - 1 : 0);
    return text;
}

TEST(SmokeTuning, TimingMeasuresTheStreamAndARecordNamesTheGpuAndTheLibraries) {
    SKIP_IF_NO_DEVICE();
    const std::filesystem::path cacheDir =
        std::filesystem::temp_directory_path() / ("hipdnn_smoke_tuning_" + std::to_string(getpid()));
    std::filesystem::remove_all(cacheDir);
    const char* previous = std::getenv("HIPDNN_CACHE_DIR");
    const std::string previousCacheDir = previous != nullptr ? previous : "";
    setenv("HIPDNN_CACHE_DIR", cacheDir.c_str(), 1);
    const char* paths[] = {HIPDNN_CUDA_KERNELS_PLUGIN_PATH};
    checkBackend(hipdnnSetEnginePluginPaths_ext(1, paths, HIPDNN_PLUGIN_LOADING_ABSOLUTE),
                 "hipdnnSetEnginePluginPaths_ext");
    {
        const hipdnn_test_sdk::BackendHandle handle(HIPDNN_DEVICE_TYPE_GPU_EXT, 0);
        const hipdnn_test_sdk::BackendGraph graph(handle.get(), scaleAddRelu());
        const hipdnn_test_sdk::BackendPlan plan(graph, hipdnn_data_sdk::utilities::CUDA_POINTWISE_ENGINE_ID);
        const DeviceFloats x(0), b(0), y(0xff);  // y starts as NaN; relu(1.5 * 0 + 0) is 0
        const hipdnn_test_sdk::BackendVariantPack pack({{1, x.get()}, {4, b.get()}, {6, y.get()}}, nullptr);

        double medianMs = -1;
        checkBackend(
            hipdnnBackendTimeExecution_ext(handle.get(), plan.descriptor(), pack.descriptor(), 20, &medianMs),
            "hipdnnBackendTimeExecution_ext");
        EXPECT_GE(medianMs, kFastestPossibleMs) << "the launch was timed, not the kernel";
        EXPECT_LT(medianMs, 100.0);
        // The call returned after the last run: the outputs are there without a synchronization.
        std::vector<float> head(1024, -1.0f);
        ASSERT_EQ(cudaMemcpy(head.data(), y.get(), head.size() * sizeof(float), cudaMemcpyDeviceToHost),
                  cudaSuccess);
        EXPECT_EQ(head, std::vector<float>(head.size(), 0.0f));

        EXPECT_EQ(
            hipdnnBackendTimeExecution_ext(handle.get(), plan.descriptor(), pack.descriptor(), 0, &medianMs),
            HIPDNN_STATUS_BAD_PARAM);

        checkBackend(hipdnnBackendRecordTuningResult_ext(plan.descriptor(), medianMs, 0, "smoke test"),
                     "hipdnnBackendRecordTuningResult_ext");
        const std::string records = tuningRecords();
        cudaDeviceProp properties{};
        ASSERT_EQ(cudaGetDeviceProperties(&properties, 0), cudaSuccess);
        EXPECT_THAT(records, HasSubstr("\"device\":\"gpu " + std::string(properties.name) + "; sm " +
                                       std::to_string(properties.major) + "." +
                                       std::to_string(properties.minor) + "; driver "));
        EXPECT_THAT(records, HasSubstr("\"libraries\":\""));
        EXPECT_THAT(records, HasSubstr("nvrtc "));
        EXPECT_THAT(records, HasSubstr("\"engine\":\"CUDA_POINTWISE_ENGINE\""));
    }
    if (previous != nullptr) {
        setenv("HIPDNN_CACHE_DIR", previousCacheDir.c_str(), 1);
    } else {
        unsetenv("HIPDNN_CACHE_DIR");
    }
    std::filesystem::remove_all(cacheDir);
}

}  // namespace
}  // namespace cuda_kernels_integration
