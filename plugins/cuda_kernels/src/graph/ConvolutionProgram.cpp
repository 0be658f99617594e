#include "ConvolutionProgram.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

#include <algorithm>

namespace hipdnn_cuda_kernels {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

namespace {

using Tensor = fb::TensorAttributes;
using hipdnn_data_sdk::utilities::formatDims;

std::vector<int64_t> listOf(const flatbuffers::Vector<int64_t>* values) {
    return values == nullptr ? std::vector<int64_t>{} : std::vector<int64_t>(values->begin(), values->end());
}

const char* typeName(ElementType type) {
    switch (type) {
        case ElementType::Half:
            return "HALF";
        case ElementType::BFloat16:
            return "BFLOAT16";
        case ElementType::Float:
            break;
    }
    return "FLOAT";
}

enum class ChannelOrder { First, Last };

// Whether C (dim 1) is innermost; nullopt where the tensor reads alike in both orders: C of
// extent 1, or a filter whose spatial dims are all 1. A data tensor whose spatial dims are all 1
// counts as channels-last, as cuDNN reads it.
std::optional<ChannelOrder> channelOrder(const ConvolutionTensor& tensor, bool filter) {
    const bool spatialOnes =
        std::all_of(tensor.dims.begin() + 2, tensor.dims.end(), [](int64_t extent) { return extent == 1; });
    if (tensor.dims[1] == 1 || (filter && spatialOnes)) {
        return std::nullopt;
    }
    for (size_t d = 2; d < tensor.dims.size(); ++d) {
        if (tensor.dims[d] > 1 && tensor.strides[d] < tensor.strides[1]) {
            return ChannelOrder::First;
        }
    }
    return ChannelOrder::Last;
}

// Gives each extent-1 dim the stride it has in `order` (the product of the extents inside it), as
// PyTorch describes such tensors; the addresses do not change.
void restrideUnitDims(ConvolutionTensor& tensor, ChannelOrder order) {
    std::vector<size_t> innerToOuter;
    if (order == ChannelOrder::Last) {
        innerToOuter.push_back(1);
    }
    for (size_t d = tensor.dims.size() - 1; d >= 2; --d) {
        innerToOuter.push_back(d);
    }
    if (order == ChannelOrder::First) {
        innerToOuter.push_back(1);
    }
    innerToOuter.push_back(0);
    int64_t next = 1;
    for (const size_t d : innerToOuter) {
        if (tensor.dims[d] == 1) {
            tensor.strides[d] = next;
        } else {
            next = tensor.strides[d] * tensor.dims[d];
        }
    }
}

class ConvolutionAnalysis {
public:
    ConvolutionAnalysis(const hipdnn_flatbuffers_sdk::GraphWrapper& graph, size_t node,
                        const MemoryVirtuals& memoryVirtuals, std::string& reason)
        : _graph(graph), _node(graph.node(node)), _memoryVirtuals(memoryVirtuals), _reason(reason) {}

    std::optional<ConvolutionProgram> run() {
        if (!readNode() || !readComputeType() || !readTensors() || !readGeometry() || !settleChannelOrder()) {
            return std::nullopt;
        }
        return std::move(_program);
    }

private:
    bool decline(std::string why) {
        _reason = _node.describe() + ": " + std::move(why);
        return false;
    }

    template <class Attributes>
    void readGeometryOf(const Attributes& attributes) {
        _prePadding = listOf(attributes.pre_padding());
        _postPadding = listOf(attributes.post_padding());
        _program.stride = listOf(attributes.stride());
        _program.dilation = listOf(attributes.dilation());
        _mode = attributes.conv_mode();
    }

