// Host time of Graph::build() for a conv + bias + relu graph on a CPU handle with the shipped
// plugins, three ways: the tuning database off (HIPDNN_DISABLE_CACHE), on with a record of another
// graph only (the lookup misses), and on with this graph's record (the lookup hits). The record
// names ONEDNN_ENGINE, the engine the static order also puts first, so each way builds the same
// plan and the differences are the database's cost on plan creation; target: at most 50 µs on a
// hit.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <hipdnn_frontend.hpp>

namespace {

namespace fe = hipdnn_frontend;

fe::graph::Graph makeConvBiasRelu(int64_t channels) {
    fe::graph::Graph graph;
    graph.set_name("conv_bias_relu")
        .set_io_data_type(fe::DataType::FLOAT)
        .set_intermediate_data_type(fe::DataType::FLOAT)
        .set_compute_data_type(fe::DataType::FLOAT);
    const int64_t size = 28;
    auto x = graph.tensor(fe::graph::TensorAttributes()
                              .set_name("x")
                              .set_uid(1)
                              .set_dim({1, channels, size, size})
                              .set_stride({channels * size * size, 1, channels * size, channels}));
    auto w = graph.tensor(fe::graph::TensorAttributes()
                              .set_name("w")
                              .set_uid(2)
                              .set_dim({channels, channels, 3, 3})
                              .set_stride({channels * 9, 1, channels * 3, channels}));
    auto bias = graph.tensor(fe::graph::TensorAttributes()
                                 .set_name("bias")
                                 .set_uid(3)
                                 .set_dim({1, channels, 1, 1})
                                 .set_stride({channels, 1, channels, channels}));
    auto conv = graph.conv_fprop(
        x, w, fe::graph::ConvFpropAttributes().set_padding({1, 1}).set_stride({1, 1}).set_dilation({1, 1}));
    auto biased =
        graph.pointwise(conv, bias, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::ADD));
    auto y = graph.pointwise(biased, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::RELU_FWD));
    y->set_output(true).set_uid(4);
    return graph;
}

constexpr int64_t kChannels = 16;
constexpr int64_t kOtherChannels = 8;

const std::filesystem::path& benchDirectory() {
    static const std::filesystem::path directory =
        std::filesystem::temp_directory_path() / ("hipdnn_bench_tuning_" + std::to_string(getpid()));
    return directory;
}

std::filesystem::path cacheDirectory(const std::string& kind) {
    return benchDirectory() / kind;
}

// Autotunes the graph of `channels` with the reference engine barred, which records ONEDNN_ENGINE.
std::string recordOnednn(hipdnnHandle_t handle, int64_t channels) {
    auto graph = makeConvBiasRelu(channels);
    fe::Error error = graph.build_operation_graph(handle);
    if (error.is_good()) {
        error = graph.create_execution_plans();
    }
    if (error.is_good()) {
        error = graph.deselect_engines(std::vector<std::string>{"CPU_REFERENCE_ENGINE"});
    }
    std::vector<float> x(static_cast<size_t>(channels * 28 * 28), 1.0f),
        w(static_cast<size_t>(channels * channels * 9), 0.5f), bias(static_cast<size_t>(channels), 0.25f),
        y(x.size());
    std::unordered_map<int64_t, void*> pack{{1, x.data()}, {2, w.data()}, {3, bias.data()}, {4, y.data()}};
    if (error.is_good()) {
        error = graph.autotune(handle, pack, nullptr);
    }
    return error.message;
}

hipdnnHandle_t createCpuHandle() {
    hipdnnHandle_t handle = nullptr;
    return hipdnnCreateForDevice_ext(&handle, HIPDNN_DEVICE_TYPE_CPU_EXT, 0) == HIPDNN_STATUS_SUCCESS
               ? handle
               : nullptr;
}

// The handle's database is the environment's when it is created.
hipdnnHandle_t createHandleFor(const std::string& kind) {
    setenv("HIPDNN_CACHE_DIR", cacheDirectory(kind).c_str(), 1);
    if (kind == "off") {
        setenv("HIPDNN_DISABLE_CACHE", "1", 1);
    } else {
        unsetenv("HIPDNN_DISABLE_CACHE");
    }
    return createCpuHandle();
}

void buildLoop(benchmark::State& state, const std::string& kind) {
    hipdnnHandle_t handle = createHandleFor(kind);
    if (handle == nullptr) {
        state.SkipWithError("hipdnnCreateForDevice_ext failed");
        return;
    }
    for (auto _ : state) {
        auto graph = makeConvBiasRelu(kChannels);
        const fe::Error error = graph.build(handle);
        if (error.is_bad()) {
            state.SkipWithError(error.message.c_str());
            break;
        }
        benchmark::DoNotOptimize(graph.get_workspace_size());
        std::string engine;
        if (graph.get_plan_name(engine).is_good()) {
            state.SetLabel(engine);
        }
    }
    hipdnnDestroy(handle);
}

void BM_BuildDatabaseOff(benchmark::State& state) {
    buildLoop(state, "off");
}
void BM_BuildDatabaseMiss(benchmark::State& state) {
    buildLoop(state, "miss");
}
void BM_BuildDatabaseHit(benchmark::State& state) {
    buildLoop(state, "hit");
}

// Run with --benchmark_enable_random_interleaving=true so that drift in the machine's load
// spreads over all three.
BENCHMARK(BM_BuildDatabaseOff)->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(BM_BuildDatabaseMiss)->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(BM_BuildDatabaseHit)->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    for (const auto& [kind, channels] :
         {std::pair<std::string, int64_t>{"miss", kOtherChannels}, {"hit", kChannels}}) {
        hipdnnHandle_t handle = createHandleFor(kind);
        const std::string failure =
            handle == nullptr ? "hipdnnCreateForDevice_ext failed" : recordOnednn(handle, channels);
        hipdnnDestroy(handle);
        if (!failure.empty()) {
            std::fprintf(stderr, "recording the %s database failed: %s\n", kind.c_str(), failure.c_str());
            return 1;
        }
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    std::filesystem::remove_all(benchDirectory());
    return 0;
}
