// Convolution forward with the explicit lifecycle, checked against a CPU loop.
//   validate -> build_operation_graph -> create_execution_plans -> check_support -> build_plans
//   -> get_workspace_size -> execute
#include "SampleUtils.hpp"

int main() {
    using namespace samples;
    namespace graph = fe::graph;
    const int64_t n = 2, c = 3, h = 6, w = 5, k = 4, r = 3, s = 3;

    graph::Graph g;
    g.set_name("conv_fprop")
        .set_io_data_type(fe::DataType::FLOAT)
        .set_intermediate_data_type(fe::DataType::FLOAT)
        .set_compute_data_type(fe::DataType::FLOAT);
    auto x = g.tensor(
        graph::TensorAttributes().set_name("x").set_dim({n, c, h, w}).set_stride({c * h * w, h * w, w, 1}));
    auto filter = g.tensor(
        graph::TensorAttributes().set_name("w").set_dim({k, c, r, s}).set_stride({c * r * s, r * s, s, 1}));
    auto y = g.conv_fprop(
        x, filter,
        graph::ConvFpropAttributes().set_name("conv").set_padding({1, 1}).set_stride({1, 1}).set_dilation(
            {1, 1}));
    y->set_output(true);

    CpuHandle handle;
    check(g.validate(), "validate");
    check(g.build_operation_graph(handle), "build_operation_graph");
    check(g.create_execution_plans({fe::HeuristicMode::FALLBACK}), "create_execution_plans");
    check(g.check_support(), "check_support");
    check(g.build_plans(fe::BuildPlanPolicy::HEURISTICS_CHOICE), "build_plans");
    std::string engine;
    check(g.get_plan_name(engine), "get_plan_name");
    int64_t workspaceSize = 0;
    check(g.get_workspace_size(workspaceSize), "get_workspace_size");
    std::printf("conv_fprop runs on %s with %lld bytes of workspace; output dims %lld x %lld x %lld x %lld\n",
                engine.c_str(), static_cast<long long>(workspaceSize),
                static_cast<long long>(y->get_dim()[0]), static_cast<long long>(y->get_dim()[1]),
                static_cast<long long>(y->get_dim()[2]), static_cast<long long>(y->get_dim()[3]));

    auto xData = randomValues(static_cast<size_t>(x->get_volume()), 1);
    auto wData = randomValues(static_cast<size_t>(filter->get_volume()), 2);
    std::vector<float> yData(static_cast<size_t>(y->get_volume()), 0.0f);
    std::vector<uint8_t> workspace(static_cast<size_t>(workspaceSize));
    std::unordered_map<graph::TensorPtr, void*> pack{
        {x, xData.data()}, {filter, wData.data()}, {y, yData.data()}};
    check(g.execute(handle, pack, workspace.empty() ? nullptr : workspace.data()), "execute");

    const auto expected = referenceConv(xData, wData, n, c, h, w, k, r, s, 1);
    return allClose(yData, expected, 1e-5f, "conv_fprop") ? EXIT_SUCCESS : EXIT_FAILURE;
}
