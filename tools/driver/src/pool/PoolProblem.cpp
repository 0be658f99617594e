// pool: a PoolSpec to its graph, 2-D max or average pooling through the resample operation.
#include "Problem.hpp"
#include "pool/PoolSpec.hpp"

namespace hipdnn_driver {

namespace fe = hipdnn_frontend;

Problem makePoolProblem(const PoolSpec& s) {
    // Validates the window against the padded input (throws ProblemError).
    detail::checkedOutputLength({s.h, s.windowH, s.padH, s.padH, s.strideH, 1});
    detail::checkedOutputLength({s.w, s.windowW, s.padW, s.padW, s.strideW, 1});
    const std::string label = "pool " + poolKindName(s.kind) + " " + dataTypeFlag(s.dataType) + " " +
                              detail::layoutName(s.layout, 4) + " n" + std::to_string(s.n) + " c" +
                              std::to_string(s.c) + " " + std::to_string(s.h) + "x" + std::to_string(s.w) +
                              " win" + std::to_string(s.windowH) + "x" + std::to_string(s.windowW) + " p" +
                              std::to_string(s.padH) + "x" + std::to_string(s.padW) + " s" +
                              std::to_string(s.strideH) + "x" + std::to_string(s.strideW);
    fe::graph::Graph graph;
    graph.set_name(label)
        .set_io_data_type(s.dataType)
        .set_intermediate_data_type(DataType::FLOAT)
        .set_compute_data_type(DataType::FLOAT);
    const fe::ResampleMode mode = s.kind == PoolSpec::Kind::Max   ? fe::ResampleMode::MAXPOOL
                                  : s.kind == PoolSpec::Kind::Avg ? fe::ResampleMode::AVGPOOL_EXCLUDE_PADDING
                                                                  : fe::ResampleMode::AVGPOOL_INCLUDE_PADDING;
    auto x = detail::makeTensor(graph, "x", {s.n, s.c, s.h, s.w}, s.layout);
    auto outputs =
        graph.resample(x, fe::graph::ResampleAttributes()
                              .set_name("pool")
                              .set_resampling_mode(mode)
                              .set_padding_mode(s.kind == PoolSpec::Kind::Max ? fe::PaddingMode::NEG_INF_PAD
                                                                              : fe::PaddingMode::ZERO_PAD)
                              .set_window({s.windowH, s.windowW})
                              .set_stride({s.strideH, s.strideW})
                              .set_padding({s.padH, s.padW}));
    outputs[0]->set_output(true);
    return Problem{label, commandWordsFor(s), serializeGraph(graph), std::nullopt};
}

}  // namespace hipdnn_driver
