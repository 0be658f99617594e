#include "Reproducer.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>
#include <hipdnn_flatbuffers_sdk/CanonicalGraph.hpp>
#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include "Problem.hpp"

namespace hipdnn_driver {

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;
using hipdnn_flatbuffers_sdk::GraphWrapper;

namespace {

std::vector<int64_t> toVector(const flatbuffers::Vector<int64_t>* values) {
    return values == nullptr ? std::vector<int64_t>() : std::vector<int64_t>(values->begin(), values->end());
}

std::vector<int64_t> dimsOf(const GraphWrapper& graph, int64_t uid) {
    return toVector(graph.tensor(uid).dims());
}

Layout layoutOf(const GraphWrapper& graph, int64_t uid) {
    const auto& tensor = graph.tensor(uid);
    const auto name =
        hipdnn_data_sdk::utilities::layoutFromStrides(toVector(tensor.dims()), toVector(tensor.strides()));
    return name && (*name == "NHWC" || *name == "NDHWC") ? Layout::ChannelsLast : Layout::ChannelsFirst;
}

// Reads the pointwise chain after node 0 as an epilogue; nothing when a node is not part of one.
std::optional<std::vector<EpilogueOp>> epilogueOf(const GraphWrapper& graph, int64_t output,
                                                  size_t channelDim) {
    std::vector<EpilogueOp> ops;
    const auto outputDims = dimsOf(graph, output);
    for (size_t index = 1; index < graph.nodeCount(); ++index) {
        const auto* pointwise = graph.node(index).attributesAs<fbs::PointwiseAttributes>();
        if (pointwise == nullptr || pointwise->in_0_tensor_uid() != output) {
            return std::nullopt;
        }
        switch (pointwise->operation()) {
            case fbs::PointwiseMode::ADD: {
                if (!pointwise->in_1_tensor_uid()) {
                    return std::nullopt;
                }
                const auto other = dimsOf(graph, *pointwise->in_1_tensor_uid());
                std::vector<int64_t> bias(outputDims.size(), 1);
                bias[channelDim] = outputDims[channelDim];
                if (other == outputDims) {
                    ops.push_back(EpilogueOp::Add);
                } else if (other == bias) {
                    ops.push_back(EpilogueOp::Bias);
                } else {
                    return std::nullopt;
                }
                break;
            }
            case fbs::PointwiseMode::RELU_FWD:
                ops.push_back(EpilogueOp::Relu);
                break;
            case fbs::PointwiseMode::GELU_FWD:
                ops.push_back(EpilogueOp::Gelu);
                break;
            case fbs::PointwiseMode::SIGMOID_FWD:
                ops.push_back(EpilogueOp::Sigmoid);
                break;
            case fbs::PointwiseMode::TANH_FWD:
                ops.push_back(EpilogueOp::Tanh);
                break;
            case fbs::PointwiseMode::SWISH_FWD:
                ops.push_back(EpilogueOp::Swish);
                break;
            default:
                return std::nullopt;
        }
        output = pointwise->out_0_tensor_uid();
    }
    return ops;
}

// Fills the conv geometry from a node's x / w dims and attributes; false when the driver flags
// cannot express it (asymmetric padding, not 2-D or 3-D).
template <typename Attributes>
bool convGeometry(const Attributes& attributes, const std::vector<int64_t>& x, const std::vector<int64_t>& w,
                  ConvSpec& spec) {
    const auto pre = toVector(attributes.pre_padding());
    const auto post = toVector(attributes.post_padding());
    const auto stride = toVector(attributes.stride());
    const auto dilation = toVector(attributes.dilation());
    const size_t spatial = x.size() - 2;
    if ((spatial != 2 && spatial != 3) || pre != post || pre.size() != spatial || stride.size() != spatial ||
        dilation.size() != spatial || attributes.conv_mode() != fbs::ConvMode::CROSS_CORRELATION) {
        return false;
    }
    const size_t offset = spatial == 3 ? 1 : 0;
    spec.n = x[0];
    spec.c = x[1];
    spec.k = w[0];
    spec.groups = x[1] / w[1];
    if (spatial == 3) {
        spec.depth = x[2];
        spec.filterD = w[2];
        spec.padD = pre[0];
        spec.strideD = stride[0];
        spec.dilationD = dilation[0];
    }
    spec.h = x[2 + offset];
    spec.w = x[3 + offset];
    spec.filterH = w[2 + offset];
    spec.filterW = w[3 + offset];
    spec.padH = pre[offset];
    spec.padW = pre[1 + offset];
    spec.strideH = stride[offset];
    spec.strideW = stride[1 + offset];
    spec.dilationH = dilation[offset];
    spec.dilationW = dilation[1 + offset];
    return true;
}

// The sdpa spec an attention node would come from; recognizeGraph checks that it rebuilds the graph.
template <class Attributes>
SdpaSpec attentionSpecOf(const GraphWrapper& graph, const Attributes& a, SdpaSpec::Direction direction) {
    const auto q = dimsOf(graph, a.q_tensor_uid());
    const auto k = dimsOf(graph, a.k_tensor_uid());
    SdpaSpec spec;
    spec.direction = direction;
    spec.batch = q[0];
    spec.heads = q[1];
    spec.kvHeads = k[1] == q[1] ? 0 : k[1];
    spec.seqQ = q[2];
    spec.seqKv = k[2] == q[2] ? 0 : k[2];
    spec.headDim = q[3];
    spec.causal = a.causal_mask();
    // BSHD: the heads are inside the sequence.
    const auto strides = toVector(graph.tensor(a.q_tensor_uid()).strides());
    spec.order = strides[1] < strides[2] ? SdpaSpec::MemoryOrder::Bshd : SdpaSpec::MemoryOrder::Bhsd;
    spec.dataType = static_cast<DataType>(graph.tensor(a.q_tensor_uid()).data_type());
    return spec;
}

std::optional<ProblemSpec> guess(const GraphWrapper& graph) {
    if (graph.nodeCount() == 0) {
        return std::nullopt;
    }
    const auto first = graph.node(0);
    if (const auto* sdpa = first.attributesAs<fbs::SdpaAttributes>()) {
        return attentionSpecOf(graph, *sdpa, SdpaSpec::Direction::Forward);
    }
    if (const auto* sdpaBackward = first.attributesAs<fbs::SdpaBackwardAttributes>()) {
        return attentionSpecOf(graph, *sdpaBackward, SdpaSpec::Direction::Backward);
    }
    if (const auto* conv = first.attributesAs<fbs::ConvolutionFwdAttributes>()) {
        ConvSpec spec;
        if (!convGeometry(*conv, dimsOf(graph, conv->x_tensor_uid()), dimsOf(graph, conv->w_tensor_uid()),
                          spec)) {
            return std::nullopt;
        }
        spec.dataType = static_cast<DataType>(graph.tensor(conv->x_tensor_uid()).data_type());
        spec.layout = layoutOf(graph, conv->x_tensor_uid());
        auto epilogue = epilogueOf(graph, conv->y_tensor_uid(), 1);
        if (!epilogue) {
            return std::nullopt;
        }
        spec.epilogue = *epilogue;
        return spec;
    }
    if (const auto* dgrad = first.attributesAs<fbs::ConvolutionBwdAttributes>()) {
        ConvSpec spec;
        spec.direction = ConvSpec::Direction::Dgrad;
        if (!convGeometry(*dgrad, dimsOf(graph, dgrad->dx_tensor_uid()), dimsOf(graph, dgrad->w_tensor_uid()),
                          spec)) {
            return std::nullopt;
        }
        spec.dataType = static_cast<DataType>(graph.tensor(dgrad->dy_tensor_uid()).data_type());
        spec.layout = layoutOf(graph, dgrad->dy_tensor_uid());
        return spec;
    }
    if (const auto* wgrad = first.attributesAs<fbs::ConvolutionWrwAttributes>()) {
        ConvSpec spec;
        spec.direction = ConvSpec::Direction::Wgrad;
        if (!convGeometry(*wgrad, dimsOf(graph, wgrad->x_tensor_uid()), dimsOf(graph, wgrad->dw_tensor_uid()),
                          spec)) {
            return std::nullopt;
        }
        spec.dataType = static_cast<DataType>(graph.tensor(wgrad->x_tensor_uid()).data_type());
        spec.layout = layoutOf(graph, wgrad->x_tensor_uid());
        return spec;
    }
    if (const auto* matmul = first.attributesAs<fbs::MatmulAttributes>()) {
        const auto a = dimsOf(graph, matmul->a_tensor_uid());
        const auto b = dimsOf(graph, matmul->b_tensor_uid());
        if (a.size() != 3 || b.size() != 3) {
            return std::nullopt;
        }
        MatmulSpec spec;
        spec.batch = a[0];
        spec.m = a[1];
        spec.k = a[2];
        spec.n = b[2];
        spec.dataType = static_cast<DataType>(graph.tensor(matmul->a_tensor_uid()).data_type());
        auto epilogue = epilogueOf(graph, matmul->c_tensor_uid(), 2);
        if (!epilogue) {
            return std::nullopt;
        }
        spec.epilogue = *epilogue;
        return spec;
    }
    if (const auto* resample = first.attributesAs<fbs::ResampleFwdAttributes>()) {
        const auto x = dimsOf(graph, resample->x_tensor_uid());
        const auto window = toVector(resample->window());
        const auto pre = toVector(resample->pre_padding());
        const auto stride = toVector(resample->stride());
        if (x.size() != 4 || window.size() != 2 || pre.size() != 2 || stride.size() != 2) {
            return std::nullopt;
        }
        PoolSpec spec;
        spec.kind = resample->resample_mode() == fbs::ResampleMode::MAXPOOL ? PoolSpec::Kind::Max
                    : resample->resample_mode() == fbs::ResampleMode::AVGPOOL_INCLUDE_PADDING
                        ? PoolSpec::Kind::AvgIncludePadding
                        : PoolSpec::Kind::Avg;
        spec.n = x[0];
        spec.c = x[1];
        spec.h = x[2];
        spec.w = x[3];
        spec.windowH = window[0];
        spec.windowW = window[1];
        spec.padH = pre[0];
        spec.padW = pre[1];
        spec.strideH = stride[0];
        spec.strideW = stride[1];
        spec.dataType = static_cast<DataType>(graph.tensor(resample->x_tensor_uid()).data_type());
        spec.layout = layoutOf(graph, resample->x_tensor_uid());
        return spec;
    }
    if (const auto* pointwise = first.attributesAs<fbs::PointwiseAttributes>()) {
        PointwiseSpec spec;
        spec.mode = static_cast<hipdnn_frontend::PointwiseMode>(pointwise->operation());
        spec.dims = dimsOf(graph, pointwise->in_0_tensor_uid());
        if (pointwise->in_1_tensor_uid()) {
            const auto other = dimsOf(graph, *pointwise->in_1_tensor_uid());
            if (other != spec.dims) {
                spec.secondDims = other;
            }
        }
        spec.dataType = static_cast<DataType>(graph.tensor(pointwise->in_0_tensor_uid()).data_type());
        spec.layout = layoutOf(graph, pointwise->in_0_tensor_uid());
        return spec;
    }
    return std::nullopt;
}

}  // namespace

std::optional<ProblemSpec> recognizeGraph(const std::vector<uint8_t>& bytes) {
    try {
        const GraphWrapper graph(bytes.data(), bytes.size());
        auto spec = guess(graph);
        // Only a rebuild that gives the very same graph proves the guess.
        if (spec && hipdnn_flatbuffers_sdk::canonicalGraph(makeProblem(*spec).graph) ==
                        hipdnn_flatbuffers_sdk::canonicalGraph(bytes)) {
            return spec;
        }
    } catch (const std::exception&) {
        // Not a graph any subcommand builds (or not a valid graph): `graph FILE` it is.
    }
    return std::nullopt;
}

std::string driverCommandForGraph(const std::vector<uint8_t>& graph, const std::string& graphFile,
                                  const std::string& engine, const std::vector<std::string>& knobs) {
    std::string command = "hipdnn-driver";
    if (const auto spec = recognizeGraph(graph)) {
        for (const auto& word : commandWordsFor(*spec)) {
            command += " " + word;
        }
    } else {
        command += " graph " + graphFile;
    }
    if (!engine.empty()) {
        command += " --engine " + engine;
    }
    for (const auto& knob : knobs) {
        command += " --knob " + knob;
    }
    return command;
}

}  // namespace hipdnn_driver
