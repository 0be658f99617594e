// Serializes a graph to bytes and to JSON, rebuilds it from each on the handle, plans it again
// and checks that all three run to the same result. The key is what a plan cache would use.
#include "SampleUtils.hpp"

namespace {

using namespace samples;
namespace graph = fe::graph;

// conv + relu with fixed uids, so that a deserialized graph takes the same variant pack.
graph::Graph makeGraph() {
    graph::Graph g;
    g.set_name("conv_relu")
        .set_io_data_type(fe::DataType::FLOAT)
        .set_intermediate_data_type(fe::DataType::FLOAT)
        .set_compute_data_type(fe::DataType::FLOAT);
    auto x = g.tensor(
        graph::TensorAttributes().set_name("x").set_uid(1).set_dim({1, 2, 4, 4}).set_stride({32, 16, 4, 1}));
    auto w = g.tensor(
        graph::TensorAttributes().set_name("w").set_uid(2).set_dim({3, 2, 3, 3}).set_stride({18, 9, 3, 1}));
    auto conv = g.conv_fprop(
        x, w, graph::ConvFpropAttributes().set_padding({1, 1}).set_stride({1, 1}).set_dilation({1, 1}));
    auto y = g.pointwise(conv, graph::PointwiseAttributes().set_mode(fe::PointwiseMode::RELU_FWD));
    y->set_output(true).set_uid(3);
    return g;
}

std::vector<float> run(graph::Graph& g, hipdnnHandle_t handle, const std::vector<float>& x,
                       const std::vector<float>& w) {
    std::vector<float> xCopy = x, wCopy = w, y(48, -1.0f);
    std::vector<uint8_t> workspace(static_cast<size_t>(g.get_workspace_size()));
    std::unordered_map<int64_t, void*> pack{{1, xCopy.data()}, {2, wCopy.data()}, {3, y.data()}};
    check(g.execute(handle, pack, workspace.empty() ? nullptr : workspace.data()), "execute");
    return y;
}

}  // namespace

int main() {
    CpuHandle handle;
    graph::Graph original = makeGraph();
    check(original.build(handle), "build");

    std::vector<uint8_t> bytes;
    std::string json;
    check(original.serialize(bytes), "serialize (binary)");
    check(original.serialize(json), "serialize (JSON)");
    std::printf("binary graph: %zu bytes; JSON graph:\n%s\n", bytes.size(), json.c_str());

    graph::Graph fromBytes, fromJson;
    check(fromBytes.deserialize(handle, bytes), "deserialize (binary)");
    check(fromJson.deserialize(handle, json), "deserialize (JSON)");
    for (graph::Graph* restored : {&fromBytes, &fromJson}) {
        check(restored->create_execution_plans(), "create_execution_plans");
        check(restored->check_support(), "check_support");
        check(restored->build_plans(), "build_plans");
    }
    if (original.key() != fromBytes.key() || original.key() != fromJson.key()) {
        std::fprintf(stderr, "keys differ after the round trip\n");
        return EXIT_FAILURE;
    }

    const auto x = randomValues(32, 9);
    const auto w = randomValues(54, 10);
    const auto expected = run(original, handle, x, w);
    const bool ok = allClose(run(fromBytes, handle, x, w), expected, 0.0f, "binary round trip") &&
                    allClose(run(fromJson, handle, x, w), expected, 0.0f, "JSON round trip");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
