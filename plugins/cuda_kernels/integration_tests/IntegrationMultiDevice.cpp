// Every GPU of the host from one process: a handle per GPU, each used from its own thread (with
// one GPU, two threads share it through two handles), plans built and executed over and over;
// the backend makes the handle's device current around each plugin call and refuses a pointer to
// another GPU's memory. The two-GPU cases skip on a one-GPU machine, saying so.
#include "EngineHarness.hpp"

#include <hipdnn_test_sdk/BackendRun.hpp>
#include <hipdnn_test_sdk/DeviceTensor.hpp>
#include <hipdnn_test_sdk/SkipIfNoDevice.hpp>

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

namespace cuda_kernels_integration {
namespace {

using hipdnn_data_sdk::utilities::CUDA_POINTWISE_ENGINE_ID;
using hipdnn_test_sdk::BackendError;
using hipdnn_test_sdk::BackendGraph;
using hipdnn_test_sdk::BackendHandle;
using hipdnn_test_sdk::BackendPlan;
using hipdnn_test_sdk::BackendVariantPack;
using hipdnn_test_sdk::DeviceBuffer;

constexpr int64_t kElements = 1 << 16;
enum Uid : int64_t { kX = 1, kB = 2, kSum = 3, kY = 4 };

// y = relu(x + b), fp32: exact in fp32 on every engine, so results compare bit for bit.
std::vector<uint8_t> addRelu() {
    GraphBuilder builder("add_relu");
    const std::vector<int64_t> dims = {kElements};
    builder.addTensor(kX, "x", fb::DataType::FLOAT, dims, {})
        .addTensor(kB, "b", fb::DataType::FLOAT, dims, {})
        .addTensor(kSum, "sum", fb::DataType::FLOAT, dims, {}, true)
        .addTensor(kY, "y", fb::DataType::FLOAT, dims, {})
        .addPointwise("add", fb::PointwiseMode::ADD, kX, kSum, kB)
        .addPointwise("relu", fb::PointwiseMode::RELU_FWD, kSum, kY);
    return builder.build();
}

int gpuCount() {
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

// The inputs and expected output of one thread (its own values, so that a mix-up shows).
struct Problem {
    explicit Problem(int seed) : x(kElements), b(kElements), y(kElements) {
        for (int64_t i = 0; i < kElements; ++i) {
            x[i] = static_cast<float>((i * 7 + seed * 13) % 101) - 50.0F;
            b[i] = static_cast<float>((i * 3 + seed * 5) % 17) - 8.0F;
            y[i] = std::max(x[i] + b[i], 0.0F);
        }
    }
    std::vector<float> x;
    std::vector<float> b;
    std::vector<float> y;
};

// On GPU `ordinal`: buffers there, a handle bound to it, `iterations` plan builds each executed
// once, the output checked after each. Returns the first failure, empty when all passed.
std::string buildAndExecuteRepeatedly(int ordinal, int seed, int iterations,
                                      const std::vector<uint8_t>& graph) {
    try {
        hipdnn_test_sdk::checkCuda(cudaSetDevice(ordinal), "cudaSetDevice");
        const Problem problem(seed);
        const size_t bytes = kElements * sizeof(float);
        DeviceBuffer x(bytes);
        DeviceBuffer b(bytes);
        DeviceBuffer y(bytes);
        x.copyFromHost(problem.x.data());
        b.copyFromHost(problem.b.data());
        const BackendHandle handle(HIPDNN_DEVICE_TYPE_GPU_EXT, ordinal);
        std::vector<float> result(kElements);
        for (int iteration = 0; iteration < iterations; ++iteration) {
            y.fillBytes(0xFF);
            const BackendPlan plan(BackendGraph(handle.get(), graph), CUDA_POINTWISE_ENGINE_ID);
            plan.execute(BackendVariantPack({{kX, x.data()}, {kB, b.data()}, {kY, y.data()}}, nullptr));
            y.copyToHost(result.data());
            if (result != problem.y) {
                return "GPU " + std::to_string(ordinal) + ", thread seed " + std::to_string(seed) +
                       ": wrong output at iteration " + std::to_string(iteration);
            }
        }
        return {};
    } catch (const std::exception& error) {
        return "GPU " + std::to_string(ordinal) + ": " + error.what();
    }
}

void everyGpuFromItsOwnThread(int iterations) {
    useThisPluginAndTheReference();
    const std::vector<uint8_t> graph = addRelu();
    const int gpus = gpuCount();
    const int threads = std::max(2, gpus);
    std::vector<std::string> failures(static_cast<size_t>(threads));
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            failures[static_cast<size_t>(t)] = buildAndExecuteRepeatedly(t % gpus, t, iterations, graph);
        });
    }
    for (std::thread& worker : workers) {
        worker.join();
    }
    for (const std::string& failure : failures) {
        EXPECT_EQ(failure, "");
    }
}

