#include "Epilogue.hpp"

#include "Problem.hpp"

namespace hipdnn_driver {

namespace fe = hipdnn_frontend;

namespace {

fe::PointwiseMode activationMode(EpilogueOp op) {
    switch (op) {
        case EpilogueOp::Relu:
            return fe::PointwiseMode::RELU_FWD;
        case EpilogueOp::Gelu:
            return fe::PointwiseMode::GELU_FWD;
        case EpilogueOp::Sigmoid:
            return fe::PointwiseMode::SIGMOID_FWD;
        case EpilogueOp::Tanh:
            return fe::PointwiseMode::TANH_FWD;
        case EpilogueOp::Swish:
            return fe::PointwiseMode::SWISH_FWD;
        default:
            return fe::PointwiseMode::ADD;
    }
}

}  // namespace

fe::graph::TensorPtr appendEpilogue(fe::graph::Graph& graph, fe::graph::TensorPtr output,
                                    const std::vector<int64_t>& outputDims, size_t channelDim, Layout layout,
                                    const std::vector<EpilogueOp>& epilogue) {
    for (size_t i = 0; i < epilogue.size(); ++i) {
        const EpilogueOp op = epilogue[i];
        const std::string suffix = std::to_string(i);
        if (op == EpilogueOp::Bias) {
            std::vector<int64_t> biasDims(outputDims.size(), 1);
            biasDims[channelDim] = outputDims[channelDim];
            auto bias = detail::makeTensor(graph, "bias", biasDims, layout);
            output = graph.pointwise(
                output, bias,
                fe::graph::PointwiseAttributes().set_name("bias_add").set_mode(fe::PointwiseMode::ADD));
        } else if (op == EpilogueOp::Add) {
            auto residual = detail::makeTensor(graph, "residual", outputDims, layout);
            output = graph.pointwise(output, residual,
                                     fe::graph::PointwiseAttributes()
                                         .set_name("residual_add" + suffix)
                                         .set_mode(fe::PointwiseMode::ADD));
        } else {
            output = graph.pointwise(output, fe::graph::PointwiseAttributes()
                                                 .set_name(std::string(epilogueFlag(op)) + suffix)
                                                 .set_mode(activationMode(op)));
        }
    }
    return output;
}

}  // namespace hipdnn_driver
