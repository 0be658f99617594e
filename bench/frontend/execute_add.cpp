// Host time of one Graph::execute of a built 2x3 add graph on a CPU handle: the C++ side of the
// Python binding's execute overhead (python/bench/execute_overhead.py times the same graph through
// hipdnn.Graph.execute). Both print the engine that ran, so the two compare the same path.
#include <benchmark/benchmark.h>

#include <hipdnn_frontend.hpp>

#include <array>
#include <iostream>
#include <vector>

namespace {

namespace fe = hipdnn_frontend;

void BM_ExecuteAdd(benchmark::State& state) {
    hipdnnHandle_t handle = nullptr;
    if (hipdnnCreateForDevice_ext(&handle, HIPDNN_DEVICE_TYPE_CPU_EXT, 0) != HIPDNN_STATUS_SUCCESS) {
        state.SkipWithError("hipdnnCreateForDevice_ext failed");
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
    std::array<float, 6> x{1, 2, 3, 4, 5, 6}, y{6, 5, 4, 3, 2, 1}, z{};
    std::vector<std::byte> workspace(static_cast<size_t>(std::max<int64_t>(graph.get_workspace_size(), 1)));
    std::unordered_map<fe::graph::TensorPtr, void*> pack{{a, x.data()}, {b, y.data()}, {c, z.data()}};
    for (auto _ : state) {
        if (const fe::Error error = graph.execute(handle, pack, workspace.data()); error.is_bad()) {
            state.SkipWithError(error.message.c_str());
            break;
        }
        benchmark::DoNotOptimize(z.data());
    }
    hipdnnDestroy(handle);
}

BENCHMARK(BM_ExecuteAdd)->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);

}  // namespace

BENCHMARK_MAIN();
