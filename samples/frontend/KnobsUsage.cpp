// Knob discovery and a plan with knob settings. The shipped CPU engines publish no knobs, so
// this sample also loads the fake knob plugin of the test suite (FAKE_KNOB_ENGINE: knobs
// "fake.tile.size" sets the workspace, "fake.scale" scales a ReLU's output).
#include <algorithm>

#include "SampleUtils.hpp"

int main() {
    using namespace samples;
    namespace graph = fe::graph;

    const char* paths[] = {HIPDNN_SAMPLE_KNOB_PLUGIN_DIR};
    if (hipdnnSetEnginePluginPaths_ext(1, paths, HIPDNN_PLUGIN_LOADING_ADDITIVE) != HIPDNN_STATUS_SUCCESS) {
        std::fprintf(stderr, "hipdnnSetEnginePluginPaths_ext failed\n");
        return EXIT_FAILURE;
    }
    CpuHandle handle;

    graph::Graph g;
    g.set_name("scaled_relu")
        .set_io_data_type(fe::DataType::FLOAT)
        .set_compute_data_type(fe::DataType::FLOAT);
    auto x = g.tensor(graph::TensorAttributes().set_name("x").set_dim({2, 4}).set_stride({4, 1}));
    auto y = g.pointwise(x, graph::PointwiseAttributes().set_mode(fe::PointwiseMode::RELU_FWD));
    y->set_output(true);
    check(g.build_operation_graph(handle), "build_operation_graph");

    std::vector<fe::Knob> knobs;
    check(g.get_knobs_for_engine("FAKE_KNOB_ENGINE", knobs), "get_knobs_for_engine");
    for (const auto& knob : knobs) {
        std::printf("knob %s (%s), default %s\n", knob.id.c_str(), knob.description.c_str(),
                    fe::to_string(knob.defaultValue).c_str());
    }

    // A value outside a knob's constraint is refused before the backend sees it.
    const fe::Error refused =
        g.create_execution_plan_ext("FAKE_KNOB_ENGINE", {{"fake.tile.size", int64_t{1000}}});
    std::printf("fake.tile.size = 1000: %s\n", refused.message.c_str());
    if (refused.code != fe::ErrorCode::INVALID_VALUE) {
        return EXIT_FAILURE;
    }

    check(g.create_execution_plan_ext("FAKE_KNOB_ENGINE",
                                      {{"fake.tile.size", int64_t{4}}, {"fake.scale", 3.0}}),
          "create_execution_plan_ext");
    check(g.check_support(), "check_support");
    check(g.build_plans(), "build_plans");
    std::printf("workspace with 4 tiles: %lld bytes\n", static_cast<long long>(g.get_workspace_size()));

    std::vector<float> xData = {-1, 2, -3, 4, 5, -6, 7, 0}, yData(8, 0.0f), expected;
    for (float value : xData) {
        expected.push_back(std::max(value, 0.0f) * 3.0f);
    }
    std::vector<uint8_t> workspace(static_cast<size_t>(g.get_workspace_size()));
    std::unordered_map<graph::TensorPtr, void*> pack{{x, xData.data()}, {y, yData.data()}};
    check(g.execute(handle, pack, workspace.empty() ? nullptr : workspace.data()), "execute");
    return g.get_workspace_size() == 16 && allClose(yData, expected, 0.0f, "scaled relu") ? EXIT_SUCCESS
                                                                                          : EXIT_FAILURE;
}
