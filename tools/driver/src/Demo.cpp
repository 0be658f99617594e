#include "Demo.hpp"

namespace hipdnn_driver {

namespace fe = hipdnn_frontend;

namespace {

// ResNet-50 conv2_x bottleneck at N=1, 56x56: 1x1 256->64, 3x3 64->64, 1x1 64->256, each followed
// by batch norm (inference) and relu, except that the last relu follows the residual add.
Problem bottleneckProblem() {
    constexpr int64_t n = 1, channels = 256, width = 64, size = 56;
    const std::string label =
        "resnet50 bottleneck fp32 NCHW n1 256x56x56 (1x1 256->64, 3x3 64->64, 1x1 64->256, "
        "bn+relu, residual add, relu)";
    fe::graph::Graph graph;
    graph.set_name("resnet50_bottleneck")
        .set_io_data_type(DataType::FLOAT)
        .set_intermediate_data_type(DataType::FLOAT)
        .set_compute_data_type(DataType::FLOAT);
    const Layout layout = Layout::ChannelsFirst;
    auto x = detail::makeTensor(graph, "x", {n, channels, size, size}, layout);

    auto convBn = [&](const fe::graph::TensorPtr& input, int64_t inputChannels, int64_t outputChannels,
                      int64_t filter, const std::string& stage) {
        auto w =
            detail::makeTensor(graph, stage + "_w", {outputChannels, inputChannels, filter, filter}, layout);
        const int64_t padding = filter / 2;
        auto conv = graph.conv_fprop(input, w,
                                     fe::graph::ConvFpropAttributes()
                                         .set_name(stage + "_conv")
                                         .set_padding({padding, padding})
                                         .set_stride({1, 1})
                                         .set_dilation({1, 1}));
        auto channelTensor = [&](const std::string& name) {
            return detail::makeTensor(graph, stage + "_" + name, {1, outputChannels, 1, 1}, layout);
        };
        return graph.batchnorm_inference(conv, channelTensor("mean"), channelTensor("inv_variance"),
                                         channelTensor("scale"), channelTensor("bias"),
                                         fe::graph::BatchnormInferenceAttributes().set_name(stage + "_bn"));
    };
    auto relu = [&](const fe::graph::TensorPtr& input, const std::string& name) {
        return graph.pointwise(
            input, fe::graph::PointwiseAttributes().set_name(name).set_mode(fe::PointwiseMode::RELU_FWD));
    };
    auto branch = relu(convBn(x, channels, width, 1, "conv1"), "conv1_relu");
    branch = relu(convBn(branch, width, width, 3, "conv2"), "conv2_relu");
    branch = convBn(branch, width, channels, 1, "conv3");
    auto sum = graph.pointwise(
        branch, x,
        fe::graph::PointwiseAttributes().set_name("residual_add").set_mode(fe::PointwiseMode::ADD));
    relu(sum, "out_relu")->set_output(true);
    return Problem{label, {"demo", "--case", "resnet50-bottleneck"}, serializeGraph(graph), std::nullopt};
}

ConvSpec convBiasReluAddSpec() {
    ConvSpec spec;
    spec.n = 1;
    spec.c = 64;
    spec.k = 64;
    spec.padH = 1;
    spec.padW = 1;
    spec.epilogue = {EpilogueOp::Bias, EpilogueOp::Relu, EpilogueOp::Add};
    return spec;
}

BnSpec bnTrainingSpec() {
    BnSpec spec;
    spec.mode = BnSpec::Mode::Training;
    spec.n = 4;
    return spec;
}

MatmulSpec matmulBiasGeluSpec() {
    MatmulSpec spec;
    spec.m = 256;
    spec.n = 1024;
    spec.k = 512;
    spec.epilogue = {EpilogueOp::Bias, EpilogueOp::Gelu};
    return spec;
}

}  // namespace

const std::vector<std::string>& demoCaseNames() {
    static const std::vector<std::string> names{"resnet50-bottleneck", "conv-bias-relu-add", "bn-training",
                                                "matmul-bias-gelu"};
    return names;
}

Problem makeDemoCaseProblem(const DemoCaseSpec& spec) {
    if (spec.name == "resnet50-bottleneck") {
        return bottleneckProblem();
    }
    if (spec.name == "conv-bias-relu-add") {
        return makeConvProblem(convBiasReluAddSpec());
    }
    if (spec.name == "bn-training") {
        return makeBnProblem(bnTrainingSpec());
    }
    if (spec.name == "matmul-bias-gelu") {
        return makeMatmulProblem(matmulBiasGeluSpec());
    }
    throw ProblemError("no demo case named '" + spec.name + "'");
}

std::vector<Problem> demoProblems(const std::string& only) {
    std::vector<Problem> problems;
    for (const auto& name : demoCaseNames()) {
        if (only.empty() || only == name) {
            problems.push_back(makeDemoCaseProblem(DemoCaseSpec{name}));
        }
    }
    return problems;
}

}  // namespace hipdnn_driver
