// Tuning on a GPU handle: hipdnnBackendTimeExecution_ext times the plan's kernels on the handle's
// stream (not the host's launch), a tuning record made on the handle names the GPU and the
// libraries the plugin runs on, and the frontend's Graph::autotune tunes a GPU graph.
#include <hipdnn_backend.h>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_frontend.hpp>
#include <hipdnn_test_sdk/BackendRun.hpp>
#include <hipdnn_test_sdk/GraphBuilder.hpp>
#include <hipdnn_test_sdk/SkipIfNoDevice.hpp>

#include <cuda_runtime.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>
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

// A device buffer of kElements floats, every byte set to `byte`.
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

// A fresh HIPDNN_CACHE_DIR (the tuning database's directory) and only this plugin, for a scope.
class TuningScope {
public:
    TuningScope()
        : _directory(std::filesystem::temp_directory_path() /
                     ("hipdnn_smoke_tuning_" + std::to_string(getpid()))) {
        std::filesystem::remove_all(_directory);
        if (const char* previous = std::getenv("HIPDNN_CACHE_DIR")) {
            _previous = previous;
        }
        setenv("HIPDNN_CACHE_DIR", _directory.c_str(), 1);
        const char* paths[] = {HIPDNN_CUDA_KERNELS_PLUGIN_PATH};
        checkBackend(hipdnnSetEnginePluginPaths_ext(1, paths, HIPDNN_PLUGIN_LOADING_ABSOLUTE),
                     "hipdnnSetEnginePluginPaths_ext");
    }
    ~TuningScope() {
        if (_previous) {
            setenv("HIPDNN_CACHE_DIR", _previous->c_str(), 1);
        } else {
            unsetenv("HIPDNN_CACHE_DIR");
        }
        std::filesystem::remove_all(_directory);
    }
    TuningScope(const TuningScope&) = delete;
    TuningScope& operator=(const TuningScope&) = delete;

private:
    std::filesystem::path _directory;
    std::optional<std::string> _previous;
};

// "gpu <name>; sm <major>.<minor>; driver ", as the record of device 0 starts.
std::string gpuFingerprintPrefix() {
    cudaDeviceProp properties{};
    EXPECT_EQ(cudaGetDeviceProperties(&properties, 0), cudaSuccess);
    return "gpu " + std::string(properties.name) + "; sm " + std::to_string(properties.major) + "." +
           std::to_string(properties.minor) + "; driver ";
}

void expectZeros(const DeviceFloats& y) {
    std::vector<float> head(1024, -1.0f);
    ASSERT_EQ(cudaMemcpy(head.data(), y.get(), head.size() * sizeof(float), cudaMemcpyDeviceToHost),
              cudaSuccess);
    EXPECT_EQ(head, std::vector<float>(head.size(), 0.0f));
}

TEST(SmokeTuning, TimingMeasuresTheStreamAndARecordNamesTheGpuAndTheLibraries) {
    SKIP_IF_NO_DEVICE();
    const TuningScope scope;
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
    expectZeros(y);
    EXPECT_EQ(
        hipdnnBackendTimeExecution_ext(handle.get(), plan.descriptor(), pack.descriptor(), 0, &medianMs),
        HIPDNN_STATUS_BAD_PARAM);

    checkBackend(hipdnnBackendRecordTuningResult_ext(plan.descriptor(), medianMs, 0, "smoke test"),
                 "hipdnnBackendRecordTuningResult_ext");
    const std::string records = tuningRecords();
    EXPECT_THAT(records, HasSubstr("\"device\":\"" + gpuFingerprintPrefix()));
    EXPECT_THAT(records, HasSubstr("\"libraries\":\""));
    EXPECT_THAT(records, HasSubstr("nvrtc "));
    EXPECT_THAT(records, HasSubstr("\"engine\":\"CUDA_POINTWISE_ENGINE\""));
}

TEST(SmokeTuning, GraphAutotuneTimesEveryPlanOnTheStreamAndRecordsTheFastest) {
    SKIP_IF_NO_DEVICE();
    namespace fe = hipdnn_frontend;
    const TuningScope scope;
    const hipdnn_test_sdk::BackendHandle handle(HIPDNN_DEVICE_TYPE_GPU_EXT, 0);
    fe::graph::Graph graph;
    graph.set_name("autotuned_add_relu")
        .set_io_data_type(fe::DataType::FLOAT)
        .set_intermediate_data_type(fe::DataType::FLOAT)
        .set_compute_data_type(fe::DataType::FLOAT);
    const std::vector<int64_t> dims{64, 1024, 1024};
    const std::vector<int64_t> strides{1024 * 1024, 1024, 1};
    auto x = graph.tensor(
        fe::graph::TensorAttributes().set_name("x").set_uid(1).set_dim(dims).set_stride(strides));
    auto b = graph.tensor(
        fe::graph::TensorAttributes().set_name("b").set_uid(2).set_dim(dims).set_stride(strides));
    auto sum = graph.pointwise(x, b, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::ADD));
    auto relu = graph.pointwise(sum, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::RELU_FWD));
    relu->set_output(true).set_uid(3);
    fe::Error error = graph.build_operation_graph(handle.get());
    ASSERT_TRUE(error.is_good()) << error.get_message();
    error = graph.create_execution_plans();
    ASSERT_TRUE(error.is_good()) << error.get_message();

    // The node-by-node engine keeps the virtual sum in its workspace: autotune takes the largest.
    error = graph.check_support();
    ASSERT_TRUE(error.is_good()) << error.get_message();
    int64_t workspaceSize = 0;
    for (int64_t index = 0; index < graph.get_execution_plan_count(); ++index) {
        int64_t size = 0;
        if (graph.get_workspace_size_plan_at_index(index, size).is_good()) {
            workspaceSize = std::max(workspaceSize, size);
        }
    }
    void* workspace = nullptr;
    ASSERT_EQ(cudaMalloc(&workspace, static_cast<size_t>(std::max<int64_t>(workspaceSize, 1))), cudaSuccess);

    const DeviceFloats xData(0), bData(0), yData(0xff);
    std::unordered_map<int64_t, void*> pack{{1, xData.get()}, {2, bData.get()}, {3, yData.get()}};
    error = graph.autotune(handle.get(), pack, workspace);
    cudaFree(workspace);
    ASSERT_TRUE(error.is_good()) << error.get_message();
    int timed = 0;
    for (int64_t index = 0; index < graph.get_execution_plan_count(); ++index) {
        double medianMs = 0;
        if (graph.get_autotune_median_ms_at_index(index, medianMs).is_good()) {
            EXPECT_GE(medianMs, kFastestPossibleMs)
                << "plan " << index << ": the launch was timed, not the kernel";
            ++timed;
        }
    }
    EXPECT_GE(timed, 1);
    expectZeros(yData);
    std::string kept;
    ASSERT_TRUE(graph.get_plan_name(kept).is_good());
    const std::string records = tuningRecords();
    EXPECT_THAT(records, HasSubstr("\"device\":\"" + gpuFingerprintPrefix()));
    EXPECT_THAT(records, HasSubstr("\"engine\":\"" + kept + "\""));
    EXPECT_THAT(records, HasSubstr("\"tool\":\"autotune\""));
}

}  // namespace
}  // namespace cuda_kernels_integration
