#include "Problem.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

namespace hipdnn_driver {

namespace fe = hipdnn_frontend;
using hipdnn_data_sdk::utilities::TensorLayout;

Problem makeProblem(const ProblemSpec& spec) {
    struct Builder {
        Problem operator()(const ConvSpec& s) const { return makeConvProblem(s); }
        Problem operator()(const BnSpec& s) const { return makeBnProblem(s); }
        Problem operator()(const PointwiseSpec& s) const { return makePointwiseProblem(s); }
        Problem operator()(const MatmulSpec& s) const { return makeMatmulProblem(s); }
        Problem operator()(const NormSpec& s) const { return makeNormProblem(s); }
        Problem operator()(const PoolSpec& s) const { return makePoolProblem(s); }
        Problem operator()(const SdpaSpec& s) const { return makeSdpaProblem(s); }
        Problem operator()(const GraphSpec& s) const { return makeGraphProblem(s); }
        Problem operator()(const DemoCaseSpec& s) const { return makeDemoCaseProblem(s); }
    };
    return std::visit(Builder{}, spec);
}

std::vector<std::string> commandWordsFor(const ProblemSpec& spec) {
    return std::visit([](const auto& s) { return subcommandOf<std::decay_t<decltype(s)>>().words(s); }, spec);
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

int64_t checkedOutputLength(const hipdnn_data_sdk::utilities::SlidingWindow& window) {
    const auto length = window.outputLength();
    if (!length) {
        if (window.stride < 1) {
            throw ProblemError("the stride (" + std::to_string(window.stride) + ") is not positive");
        }
        throw ProblemError("the window (" + std::to_string(window.extent()) +
                           " with dilation) is larger than the padded input (" +
                           std::to_string(window.paddedInput()) + ")");
    }
    return *length;
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
