// Times CUDA_POINTWISE_ENGINE through the backend C API on a GPU handle. For each problem prints
//   BENCH impl=hipdnn problem=<name> dtype=<t> plan_ms=<build time of the first plan> ms=<median>
//   gbps=<bytes read and written per second>
// The first plan of a problem in a process compiles (cold cache) or loads from HIPDNN_CACHE_DIR
// (a second run); the median is over repeats of CUDA-event-timed batches after a warm-up.
#include "BenchTiming.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_test_sdk/BackendRun.hpp>
#include <hipdnn_test_sdk/DeviceTensor.hpp>
#include <hipdnn_test_sdk/ElementAccess.hpp>
#include <hipdnn_test_sdk/GraphBuilder.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;
using hipdnn_test_sdk::checkCuda;
using hipdnn_test_sdk::GraphBuilder;

struct Problem {
    std::string name;
    fb::DataType type;
    GraphBuilder graph;
    std::vector<int64_t> memoryUids;  // every tensor in memory, each of `elements` elements
    int64_t elements;
};

// y = relu(1.5 * x + b), the chain torch.compile fuses into one kernel.
Problem scaleAddRelu(fb::DataType type, const std::vector<int64_t>& dims) {
    GraphBuilder builder("scale_add_relu");
    builder.addTensor(1, "x", type, dims)
        .addScalar(2, "alpha", fb::DataType::FLOAT, 1.5)
        .addTensor(3, "scaled", fb::DataType::FLOAT, dims, {}, true)
        .addTensor(4, "b", type, dims)
        .addTensor(5, "sum", fb::DataType::FLOAT, dims, {}, true)
        .addTensor(6, "y", type, dims)
        .addPointwise("scale", fb::PointwiseMode::MUL, 1, 3, 2)
        .addPointwise("add", fb::PointwiseMode::ADD, 3, 5, 4)
        .addPointwise("relu", fb::PointwiseMode::RELU_FWD, 5, 6);
    int64_t elements = 1;
    for (const int64_t dim : dims) {
        elements *= dim;
    }
    return {"relu_scale_add_" + std::to_string(dims[0]) + "x" + std::to_string(dims[1]) + "x" +
                std::to_string(dims[2]) + "x" + std::to_string(dims[3]),
            type,
            builder,
            {1, 4, 6},
            elements};
}

void run(hipdnnHandle_t handle, const Problem& problem) {
    const std::vector<uint8_t> bytes = problem.graph.build();
    const size_t elementBytes = hipdnn_test_sdk::dataTypeSize(problem.type);
    std::map<int64_t, hipdnn_test_sdk::DeviceBuffer> buffers;
    std::map<int64_t, void*> pointers;
    for (const int64_t uid : problem.memoryUids) {
        auto& buffer = buffers.emplace(uid, hipdnn_test_sdk::DeviceBuffer(problem.elements * elementBytes))
                           .first->second;
        buffer.fillBytes(0x3C);
        pointers[uid] = buffer.data();
    }
    const auto started = std::chrono::steady_clock::now();
    const hipdnn_test_sdk::BackendPlan plan(hipdnn_test_sdk::BackendGraph(handle, bytes),
                                            hipdnn_data_sdk::utilities::CUDA_POINTWISE_ENGINE_ID);
    const double planMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    const hipdnn_test_sdk::BackendVariantPack pack(pointers, nullptr);
    const double ms = cuda_kernels_bench::medianMs([&] { plan.execute(pack); });
    const double traffic = static_cast<double>(problem.memoryUids.size() * problem.elements * elementBytes);
    std::printf("BENCH impl=hipdnn problem=%s dtype=%s plan_ms=%.3f ms=%.4f gbps=%.0f\n",
                problem.name.c_str(), fb::EnumNameDataType(problem.type), planMs, ms, traffic / (ms * 1e6));
}

}  // namespace

int main() {
    try {
        const char* paths[] = {HIPDNN_CUDA_KERNELS_PLUGIN_PATH};
        hipdnn_test_sdk::checkBackend(
            hipdnnSetEnginePluginPaths_ext(1, paths, HIPDNN_PLUGIN_LOADING_ABSOLUTE),
            "hipdnnSetEnginePluginPaths_ext");
        const hipdnn_test_sdk::BackendHandle handle(HIPDNN_DEVICE_TYPE_GPU_EXT, 0);
        run(handle.get(), scaleAddRelu(fb::DataType::BFLOAT16, {64, 256, 56, 56}));
        run(handle.get(), scaleAddRelu(fb::DataType::HALF, {64, 256, 56, 56}));
        run(handle.get(), scaleAddRelu(fb::DataType::FLOAT, {64, 256, 56, 56}));
    } catch (const std::exception& error) {
        std::fprintf(stderr, "hipdnn_cuda_kernels_bench: %s\n", error.what());
        return 1;
    }
    return 0;
}
