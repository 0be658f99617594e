// Synchronized batch norm (peer_stats) on every GPU of the host at once, one thread and one
// handle per GPU, through NCCL communicators the bench makes itself (ncclCommInitAll) and hands
// to the handles with hipdnnSetCommunicator_ext, as a framework that owns its communicators
// would. The global batch of 64×256×56×56 bf16 NHWC is split evenly over the G GPUs; for the local
// batch each GPU times (median of CUDA-event-timed batches after a warm-up, the slowest GPU's):
//   local_ms      batch norm of the local batch alone (no peers), CUDA_NORM_ENGINE
//   allreduce_ms  one ncclAllReduce of 2·C floats over the group
//   sync_ms       the synchronized batch norm, CUDA_NORM_ENGINE
// and prints, for training and backward,
//   BENCH impl=hipdnn problem=sync_bn_<mode>_<local dims> gpus=G local_ms= allreduce_ms= sync_ms=
//   ratio=<sync_ms / (local_ms + allreduce_ms)>
#include "../tests/NormGraphs.hpp"
#include "BenchTiming.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>
#include <hipdnn_test_sdk/BackendRun.hpp>
#include <hipdnn_test_sdk/DeviceTensor.hpp>
#include <hipdnn_test_sdk/ElementAccess.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;
using cuda_kernels_test::BatchnormMode;
using hipdnn_test_sdk::checkCuda;

constexpr int64_t kGlobalBatch = 64;
constexpr int64_t kChannels = 256;
constexpr int64_t kSpatial = 56;

// The NCCL calls the bench makes (nccl.h 2.x ABI: enums are ints, handles pointers).
struct Nccl {
    Nccl() {
        void* library = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
        if (library == nullptr) {
            throw std::runtime_error(std::string("dlopen(\"libnccl.so.2\") failed: ") + dlerror());
        }
        commInitAll = reinterpret_cast<decltype(commInitAll)>(dlsym(library, "ncclCommInitAll"));
        commDestroy = reinterpret_cast<decltype(commDestroy)>(dlsym(library, "ncclCommDestroy"));
        allReduce = reinterpret_cast<decltype(allReduce)>(dlsym(library, "ncclAllReduce"));
        if (commInitAll == nullptr || commDestroy == nullptr || allReduce == nullptr) {
            throw std::runtime_error("libnccl.so.2 lacks ncclCommInitAll, ncclCommDestroy or ncclAllReduce");
        }
    }
    static void check(int result, const char* call) {
        if (result != 0) {
            throw std::runtime_error(std::string(call) + " failed with NCCL result " +
                                     std::to_string(result));
        }
    }
    int (*commInitAll)(void** communicators, int count, const int* devices) = nullptr;
    int (*commDestroy)(void* communicator) = nullptr;
    int (*allReduce)(const void* send, void* receive, size_t count, int dataType, int operation,
                     void* communicator, void* stream) = nullptr;
};
constexpr int kNcclFloat32 = 7;
constexpr int kNcclSum = 0;

// A plan of `graph` on `handle` with every tensor in memory allocated and filled: activations and
// statistics with small positive values (so that variances stay positive).
struct PlannedGraph {
    PlannedGraph(hipdnnHandle_t handle, const hipdnn_test_sdk::GraphBuilder& builder)
        : bytes(builder.build()),
          plan(hipdnn_test_sdk::BackendGraph(handle, bytes), hipdnn_data_sdk::utilities::CUDA_NORM_ENGINE_ID),
          workspace(static_cast<size_t>(plan.workspaceSize())) {
        const hipdnn_flatbuffers_sdk::GraphWrapper graph(bytes.data(), bytes.size());
        for (const auto* tensor : *graph.graph().tensors()) {
            if (tensor->virtual_() || tensor->value_type() != fb::TensorValue::NONE) {
                continue;
            }
            size_t count = 1;
            for (const int64_t dim : *tensor->dims()) {
                count *= static_cast<size_t>(dim);
            }
            std::vector<std::byte> host(count * hipdnn_test_sdk::dataTypeSize(tensor->data_type()));
            for (size_t i = 0; i < count; ++i) {
                hipdnn_test_sdk::writeElement(tensor->data_type(), host.data(), static_cast<int64_t>(i),
                                              0.25 + 0.5 * static_cast<double>(i % 7) / 7.0);
            }
            auto& buffer =
                buffers.emplace(tensor->uid(), hipdnn_test_sdk::DeviceBuffer(host.size())).first->second;
            buffer.copyFromHost(host.data());
            pointers[tensor->uid()] = buffer.data();
        }
    }
    void execute() const { plan.execute(hipdnn_test_sdk::BackendVariantPack(pointers, workspace.data())); }

    std::vector<uint8_t> bytes;
    hipdnn_test_sdk::BackendPlan plan;
    hipdnn_test_sdk::DeviceBuffer workspace;
    std::map<int64_t, hipdnn_test_sdk::DeviceBuffer> buffers;
    std::map<int64_t, void*> pointers;
};

struct GpuTimes {
    double localMs = 0;
    double allReduceMs = 0;
    double syncMs = 0;
    std::string error;
};

