// Host overhead of building a conv + bias + relu graph through Graph::build() with the shipped
// plugins loaded on a CPU handle: validation, serialization, heuristics and plan creation.
// Target: a median under 1 ms.
#include <benchmark/benchmark.h>

#include <hipdnn_frontend.hpp>

namespace {

namespace fe = hipdnn_frontend;

fe::graph::Graph makeConvBiasRelu() {
    fe::graph::Graph graph;
    graph.set_name("conv_bias_relu")
        .set_io_data_type(fe::DataType::FLOAT)
        .set_intermediate_data_type(fe::DataType::FLOAT)
        .set_compute_data_type(fe::DataType::FLOAT);
    auto x = graph.tensor(fe::graph::TensorAttributes()
                              .set_name("x")
                              .set_dim({8, 64, 56, 56})
                              .set_stride({64 * 56 * 56, 1, 64 * 56, 64}));
    auto w = graph.tensor(fe::graph::TensorAttributes()
                              .set_name("w")
                              .set_dim({64, 64, 3, 3})
                              .set_stride({64 * 9, 1, 64 * 3, 64}));
    auto bias = graph.tensor(
        fe::graph::TensorAttributes().set_name("bias").set_dim({1, 64, 1, 1}).set_stride({64, 1, 64, 64}));
    auto conv = graph.conv_fprop(
        x, w, fe::graph::ConvFpropAttributes().set_padding({1, 1}).set_stride({1, 1}).set_dilation({1, 1}));
    auto biased =
        graph.pointwise(conv, bias, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::ADD));
    auto y = graph.pointwise(biased, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::RELU_FWD));
    y->set_output(true);
    return graph;
}

void BM_BuildConvBiasRelu(benchmark::State& state) {
    hipdnnHandle_t handle = nullptr;
    if (hipdnnCreateForDevice_ext(&handle, HIPDNN_DEVICE_TYPE_CPU_EXT, 0) != HIPDNN_STATUS_SUCCESS) {
        state.SkipWithError("hipdnnCreateForDevice_ext failed");
        return;
    }
    for (auto _ : state) {
        auto graph = makeConvBiasRelu();
        const fe::Error error = graph.build(handle);
        if (error.is_bad()) {
            state.SkipWithError(error.message.c_str());
            break;
        }
        benchmark::DoNotOptimize(graph.get_workspace_size());
    }
    hipdnnDestroy(handle);
}

BENCHMARK(BM_BuildConvBiasRelu)->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);

}  // namespace

BENCHMARK_MAIN();
