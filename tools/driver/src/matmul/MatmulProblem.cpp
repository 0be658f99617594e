// matmul: a MatmulSpec to its graph, C[b, m, n] = A[b, m, k] x B[b, k, n] with an optional
// epilogue (bias over n).
#include "Epilogue.hpp"
#include "Problem.hpp"
#include "matmul/MatmulSpec.hpp"

namespace hipdnn_driver {

namespace fe = hipdnn_frontend;

Problem makeMatmulProblem(const MatmulSpec& s) {
    std::string label = std::string("matmul ") + dataTypeFlag(s.dataType) + " b" + std::to_string(s.batch) +
                        " m" + std::to_string(s.m) + " n" + std::to_string(s.n) + " k" + std::to_string(s.k);
    if (!s.epilogue.empty()) {
        label += " +" + epilogueList(s.epilogue);
    }
    fe::graph::Graph graph;
    graph.set_name(label)
        .set_io_data_type(s.dataType)
        .set_intermediate_data_type(DataType::FLOAT)
        .set_compute_data_type(DataType::FLOAT);
    auto a = detail::makeTensor(graph, "a", {s.batch, s.m, s.k}, Layout::ChannelsFirst);
    auto b = detail::makeTensor(graph, "b", {s.batch, s.k, s.n}, Layout::ChannelsFirst);
    auto c = graph.matmul(a, b, fe::graph::MatmulAttributes().set_name("matmul"));
    // The bias runs along the last dim (n), so the epilogue's "channel" dim is 2.
    appendEpilogue(graph, c, {s.batch, s.m, s.n}, 2, Layout::ChannelsFirst, s.epilogue)->set_output(true);
    return Problem{label, commandWordsFor(s), serializeGraph(graph), std::nullopt};
}

}  // namespace hipdnn_driver
