#include "Problem.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

namespace hipdnn_driver {

namespace fe = hipdnn_frontend;
using hipdnn_data_sdk::utilities::TensorLayout;

const char* dataTypeFlag(DataType type) {
    switch (type) {
        case DataType::HALF:
            return "fp16";
        case DataType::BFLOAT16:
            return "bf16";
        default:
            return "fp32";
    }
}

const char* epilogueFlag(EpilogueOp op) {
    switch (op) {
        case EpilogueOp::Bias:
            return "bias";
        case EpilogueOp::Add:
            return "add";
        case EpilogueOp::Relu:
            return "relu";
        case EpilogueOp::Gelu:
            return "gelu";
        case EpilogueOp::Sigmoid:
            return "sigmoid";
        case EpilogueOp::Tanh:
            return "tanh";
        case EpilogueOp::Swish:
            return "swish";
    }
    return "?";
}

Problem makeProblem(const ProblemSpec& spec) {
    struct Builder {
        Problem operator()(const ConvSpec& s) const { return makeConvProblem(s); }
        Problem operator()(const BnSpec& s) const { return makeBnProblem(s); }
        Problem operator()(const PointwiseSpec& s) const { return makePointwiseProblem(s); }
        Problem operator()(const MatmulSpec& s) const { return makeMatmulProblem(s); }
        Problem operator()(const NormSpec& s) const { return makeNormProblem(s); }
        Problem operator()(const PoolSpec& s) const { return makePoolProblem(s); }
        Problem operator()(const GraphSpec& s) const { return makeGraphProblem(s); }
        Problem operator()(const DemoCaseSpec& s) const { return makeDemoCaseProblem(s); }
    };
    return std::visit(Builder{}, spec);
}

std::vector<std::string> commandWordsFor(const ProblemSpec& spec) {
    struct Words {
        std::vector<std::string> operator()(const ConvSpec& s) const { return convWords(s); }
        std::vector<std::string> operator()(const BnSpec& s) const { return bnWords(s); }
        std::vector<std::string> operator()(const PointwiseSpec& s) const { return pointwiseWords(s); }
        std::vector<std::string> operator()(const MatmulSpec& s) const { return matmulWords(s); }
        std::vector<std::string> operator()(const NormSpec& s) const { return normWords(s); }
        std::vector<std::string> operator()(const PoolSpec& s) const { return poolWords(s); }
        std::vector<std::string> operator()(const GraphSpec& s) const {
            std::vector<std::string> words{"graph", s.file.string()};
            if (s.inputsDir) {
                words.push_back("--inputs");
                words.push_back(s.inputsDir->string());
            }
            return words;
        }
        std::vector<std::string> operator()(const DemoCaseSpec& s) const {
            std::vector<std::string> words{"demo"};
            if (!s.name.empty()) {
                words.insert(words.end(), {"--case", s.name});
            }
            if (s.dataType) {
                words.insert(words.end(), {"--dtype", dataTypeFlag(*s.dataType)});
            }
            if (s.layout) {
                words.insert(words.end(), {"--layout", detail::layoutName(*s.layout, 4)});
            }
            return words;
        }
    };
    return std::visit(Words{}, spec);
}

std::vector<uint8_t> serializeGraph(fe::graph::Graph& graph) {
    std::vector<uint8_t> bytes;
    const fe::Error error = graph.serialize(bytes);
    if (error.is_bad()) {
        throw ProblemError("graph '" + graph.get_name() + "' is invalid: " + error.get_message());
    }
    return bytes;
}

namespace detail {

std::vector<int64_t> stridesFor(const std::vector<int64_t>& dims, Layout layout) {
    const TensorLayout* named = nullptr;
    if (dims.size() == 3) {
        named = layout == Layout::ChannelsLast ? &TensorLayout::NLC : &TensorLayout::NCL;
    } else if (dims.size() == 4) {
        named = layout == Layout::ChannelsLast ? &TensorLayout::NHWC : &TensorLayout::NCHW;
    } else if (dims.size() == 5) {
        named = layout == Layout::ChannelsLast ? &TensorLayout::NDHWC : &TensorLayout::NCDHW;
    }
    if (named == nullptr) {
        return hipdnn_data_sdk::utilities::packedStrides(dims);
    }
    return hipdnn_data_sdk::utilities::generatePackedStrides(dims, named->strideOrder);
}

TensorPtr makeTensor(fe::graph::Graph& graph, const std::string& name, std::vector<int64_t> dims,
                     Layout layout, DataType dataType) {
    auto strides = stridesFor(dims, layout);
    return graph.tensor(fe::graph::TensorAttributes()
                            .set_name(name)
                            .set_dim(std::move(dims))
                            .set_stride(std::move(strides))
                            .set_data_type(dataType));
}

TensorPtr makeScalar(fe::graph::Graph& graph, const std::string& name, float value) {
    return graph.tensor(fe::graph::TensorAttributes(value).set_name(name));
}

std::string layoutName(Layout layout, size_t rank) {
    if (rank == 5) {
        return layout == Layout::ChannelsLast ? "NDHWC" : "NCDHW";
    }
    return layout == Layout::ChannelsLast ? "NHWC" : "NCHW";
}

int64_t outputLength(int64_t input, int64_t filter, int64_t padding, int64_t stride, int64_t dilation) {
    const int64_t span = dilation * (filter - 1) + 1;
    const int64_t padded = input + 2 * padding;
    if (padded < span) {
        throw ProblemError("the window (" + std::to_string(span) +
                           " with dilation) is larger than the padded input (" + std::to_string(padded) +
                           ")");
    }
    return (padded - span) / stride + 1;
}

void addAlways(std::vector<std::string>& words, const std::string& flag, const std::string& value) {
    words.push_back(flag);
    words.push_back(value);
}

void addFlag(std::vector<std::string>& words, const std::string& flag, int64_t value, int64_t defaultValue) {
    if (value != defaultValue) {
        words.push_back(flag);
        words.push_back(std::to_string(value));
    }
}

void addFlag(std::vector<std::string>& words, const std::string& flag, const std::string& value,
             const std::string& defaultValue) {
    if (value != defaultValue) {
        words.push_back(flag);
        words.push_back(value);
    }
}

std::string joinDims(const std::vector<int64_t>& dims, char separator) {
    std::string text;
    for (size_t i = 0; i < dims.size(); ++i) {
        text += (i == 0 ? "" : std::string(1, separator)) + std::to_string(dims[i]);
    }
    return text;
}

}  // namespace detail
}  // namespace hipdnn_driver