GpuTimes timeOnGpu(int gpu, int gpus, hipdnnHandle_t handle, void* communicator, const Nccl& nccl,
                   BatchnormMode mode) {
    GpuTimes times;
    try {
        checkCuda(cudaSetDevice(gpu), "cudaSetDevice");
        const std::vector<int64_t> dims = {kGlobalBatch / gpus, kChannels, kSpatial, kSpatial};
        const PlannedGraph local(handle,
                                 cuda_kernels_test::batchnormGraph(mode, fb::DataType::BFLOAT16, dims, true));
        const PlannedGraph synchronized(
            handle, cuda_kernels_test::batchnormGraph(mode, fb::DataType::BFLOAT16, dims, true,
                                                      cuda_kernels_test::Epilogue::None, gpus));
        hipdnn_test_sdk::DeviceBuffer sums(2 * kChannels * sizeof(float));
        sums.fillBytes(0);
        // Every rank runs the same sequence, so that each collective meets its peers.
        times.localMs = cuda_kernels_bench::medianMs([&] { local.execute(); });
        times.allReduceMs = cuda_kernels_bench::medianMs([&] {
            Nccl::check(nccl.allReduce(sums.data(), sums.data(), 2 * kChannels, kNcclFloat32, kNcclSum,
                                       communicator, nullptr),
                        "ncclAllReduce");
        });
        times.syncMs = cuda_kernels_bench::medianMs([&] { synchronized.execute(); });
    } catch (const std::exception& error) {
        times.error = "GPU " + std::to_string(gpu) + ": " + error.what();
    }
    return times;
}

}  // namespace

int main() {
    try {
        const char* paths[] = {HIPDNN_CUDA_KERNELS_PLUGIN_PATH};
        hipdnn_test_sdk::checkBackend(
            hipdnnSetEnginePluginPaths_ext(1, paths, HIPDNN_PLUGIN_LOADING_ABSOLUTE),
            "hipdnnSetEnginePluginPaths_ext");
        int gpus = 0;
        checkCuda(cudaGetDeviceCount(&gpus), "cudaGetDeviceCount");
        const Nccl nccl;
        std::vector<int> devices(static_cast<size_t>(gpus));
        std::vector<void*> communicators(static_cast<size_t>(gpus));
        std::vector<hipdnn_test_sdk::BackendHandle> handles;
        for (int gpu = 0; gpu < gpus; ++gpu) {
            devices[static_cast<size_t>(gpu)] = gpu;
            handles.emplace_back(HIPDNN_DEVICE_TYPE_GPU_EXT, gpu);
        }
        Nccl::check(nccl.commInitAll(communicators.data(), gpus, devices.data()), "ncclCommInitAll");
        for (int gpu = 0; gpu < gpus; ++gpu) {
            hipdnn_test_sdk::checkBackend(hipdnnSetCommunicator_ext(handles[static_cast<size_t>(gpu)].get(),
                                                                    communicators[static_cast<size_t>(gpu)]),
                                          "hipdnnSetCommunicator_ext");
        }
        for (const BatchnormMode mode : {BatchnormMode::Training, BatchnormMode::Backward}) {
            std::vector<GpuTimes> times(static_cast<size_t>(gpus));
            std::vector<std::thread> threads;
            for (int gpu = 0; gpu < gpus; ++gpu) {
                threads.emplace_back([&, gpu] {
                    const auto index = static_cast<size_t>(gpu);
                    times[index] =
                        timeOnGpu(gpu, gpus, handles[index].get(), communicators[index], nccl, mode);
                });
            }
            for (std::thread& thread : threads) {
                thread.join();
            }
            GpuTimes slowest;
            for (const GpuTimes& gpu : times) {
                if (!gpu.error.empty()) {
                    throw std::runtime_error(gpu.error);
                }
                slowest.localMs = std::max(slowest.localMs, gpu.localMs);
                slowest.allReduceMs = std::max(slowest.allReduceMs, gpu.allReduceMs);
                slowest.syncMs = std::max(slowest.syncMs, gpu.syncMs);
            }
            std::printf(
                "BENCH impl=hipdnn problem=sync_bn_%s_%ldx%ldx%ldx%ld_nhwc_bf16 gpus=%d local_ms=%.4f "
                "allreduce_ms=%.4f sync_ms=%.4f ratio=%.3f\n",
                cuda_kernels_test::batchnormModeName(mode).c_str(), static_cast<long>(kGlobalBatch / gpus),
                static_cast<long>(kChannels), static_cast<long>(kSpatial), static_cast<long>(kSpatial), gpus,
                slowest.localMs, slowest.allReduceMs, slowest.syncMs,
                slowest.syncMs / (slowest.localMs + slowest.allReduceMs));
        }
        for (size_t gpu = 0; gpu < handles.size(); ++gpu) {
            hipdnn_test_sdk::checkBackend(hipdnnSetCommunicator_ext(handles[gpu].get(), nullptr),
                                          "hipdnnSetCommunicator_ext");
            nccl.commDestroy(communicators[gpu]);
        }
    } catch (const std::exception& error) {
        std::fprintf(stderr, "hipdnn_sync_batchnorm_bench: %s\n", error.what());
        return 1;
    }
    return 0;
}
