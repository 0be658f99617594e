// Convolution + per-channel bias + ReLU as one graph, built with the one-call build().
#include <algorithm>

#include "SampleUtils.hpp"

int main() {
    using namespace samples;
    namespace graph = fe::graph;
    const int64_t n = 1, c = 4, h = 5, w = 5, k = 8, r = 3, s = 3;

    graph::Graph g;
    g.set_name("conv_bias_relu")
        .set_io_data_type(fe::DataType::FLOAT)
        .set_intermediate_data_type(fe::DataType::FLOAT)
        .set_compute_data_type(fe::DataType::FLOAT);
    auto x = g.tensor(
        graph::TensorAttributes().set_name("x").set_dim({n, c, h, w}).set_stride({c * h * w, h * w, w, 1}));
    auto filter = g.tensor(
        graph::TensorAttributes().set_name("w").set_dim({k, c, r, s}).set_stride({c * r * s, r * s, s, 1}));
    auto bias =
        g.tensor(graph::TensorAttributes().set_name("bias").set_dim({1, k, 1, 1}).set_stride({k, 1, 1, 1}));
    auto conv = g.conv_fprop(
        x, filter, graph::ConvFpropAttributes().set_padding({1, 1}).set_stride({1, 1}).set_dilation({1, 1}));
    auto biased = g.pointwise(conv, bias, graph::PointwiseAttributes().set_mode(fe::PointwiseMode::ADD));
    auto y = g.pointwise(biased, graph::PointwiseAttributes().set_mode(fe::PointwiseMode::RELU_FWD));
    y->set_output(true);

    CpuHandle handle;
    check(g.build(handle), "build");
    std::string engine;
    check(g.get_plan_name(engine), "get_plan_name");
    std::printf("conv + bias + relu runs on %s (graph key %lld)\n", engine.c_str(),
                static_cast<long long>(g.key()));

    auto xData = randomValues(static_cast<size_t>(x->get_volume()), 3);
    auto wData = randomValues(static_cast<size_t>(filter->get_volume()), 4);
    auto bData = randomValues(static_cast<size_t>(k), 5);
    std::vector<float> yData(static_cast<size_t>(y->get_volume()), -1.0f);
    std::vector<uint8_t> workspace(static_cast<size_t>(g.get_workspace_size()));
    std::unordered_map<graph::TensorPtr, void*> pack{
        {x, xData.data()}, {filter, wData.data()}, {bias, bData.data()}, {y, yData.data()}};
    check(g.execute(handle, pack, workspace.empty() ? nullptr : workspace.data()), "execute");

    auto expected = referenceConv(xData, wData, n, c, h, w, k, r, s, 1);
    for (size_t i = 0; i < expected.size(); ++i) {
        const size_t channel = (i / static_cast<size_t>(h * w)) % static_cast<size_t>(k);
        expected[i] = std::max(expected[i] + bData[channel], 0.0f);
    }
    return allClose(yData, expected, 1e-5f, "conv_bias_relu") ? EXIT_SUCCESS : EXIT_FAILURE;
}
