// Host time of one Graph::execute of a built 2x3 add graph, on a CPU handle and (in builds with
// CUDA) a GPU handle with device buffers: the C++ side of the Python binding's execute overhead
// (python/bench/execute_overhead.py times the same graph through hipdnn.Graph.execute). Both print
// the engine that ran, so the two compare the same path. On the GPU execute only enqueues the plan,
// so the time is the host's.
#include <benchmark/benchmark.h>

#include <hipdnn_frontend.hpp>

#ifdef HIPDNN_BENCH_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#include <algorithm>
#include <array>
#include <vector>

namespace {

namespace fe = hipdnn_frontend;

// The graph's three buffers and its workspace, in host memory or (GPU handles) device memory.
struct Buffers {
    std::array<void*, 4> pointers{};
    bool onDevice = false;
    std::vector<std::byte> host;

    Buffers(bool device, size_t workspaceBytes) : onDevice(device) {
        const std::array<size_t, 4> sizes{6 * sizeof(float), 6 * sizeof(float), 6 * sizeof(float),
                                          workspaceBytes};
        if (!onDevice) {
            host.resize(sizes[0] + sizes[1] + sizes[2] + sizes[3]);
            size_t offset = 0;
            for (size_t index = 0; index < sizes.size(); ++index) {
                pointers[index] = host.data() + offset;
                offset += sizes[index];
            }
            return;
        }
#ifdef HIPDNN_BENCH_HAVE_CUDA
        for (size_t index = 0; index < sizes.size(); ++index) {
            if (cudaMalloc(&pointers[index], sizes[index]) != cudaSuccess) {
                pointers[index] = nullptr;
            }
        }
#endif
    }
    ~Buffers() {
#ifdef HIPDNN_BENCH_HAVE_CUDA
        if (onDevice) {
            cudaDeviceSynchronize();
            for (void* pointer : pointers) {
                cudaFree(pointer);
            }
        }
#endif
    }
    Buffers(const Buffers&) = delete;
    Buffers& operator=(const Buffers&) = delete;
    [[nodiscard]] bool allocated() const {
        return std::all_of(pointers.begin(), pointers.end(),
                           [](void* pointer) { return pointer != nullptr; });
    }
};

void BM_ExecuteAdd(benchmark::State& state, hipdnnDeviceType_ext_t device) {
    hipdnnHandle_t handle = nullptr;
    if (hipdnnCreateForDevice_ext(&handle, device, 0) != HIPDNN_STATUS_SUCCESS) {
        state.SkipWithError("hipdnnCreateForDevice_ext failed (no such device?)");
        return;
    }
    fe::graph::Graph graph;
    graph.set_name("add").set_io_data_type(fe::DataType::FLOAT).set_compute_data_type(fe::DataType::FLOAT);
    auto a = graph.tensor(fe::graph::TensorAttributes().set_name("a").set_dim({2, 3}).set_stride({3, 1}));
    auto b = graph.tensor(fe::graph::TensorAttributes().set_name("b").set_dim({2, 3}).set_stride({3, 1}));
    auto c = graph.pointwise(a, b, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::ADD));
    c->set_output(true);
    if (const fe::Error error = graph.build(handle); error.is_bad()) {
        state.SkipWithError(error.message.c_str());
        hipdnnDestroy(handle);
        return;
    }
    std::string engine;
    (void)graph.get_plan_name(engine);
    state.SetLabel(engine);
    const Buffers buffers(device == HIPDNN_DEVICE_TYPE_GPU_EXT,
                          static_cast<size_t>(std::max<int64_t>(graph.get_workspace_size(), 1)));
    if (!buffers.allocated()) {
        state.SkipWithError("device memory allocation failed");
        hipdnnDestroy(handle);
        return;
    }
    const auto& [x, y, z, workspace] = buffers.pointers;
    std::unordered_map<fe::graph::TensorPtr, void*> pack{{a, x}, {b, y}, {c, z}};
    for (auto _ : state) {
        if (const fe::Error error = graph.execute(handle, pack, workspace); error.is_bad()) {
            state.SkipWithError(error.message.c_str());
            break;
        }
        benchmark::DoNotOptimize(z);
    }
    hipdnnDestroy(handle);
}

BENCHMARK_CAPTURE(BM_ExecuteAdd, cpu, HIPDNN_DEVICE_TYPE_CPU_EXT)
    ->Unit(benchmark::kMicrosecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);
#ifdef HIPDNN_BENCH_HAVE_CUDA
BENCHMARK_CAPTURE(BM_ExecuteAdd, gpu, HIPDNN_DEVICE_TYPE_GPU_EXT)
    ->Unit(benchmark::kMicrosecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);
#endif

}  // namespace

BENCHMARK_MAIN();