    bool readNode() {
        switch (_node.type()) {
            case fb::NodeAttributes::ConvolutionFwdAttributes: {
                const auto& a = *_node.attributesAs<fb::ConvolutionFwdAttributes>();
                _program.direction = ConvolutionDirection::Forward;
                _uids = {a.x_tensor_uid(), a.w_tensor_uid(), a.y_tensor_uid()};
                readGeometryOf(a);
                return true;
            }
            case fb::NodeAttributes::ConvolutionBwdAttributes: {
                const auto& a = *_node.attributesAs<fb::ConvolutionBwdAttributes>();
                _program.direction = ConvolutionDirection::BackwardData;
                _uids = {a.dx_tensor_uid(), a.w_tensor_uid(), a.dy_tensor_uid()};
                readGeometryOf(a);
                return true;
            }
            case fb::NodeAttributes::ConvolutionWrwAttributes: {
                const auto& a = *_node.attributesAs<fb::ConvolutionWrwAttributes>();
                _program.direction = ConvolutionDirection::BackwardFilter;
                _uids = {a.x_tensor_uid(), a.dw_tensor_uid(), a.dy_tensor_uid()};
                readGeometryOf(a);
                return true;
            }
            default:
                return decline("is not a convolution");
        }
    }

    bool readComputeType() {
        fb::DataType compute = _node.node().compute_data_type();
        if (compute == fb::DataType::UNSET) {
            compute = _graph.graph().compute_data_type();
        }
        if (compute != fb::DataType::FLOAT && compute != fb::DataType::UNSET) {
            return decline(std::string("has compute data type ") + fb::EnumNameDataType(compute) +
                           "; cuDNN's convolutions compute in FLOAT here");
        }
        return true;
    }

    bool readTensor(int64_t uid, bool isOutput, ConvolutionTensor& target) {
        const Tensor& tensor = _graph.tensor(uid);
        const fb::DataType type = effectiveType(_graph, tensor);
        const auto stored = _memoryVirtuals.find(uid);
        const auto element =
            isOutput && stored != _memoryVirtuals.end() ? std::optional(stored->second) : elementTypeOf(type);
        if (!element) {
            return decline(describeTensor(tensor) + " has data type " + fb::EnumNameDataType(type) +
                           "; supported: FLOAT, HALF, BFLOAT16");
        }
        if (tensor.value_type() != fb::TensorValue::NONE) {
            return decline(describeTensor(tensor) + " is a pass-by-value scalar");
        }
        target.uid = uid;
        target.type = *element;
        target.dims = listOf(tensor.dims());
        target.strides = listOf(tensor.strides());
        if (target.dims.size() < 3 || target.strides.size() != target.dims.size()) {
            return decline(describeTensor(tensor) + " has dims " + formatDims(target.dims) + " and strides " +
                           formatDims(target.strides) +
                           "; a convolution tensor has rank >= 3 and a stride per dim");
        }
        return true;
    }

    bool readTensors() {
        const bool forward = _program.direction == ConvolutionDirection::Forward;
        const bool data = _program.direction == ConvolutionDirection::BackwardData;
        if (!readTensor(_uids[0], data, _program.x) ||
            !readTensor(_uids[1], _program.direction == ConvolutionDirection::BackwardFilter, _program.w) ||
            !readTensor(_uids[2], forward, _program.y)) {
            return false;
        }
        const size_t rank = _program.x.dims.size();
        if (_program.w.dims.size() != rank || _program.y.dims.size() != rank) {
            return decline("x, w and y have ranks " + std::to_string(rank) + ", " +
                           std::to_string(_program.w.dims.size()) + " and " +
                           std::to_string(_program.y.dims.size()) + "; they must be equal");
        }
        // The operands cuDNN reads share one type (the output may be FLOAT instead).
        const ConvolutionTensor& first = forward ? _program.x : _program.y;
        const ConvolutionTensor& second =
            _program.direction == ConvolutionDirection::BackwardFilter ? _program.x : _program.w;
        if (first.type != second.type) {
            return decline(describeTensor(_graph.tensor(first.uid)) + " is " + typeName(first.type) +
                           " but " + describeTensor(_graph.tensor(second.uid)) + " is " +
                           typeName(second.type) + "; cuDNN's convolutions read operands of one type");
        }
        return true;
    }

