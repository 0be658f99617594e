// conv: a ConvSpec to a frontend convolution graph (fprop with an optional epilogue, dgrad,
// wgrad; 2-D or 3-D; groups, padding, stride, dilation).
#include "Epilogue.hpp"
#include "Problem.hpp"
#include "conv/ConvSpec.hpp"

namespace hipdnn_driver {

namespace fe = hipdnn_frontend;
using detail::TensorPtr;

namespace {

struct ConvShapes {
    std::vector<int64_t> x, w, y, padding, stride, dilation;
};

ConvShapes shapesOf(const ConvSpec& s) {
    ConvShapes shapes;
    const bool is3d = s.depth > 0;
    shapes.x =
        is3d ? std::vector<int64_t>{s.n, s.c, s.depth, s.h, s.w} : std::vector<int64_t>{s.n, s.c, s.h, s.w};
    shapes.w = is3d ? std::vector<int64_t>{s.k, s.c / s.groups, s.filterD, s.filterH, s.filterW}
                    : std::vector<int64_t>{s.k, s.c / s.groups, s.filterH, s.filterW};
    shapes.padding =
        is3d ? std::vector<int64_t>{s.padD, s.padH, s.padW} : std::vector<int64_t>{s.padH, s.padW};
    shapes.stride = is3d ? std::vector<int64_t>{s.strideD, s.strideH, s.strideW}
                         : std::vector<int64_t>{s.strideH, s.strideW};
    shapes.dilation = is3d ? std::vector<int64_t>{s.dilationD, s.dilationH, s.dilationW}
                           : std::vector<int64_t>{s.dilationH, s.dilationW};
    shapes.y = {s.n, s.k};
    for (size_t i = 0; i < shapes.padding.size(); ++i) {
        shapes.y.push_back(
            detail::checkedOutputLength({shapes.x[i + 2], shapes.w[i + 2], shapes.padding[i],
                                         shapes.padding[i], shapes.stride[i], shapes.dilation[i]}));
    }
    return shapes;
}

template <typename Attributes>
Attributes withGeometry(Attributes attributes, const ConvShapes& shapes) {
    attributes.set_padding(shapes.padding).set_stride(shapes.stride).set_dilation(shapes.dilation);
    return attributes;
}

std::string labelOf(const ConvSpec& s, const ConvShapes& shapes) {
    std::string label =
        "conv " + convDirectionName(s.direction) + " " + dataTypeFlag(s.dataType) + " " +
        detail::layoutName(s.layout, shapes.x.size()) + " n" + std::to_string(s.n) + " c" +
        std::to_string(s.c) + " " + detail::joinDims({shapes.x.begin() + 2, shapes.x.end()}, 'x') + " k" +
        std::to_string(s.k) + " " + detail::joinDims({shapes.w.begin() + 2, shapes.w.end()}, 'x') + " p" +
        detail::joinDims(shapes.padding, 'x') + " s" + detail::joinDims(shapes.stride, 'x');
    if (s.dilationH != 1 || s.dilationW != 1 || (s.depth > 0 && s.dilationD != 1)) {
        label += " d" + detail::joinDims(shapes.dilation, 'x');
    }
    if (s.groups != 1) {
        label += " g" + std::to_string(s.groups);
    }
    if (!s.epilogue.empty()) {
        label += " +" + epilogueList(s.epilogue);
    }
    return label;
}

}  // namespace

Problem makeConvProblem(const ConvSpec& s) {
    const ConvShapes shapes = shapesOf(s);
    fe::graph::Graph graph;
    const std::string label = labelOf(s, shapes);
    graph.set_name(label)
        .set_io_data_type(s.dataType)
        .set_intermediate_data_type(DataType::FLOAT)
        .set_compute_data_type(DataType::FLOAT);
    TensorPtr result;
    switch (s.direction) {
        case ConvSpec::Direction::Fprop: {
            auto x = detail::makeTensor(graph, "x", shapes.x, s.layout);
            auto w = detail::makeTensor(graph, "w", shapes.w, s.layout);
            auto y = graph.conv_fprop(
                x, w, withGeometry(fe::graph::ConvFpropAttributes().set_name("conv"), shapes));
            result = appendEpilogue(graph, y, shapes.y, 1, s.layout, s.epilogue);
            break;
        }
        case ConvSpec::Direction::Dgrad: {
            auto dy = detail::makeTensor(graph, "dy", shapes.y, s.layout);
            auto w = detail::makeTensor(graph, "w", shapes.w, s.layout);
            result = graph.conv_dgrad(
                dy, w, withGeometry(fe::graph::ConvDgradAttributes().set_name("dgrad"), shapes));
            result->set_dim(shapes.x);
            break;
        }
        case ConvSpec::Direction::Wgrad: {
            auto dy = detail::makeTensor(graph, "dy", shapes.y, s.layout);
            auto x = detail::makeTensor(graph, "x", shapes.x, s.layout);
            result = graph.conv_wgrad(
                dy, x, withGeometry(fe::graph::ConvWgradAttributes().set_name("wgrad"), shapes));
            result->set_dim(shapes.w);
            break;
        }
    }
    result->set_output(true);
    return Problem{label, commandWordsFor(s), serializeGraph(graph), std::nullopt};
}

}  // namespace hipdnn_driver