TEST(SmokeMultiDevice, EveryGpuFromItsOwnThread) {
    SKIP_IF_NO_DEVICE();
    everyGpuFromItsOwnThread(50);
}

TEST(FullMultiDevice, EveryGpuFromItsOwnThreadThousandPlans) {
    SKIP_IF_NO_DEVICE();
    everyGpuFromItsOwnThread(1000);
}

TEST(SmokeMultiDevice, APointerToAnotherGpuIsRefusedNamingBoth) {
    SKIP_IF_NO_DEVICE();
    if (gpuCount() < 2) {
        GTEST_SKIP() << "needs two GPUs; this machine has " << gpuCount();
    }
    useThisPluginAndTheReference();
    const size_t bytes = kElements * sizeof(float);
    hipdnn_test_sdk::checkCuda(cudaSetDevice(1), "cudaSetDevice(1)");
    DeviceBuffer foreign(bytes);
    hipdnn_test_sdk::checkCuda(cudaSetDevice(0), "cudaSetDevice(0)");
    DeviceBuffer b(bytes);
    DeviceBuffer y(bytes);
    const BackendHandle handle(HIPDNN_DEVICE_TYPE_GPU_EXT, 0);
    const BackendPlan plan(BackendGraph(handle.get(), addRelu()), CUDA_POINTWISE_ENGINE_ID);
    try {
        plan.execute(BackendVariantPack({{kX, foreign.data()}, {kB, b.data()}, {kY, y.data()}}, nullptr));
        FAIL() << "a variant pack with GPU 1's memory ran on a GPU 0 handle";
    } catch (const BackendError& error) {
        EXPECT_NE(std::string(error.what())
                      .find("tensor uid 1 ('x') is memory of GPU 1; the handle is bound to GPU 0"),
                  std::string::npos)
            << error.what();
    }
}

TEST(SmokeMultiDevice, TheHandlesGpuIsUsedWhicheverGpuTheThreadHasCurrent) {
    SKIP_IF_NO_DEVICE();
    if (gpuCount() < 2) {
        GTEST_SKIP() << "needs two GPUs; this machine has " << gpuCount();
    }
    useThisPluginAndTheReference();
    const std::vector<uint8_t> graph = addRelu();
    const Problem problem(3);
    const size_t bytes = kElements * sizeof(float);
    hipdnn_test_sdk::checkCuda(cudaSetDevice(1), "cudaSetDevice(1)");
    DeviceBuffer x(bytes);
    DeviceBuffer b(bytes);
    DeviceBuffer y(bytes);
    x.copyFromHost(problem.x.data());
    b.copyFromHost(problem.b.data());
    const BackendHandle handle(HIPDNN_DEVICE_TYPE_GPU_EXT, 1);
    hipdnn_test_sdk::checkCuda(cudaSetDevice(0), "cudaSetDevice(0)");
    {
        const BackendPlan plan(BackendGraph(handle.get(), graph), CUDA_POINTWISE_ENGINE_ID);
        plan.execute(BackendVariantPack({{kX, x.data()}, {kB, b.data()}, {kY, y.data()}}, nullptr));
        int current = -1;
        hipdnn_test_sdk::checkCuda(cudaGetDevice(&current), "cudaGetDevice");
        EXPECT_EQ(current, 0) << "the thread's current device was not restored";
    }
    // The copy waits for GPU 1's default stream only with GPU 1 current.
    hipdnn_test_sdk::checkCuda(cudaSetDevice(1), "cudaSetDevice(1)");
    std::vector<float> result(kElements);
    y.copyToHost(result.data());
    EXPECT_EQ(result, problem.y);
}

}  // namespace
}  // namespace cuda_kernels_integration
