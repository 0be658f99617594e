// Host-side overhead of the backend with fake plugins (no kernels worth measuring): handle
// creation with N plugins, the heuristic query, plan building and execute of a one-element
// graph. Goal: execute overhead <= 1 us median.
//   HIPDNN_BENCH_PLUGIN_DIR (compile definition): <build>/lib/test_plugins
#include <benchmark/benchmark.h>
#include <hipdnn_flatbuffers_sdk/data_objects/graph_generated.h>

#include <string>
#include <vector>

#include "hipdnn_backend.h"

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

struct Pipeline {
    hipdnnHandle_t handle = nullptr;
    hipdnnBackendDescriptor_t graph = nullptr;

    Pipeline() {
        hipdnnCreateForDevice_ext(&handle, HIPDNN_DEVICE_TYPE_CPU_EXT, 0);
        const std::vector<uint8_t> bytes = oneElementReluGraph();
        hipdnnBackendCreateAndDeserializeGraph_ext(&graph, bytes.data(), bytes.size());
        hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &handle);
        hipdnnBackendFinalize(graph);
    }
    ~Pipeline() {
        hipdnnBackendDestroyDescriptor(graph);
        hipdnnDestroy(handle);
    }

    hipdnnBackendDescriptor_t heuristic() const {
        hipdnnBackendDescriptor_t heuristic = nullptr;
        hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, &heuristic);
        hipdnnBackendSetAttribute(heuristic, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH,
                                  HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph);
        const hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
        hipdnnBackendSetAttribute(heuristic, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode);
        hipdnnBackendFinalize(heuristic);
        return heuristic;
    }

    hipdnnBackendDescriptor_t plan() const {
        hipdnnBackendDescriptor_t search = heuristic();
        hipdnnBackendDescriptor_t config = nullptr;
        hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &config);
        int64_t count = 0;
        hipdnnBackendGetAttribute(search, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                                  &count, &config);
        hipdnnBackendFinalize(config);
        hipdnnBackendDescriptor_t plan = nullptr;
        hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &plan);
        hipdnnBackendSetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG,
                                  HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &config);
        hipdnnBackendFinalize(plan);
        hipdnnBackendDestroyDescriptor(config);
        hipdnnBackendDestroyDescriptor(search);
        return plan;
    }
};

void BM_HandleCreation(benchmark::State& state) {
    // 1 plugin: good_cpu; 4 plugins: good_cpu + the three of "ranking".
    usePlugins(state.range(0) == 1 ? std::vector<std::string>{"good_cpu"}
                                   : std::vector<std::string>{"good_cpu", "ranking"});
    hipdnnSetPluginUnloadMode_ext(HIPDNN_PLUGIN_UNLOAD_LAZY);
    for (auto _ : state) {
        hipdnnHandle_t handle = nullptr;
        hipdnnCreateForDevice_ext(&handle, HIPDNN_DEVICE_TYPE_CPU_EXT, 0);
        hipdnnDestroy(handle);
    }
}
BENCHMARK(BM_HandleCreation)->Arg(1)->Arg(4);

void BM_HeuristicQuery(benchmark::State& state) {
    usePlugins({"good_cpu", "ranking"});
    Pipeline pipeline;
    for (auto _ : state) {
        hipdnnBackendDestroyDescriptor(pipeline.heuristic());
    }
}
BENCHMARK(BM_HeuristicQuery);

void BM_PlanBuild(benchmark::State& state) {
    usePlugins({"good_cpu"});
    Pipeline pipeline;
    for (auto _ : state) {
        hipdnnBackendDestroyDescriptor(pipeline.plan());
    }
}
BENCHMARK(BM_PlanBuild);

void BM_Execute(benchmark::State& state) {
    usePlugins({"good_cpu"});
    Pipeline pipeline;
    hipdnnBackendDescriptor_t plan = pipeline.plan();
    float x = -1.0f, y = 0.0f;
    int64_t uids[] = {1, 2};
    void* pointers[] = {&x, &y};
    void* workspace = nullptr;
    hipdnnBackendDescriptor_t pack = nullptr;
    hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &pack);
    hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 2, uids);
    hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 2,
                              pointers);
    hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &workspace);
    hipdnnBackendFinalize(pack);
    for (auto _ : state) {
        benchmark::DoNotOptimize(hipdnnBackendExecute(pipeline.handle, plan, pack));
    }
    hipdnnBackendDestroyDescriptor(pack);
    hipdnnBackendDestroyDescriptor(plan);
}
BENCHMARK(BM_Execute);

}  // namespace

BENCHMARK_MAIN();
