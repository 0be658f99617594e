// Host-side overhead of the backend with fake plugins (no kernels worth measuring): handle
// creation with N plugins, the heuristic query, plan building and execute of a one-element
// graph. Goal: execute overhead <= 1 us median. Each step is one object of
// hipdnn_test_sdk/BackendRun.hpp, which makes that step's backend calls and nothing else.
//   HIPDNN_BENCH_PLUGIN_DIR (compile definition): <build>/lib/test_plugins
#include <benchmark/benchmark.h>
#include <hipdnn_flatbuffers_sdk/data_objects/graph_generated.h>
#include <hipdnn_test_sdk/BackendRun.hpp>

#include <string>
#include <vector>

namespace {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

void usePlugins(const std::vector<std::string>& cases) {
    std::vector<std::string> paths;
    std::vector<const char*> pointers;
    for (const std::string& name : cases) {
        paths.push_back(std::string(HIPDNN_BENCH_PLUGIN_DIR) + "/" + name);
    }
    for (const std::string& path : paths) {
        pointers.push_back(path.c_str());
    }
    hipdnnSetEnginePluginPaths_ext(pointers.size(), pointers.data(), HIPDNN_PLUGIN_LOADING_ABSOLUTE);
}

std::vector<uint8_t> oneElementReluGraph() {
    flatbuffers::FlatBufferBuilder builder;
    const std::vector<int64_t> dims = {1}, strides = {1};
    std::vector<flatbuffers::Offset<fb::TensorAttributes>> tensors = {
        fb::CreateTensorAttributesDirect(builder, 1, "x", fb::DataType::FLOAT, &strides, &dims),
        fb::CreateTensorAttributesDirect(builder, 2, "y", fb::DataType::FLOAT, &strides, &dims)};
    fb::PointwiseAttributesBuilder attributes(builder);
    attributes.add_operation(fb::PointwiseMode::RELU_FWD);
    attributes.add_in_0_tensor_uid(1);
    attributes.add_out_0_tensor_uid(2);
    const auto pointwise = attributes.Finish();
    std::vector<flatbuffers::Offset<fb::Node>> nodes = {fb::CreateNodeDirect(
        builder, "relu", fb::DataType::FLOAT, fb::NodeAttributes::PointwiseAttributes, pointwise.Union())};
    builder.Finish(fb::CreateGraphDirect(builder, "bench", fb::DataType::FLOAT, fb::DataType::FLOAT,
                                         fb::DataType::FLOAT, &tensors, &nodes));
    return {builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize()};
}

// A CPU handle and the finalized one-element graph the benchmarks plan and execute.
struct Pipeline {
    hipdnn_test_sdk::BackendHandle handle{HIPDNN_DEVICE_TYPE_CPU_EXT};
    hipdnn_test_sdk::BackendGraph graph{handle.get(), oneElementReluGraph()};
};

void BM_HandleCreation(benchmark::State& state) {
    // 1 plugin: good_cpu; 4 plugins: good_cpu + the three of "ranking".
    usePlugins(state.range(0) == 1 ? std::vector<std::string>{"good_cpu"}
                                   : std::vector<std::string>{"good_cpu", "ranking"});
    hipdnnSetPluginUnloadMode_ext(HIPDNN_PLUGIN_UNLOAD_LAZY);
    for (auto _ : state) {
        const hipdnn_test_sdk::BackendHandle handle(HIPDNN_DEVICE_TYPE_CPU_EXT);  // create + destroy
    }
}
BENCHMARK(BM_HandleCreation)->Arg(1)->Arg(4);

void BM_HeuristicQuery(benchmark::State& state) {
    usePlugins({"good_cpu", "ranking"});
    const Pipeline pipeline;
    for (auto _ : state) {
        // Create an ENGINEHEUR, set the graph and the mode, finalize, destroy.
        const hipdnn_test_sdk::BackendHeuristics heuristics(pipeline.graph);
    }
}
BENCHMARK(BM_HeuristicQuery);

void BM_PlanBuild(benchmark::State& state) {
    usePlugins({"good_cpu"});
    const Pipeline pipeline;
    for (auto _ : state) {
        // The heuristics, then an ENGINECFG from their first result, finalized, and a finalized
        // EXECUTION_PLAN on it; all destroyed.
        const hipdnn_test_sdk::BackendPlan plan{hipdnn_test_sdk::BackendHeuristics{pipeline.graph}};
    }
}
BENCHMARK(BM_PlanBuild);

void BM_Execute(benchmark::State& state) {
    usePlugins({"good_cpu"});
    const Pipeline pipeline;
    const hipdnn_test_sdk::BackendPlan plan{hipdnn_test_sdk::BackendHeuristics{pipeline.graph}};
    float x = -1.0f, y = 0.0f;
    const hipdnn_test_sdk::BackendVariantPack pack({{1, &x}, {2, &y}}, nullptr);
    for (auto _ : state) {
        plan.execute(pack);  // one hipdnnBackendExecute
    }
}
BENCHMARK(BM_Execute);

}  // namespace

BENCHMARK_MAIN();
