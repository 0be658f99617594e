// pointwise: a PointwiseSpec to its graph, one elementwise operation with 1 to 3 inputs; the
// others broadcast (--b-dims).
#include "Problem.hpp"
#include "pointwise/PointwiseSpec.hpp"

#include <hipdnn_flatbuffers_sdk/NodeWrapper.hpp>

namespace hipdnn_driver {

namespace fe = hipdnn_frontend;

Problem makePointwiseProblem(const PointwiseSpec& s) {
    const int inputCount = hipdnn_flatbuffers_sdk::pointwiseInputCount(fe::detail::toFbs(s.mode));
    if (inputCount == 0) {
        throw ProblemError("pointwise mode " + pointwiseModeName(s.mode) +
                           " takes no tensor inputs the driver can give");
    }
    const auto& otherDims = s.secondDims.empty() ? s.dims : s.secondDims;
    std::string label =
        "pointwise " + pointwiseModeName(s.mode) + " " + dataTypeFlag(s.dataType) + " " +
        (s.dims.size() >= 4 ? detail::layoutName(s.layout, s.dims.size()) + " " : std::string()) +
        detail::joinDims(s.dims, 'x');
    if (inputCount > 1 && otherDims != s.dims) {
        label += " with " + detail::joinDims(otherDims, 'x');
    }
    fe::graph::Graph graph;
    graph.set_name(label)
        .set_io_data_type(s.dataType)
        .set_intermediate_data_type(DataType::FLOAT)
        .set_compute_data_type(DataType::FLOAT);
    auto attributes = fe::graph::PointwiseAttributes().set_name("pointwise").set_mode(s.mode);
    auto a = detail::makeTensor(graph, "a", s.dims, s.layout);
    fe::graph::TensorPtr out;
    if (inputCount == 1) {
        out = graph.pointwise(a, attributes);
    } else if (inputCount == 2) {
        out = graph.pointwise(a, detail::makeTensor(graph, "b", otherDims, s.layout), attributes);
    } else {
        out = graph.pointwise(a, detail::makeTensor(graph, "b", otherDims, s.layout),
                              detail::makeTensor(graph, "c", otherDims, s.layout), attributes);
    }
    out->set_output(true);
    return Problem{label, commandWordsFor(s), serializeGraph(graph), std::nullopt};
}

}  // namespace hipdnn_driver
