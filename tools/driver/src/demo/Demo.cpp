#include "demo/Demo.hpp"

namespace hipdnn_driver {

namespace fe = hipdnn_frontend;

namespace {

// ResNet-50 conv2_x bottleneck at N=1, 56x56: 1x1 256->64, 3x3 64->64, 1x1 64->256, each followed
// by batch norm (inference) and relu, except that the last relu follows the residual add.
struct BottleneckStage {
    const char* name;
    int64_t inputChannels;
    int64_t outputChannels;
    int64_t filter;
};
constexpr BottleneckStage kStages[] = {{"conv1", 256, 64, 1}, {"conv2", 64, 64, 3}, {"conv3", 64, 256, 1}};
constexpr int64_t kBlockChannels = 256;
constexpr int64_t kSize = 56;

struct DemoVariant {
    DataType dataType;
    Layout layout;
};

std::string variantLabel(const DemoVariant& variant) {
    return std::string(dataTypeFlag(variant.dataType)) + " " + detail::layoutName(variant.layout, 4);
}

// The bottleneck's stages [first, last] as one graph: the whole block, or one conv stage. A graph
// that ends with conv3 adds the residual: the block's own input, or an input of its own.
Problem bottleneckProblem(const std::string& caseName, const DemoVariant& variant, size_t first,
                          size_t last) {
    const bool wholeBlock = first == 0 && last == std::size(kStages) - 1;
    fe::graph::Graph graph;
    graph.set_name(caseName)
        .set_io_data_type(variant.dataType)
        .set_intermediate_data_type(DataType::FLOAT)
        .set_compute_data_type(DataType::FLOAT);
    const Layout layout = variant.layout;
    auto x = detail::makeTensor(graph, "x", {1, kStages[first].inputChannels, kSize, kSize}, layout);

    auto convBn = [&](const fe::graph::TensorPtr& input, const BottleneckStage& stage) {
        const std::string name = stage.name;
        auto w = detail::makeTensor(graph, name + "_w",
                                    {stage.outputChannels, stage.inputChannels, stage.filter, stage.filter},
                                    layout);
        const int64_t padding = stage.filter / 2;
        auto conv = graph.conv_fprop(input, w,
                                     fe::graph::ConvFpropAttributes()
                                         .set_name(name + "_conv")
                                         .set_padding({padding, padding})
                                         .set_stride({1, 1})
                                         .set_dilation({1, 1}));
        auto channelTensor = [&](const std::string& what) {
            return detail::makeTensor(graph, name + "_" + what, {1, stage.outputChannels, 1, 1}, layout);
        };
        return graph.batchnorm_inference(conv, channelTensor("mean"), channelTensor("inv_variance"),
                                         channelTensor("scale"), channelTensor("bias"),
                                         fe::graph::BatchnormInferenceAttributes().set_name(name + "_bn"));
    };
    auto relu = [&](const fe::graph::TensorPtr& input, const std::string& name) {
        return graph.pointwise(
            input, fe::graph::PointwiseAttributes().set_name(name).set_mode(fe::PointwiseMode::RELU_FWD));
    };
    auto branch = x;
    for (size_t index = first; index <= last; ++index) {
        const BottleneckStage& stage = kStages[index];
        branch = convBn(branch, stage);
        if (index + 1 < std::size(kStages)) {
            branch = relu(branch, std::string(stage.name) + "_relu");
        }
    }
    if (last == std::size(kStages) - 1) {
        auto residual =
            wholeBlock ? x : detail::makeTensor(graph, "residual", {1, kBlockChannels, kSize, kSize}, layout);
        branch = relu(
            graph.pointwise(
                branch, residual,
                fe::graph::PointwiseAttributes().set_name("residual_add").set_mode(fe::PointwiseMode::ADD)),
            "out_relu");
    }
    branch->set_output(true);

    std::string label = "resnet50 bottleneck " + variantLabel(variant) + " n1 ";
    if (wholeBlock) {
        label += "256x56x56 (1x1 256->64, 3x3 64->64, 1x1 64->256, bn+relu, residual add, relu)";
    } else {
        const BottleneckStage& stage = kStages[first];
        label += std::string(stage.name) + " " + std::to_string(stage.inputChannels) + "x56x56 (" +
                 std::to_string(stage.filter) + "x" + std::to_string(stage.filter) + " " +
                 std::to_string(stage.inputChannels) + "->" + std::to_string(stage.outputChannels) + ", bn" +
                 (first == 2 ? ", residual add, relu)" : "+relu)");
    }
    return Problem{label, commandWordsFor(DemoCaseSpec{caseName, variant.dataType, layout}),
                   serializeGraph(graph), std::nullopt};
}

Problem convBiasReluAddProblem(const DemoVariant& variant) {
    ConvSpec spec;
    spec.n = 1;
    spec.c = 64;
    spec.k = 64;
    spec.padH = 1;
    spec.padW = 1;
    spec.dataType = variant.dataType;
    spec.layout = variant.layout;
    spec.epilogue = {EpilogueOp::Bias, EpilogueOp::Relu, EpilogueOp::Add};
    return makeConvProblem(spec);
}

Problem bnTrainingProblem(const DemoVariant& variant) {
    BnSpec spec;
    spec.mode = BnSpec::Mode::Training;
    spec.n = 4;
    spec.dataType = variant.dataType;
    spec.layout = variant.layout;
    return makeBnProblem(spec);
}

Problem matmulBiasGeluProblem(const DemoVariant& variant) {
    MatmulSpec spec;
    spec.m = 256;
    spec.n = 1024;
    spec.k = 512;
    spec.dataType = variant.dataType;
    spec.epilogue = {EpilogueOp::Bias, EpilogueOp::Gelu};
    return makeMatmulProblem(spec);
}

Problem makeCase(const std::string& name, const DemoVariant& variant) {
    if (name == "resnet50-bottleneck") {
        return bottleneckProblem(name, variant, 0, std::size(kStages) - 1);
    }
    for (size_t index = 0; index < std::size(kStages); ++index) {
        if (name == std::string("resnet50-bottleneck-") + kStages[index].name) {
            return bottleneckProblem(name, variant, index, index);
        }
    }
    if (name == "conv-bias-relu-add") {
        return convBiasReluAddProblem(variant);
    }
    if (name == "bn-training") {
        return bnTrainingProblem(variant);
    }
    if (name == "matmul-bias-gelu") {
        return matmulBiasGeluProblem(variant);
    }
    throw ProblemError("no demo case named '" + name + "'");
}

bool isBottleneckStage(const std::string& name) {
    return name.starts_with("resnet50-bottleneck-");
}

}  // namespace

const std::vector<std::string>& demoCaseNames() {
    static const std::vector<std::string> names{"resnet50-bottleneck",       "resnet50-bottleneck-conv1",
                                                "resnet50-bottleneck-conv2", "resnet50-bottleneck-conv3",
                                                "conv-bias-relu-add",        "bn-training",
                                                "matmul-bias-gelu"};
    return names;
}

Problem makeDemoCaseProblem(const DemoCaseSpec& spec) {
    return makeCase(spec.name,
                    {spec.dataType.value_or(DataType::FLOAT), spec.layout.value_or(Layout::ChannelsFirst)});
}

std::vector<DemoProblem> demoProblems(const DemoDevice& device, const DemoCaseSpec& filter) {
    struct Choice {
        DemoVariant variant;
        bool optional;
    };
    std::vector<Choice> choices;
    if (device.gpu) {
        choices = {{{DataType::BFLOAT16, Layout::ChannelsLast}, false},
                   {{DataType::HALF, Layout::ChannelsLast}, false},
                   {{DataType::FLOAT, Layout::ChannelsLast}, true}};
    } else {
        choices = {{{DataType::FLOAT, Layout::ChannelsFirst}, false}};
        if (device.bf16Math) {
            choices.push_back({{DataType::BFLOAT16, Layout::ChannelsLast}, false});
        }
    }
    if (filter.dataType || filter.layout) {
        // The user's variant, as asked: nothing about it is optional.
        choices = {{{filter.dataType.value_or(choices.front().variant.dataType),
                     filter.layout.value_or(choices.front().variant.layout)},
                    false}};
    }
    std::vector<DemoProblem> problems;
    for (const auto& choice : choices) {
        for (const auto& name : demoCaseNames()) {
            if (!filter.name.empty() && filter.name != name) {
                continue;
            }
            // The CPU runs the whole block, the GPU its stages (its engines fuse one convolution
            // per graph); the other form is shown where an engine takes it.
            const bool stage = isBottleneckStage(name);
            if (stage && !device.gpu && filter.name.empty()) {
                continue;
            }
            const bool secondaryForm = device.gpu && name == "resnet50-bottleneck";
            problems.push_back(
                {makeCase(name, choice.variant), filter.name.empty() && (choice.optional || secondaryForm)});
        }
    }
    return problems;
}

}  // namespace hipdnn_driver