    bool readGeometry() {
        const size_t spatial = _program.x.dims.size() - 2;
        for (const auto* list : {&_prePadding, &_postPadding, &_program.stride, &_program.dilation}) {
            if (list->size() != spatial) {
                return decline("has a geometry of " + std::to_string(list->size()) + " entries for " +
                               std::to_string(spatial) + " spatial dims");
            }
        }
        if (_prePadding != _postPadding) {
            return decline("has asymmetric padding (pre " + formatDims(_prePadding) + ", post " +
                           formatDims(_postPadding) + "), which cuDNN's convolution engines compute wrong");
        }
        if (_mode != fb::ConvMode::CROSS_CORRELATION && _mode != fb::ConvMode::CONVOLUTION) {
            return decline("has convolution mode UNSET");
        }
        _program.crossCorrelation = _mode == fb::ConvMode::CROSS_CORRELATION;
        _program.padding = _prePadding;
        return true;
    }

    bool settleChannelOrder() {
        struct Role {
            ConvolutionTensor* tensor;
            const char* port;
            bool filter;
        };
        const Role roles[] = {{&_program.x, "x", false}, {&_program.w, "w", true}, {&_program.y, "y", false}};
        std::optional<ChannelOrder> settled;
        const char* settledBy = nullptr;
        for (const Role& role : roles) {
            const auto order = channelOrder(*role.tensor, role.filter);
            if (!order) {
                continue;
            }
            if (settled && *settled != *order) {
                const auto name = [](ChannelOrder o) {
                    return o == ChannelOrder::Last ? "channels-last" : "channels-first";
                };
                return decline(std::string(settledBy) + " is " + name(*settled) + " but " + role.port +
                               " is " + name(*order) +
                               "; cuDNN's convolutions need one channel order for all their tensors");
            }
            settled = order;
            settledBy = role.port;
        }
        if (settled) {
            for (const Role& role : roles) {
                restrideUnitDims(*role.tensor, *settled);
            }
        }
        return true;
    }

    const hipdnn_flatbuffers_sdk::GraphWrapper& _graph;
    hipdnn_flatbuffers_sdk::NodeWrapper _node;
    const MemoryVirtuals& _memoryVirtuals;
    std::string& _reason;
    ConvolutionProgram _program;
    std::vector<int64_t> _uids;
    std::vector<int64_t> _prePadding;
    std::vector<int64_t> _postPadding;
    fb::ConvMode _mode{};
};

}  // namespace

ConvolutionTensor& ConvolutionProgram::output() {
    return direction == ConvolutionDirection::Forward        ? y
           : direction == ConvolutionDirection::BackwardData ? x
                                                             : w;
}

const ConvolutionTensor& ConvolutionProgram::output() const {
    return direction == ConvolutionDirection::Forward        ? y
           : direction == ConvolutionDirection::BackwardData ? x
                                                             : w;
}

std::string describeConvolution(const ConvolutionProgram& program) {
    const char* direction = program.direction == ConvolutionDirection::Forward        ? "fprop"
                            : program.direction == ConvolutionDirection::BackwardData ? "dgrad"
                                                                                      : "wgrad";
    const auto tensor = [](const char* name, const ConvolutionTensor& t) {
        return std::string(name) + " " + formatDims(t.dims) + " " + typeName(t.type);
    };
    return std::string("conv ") + direction + " " + tensor("x", program.x) + ", " + tensor("w", program.w) +
           ", " + tensor("y", program.y);
}

std::optional<ConvolutionProgram> analyzeConvolutionNode(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                                         size_t node, const MemoryVirtuals& memoryVirtuals,
                                                         std::string& reason) {
    return ConvolutionAnalysis(graph, node, memoryVirtuals, reason).run();
}

}  // namespace hipdnn_cuda_kernels
