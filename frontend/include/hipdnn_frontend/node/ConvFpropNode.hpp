// Forward convolution: Y = conv(X, W).
#pragma once

#include "../attributes/ConvFpropAttributes.hpp"
#include "../detail/TensorLookup.hpp"
#include "ConvolutionShapes.hpp"
#include "INode.hpp"

namespace hipdnn_frontend::graph {

class ConvFpropNode : public NodeBase<ConvFpropNode, ConvFpropAttributes> {
public:
    static constexpr NodeType kType = NodeType::CONVOLUTION_FPROP;
    using Schema = fbs::ConvolutionFwdAttributes;
    using NodeBase::NodeBase;

    static std::string_view portName(InputNames port) { return port == InputNames::X ? "X" : "W"; }
    static std::string_view portName(OutputNames) { return "Y"; }

    Error inferAndValidateNode() {
        HIPDNN_CHECK_FRONTEND_ERROR(requireInput(InputNames::X));
        HIPDNN_CHECK_FRONTEND_ERROR(requireInput(InputNames::W));
        std::vector<int64_t> yDims;
        HIPDNN_CHECK_FRONTEND_ERROR(detail::convolutionOutputDims(name(), "X", *in(InputNames::X), "W",
                                                                  *in(InputNames::W), attributes, yDims));
        return inferOutput(OutputNames::Y, yDims, InputNames::X);
    }

    flatbuffers::Offset<Schema> packAttributes(flatbuffers::FlatBufferBuilder& b, const UidMap& uids) const {
        auto offset = fbs::CreateConvolutionFwdAttributes(
            b, detail::uidOf(uids, in(InputNames::X)), detail::uidOf(uids, in(InputNames::W)),
            detail::uidOf(uids, out(OutputNames::Y)), b.CreateVector(attributes.get_pre_padding()),
            b.CreateVector(attributes.get_post_padding()), b.CreateVector(attributes.get_stride()),
            b.CreateVector(attributes.get_dilation()), detail::toFbs(attributes.get_convolution_mode()));
        return offset;
    }

    static ConvFpropAttributes unpack(const Schema& source, const detail::TensorLookup& tensors) {
        ConvFpropAttributes result;
        result.inputs[InputNames::X] = tensors(source.x_tensor_uid());
        result.inputs[InputNames::W] = tensors(source.w_tensor_uid());
        result.outputs[OutputNames::Y] = tensors(source.y_tensor_uid());
        result.set_pre_padding(detail::toVector(source.pre_padding()))
            .set_post_padding(detail::toVector(source.post_padding()))
            .set_stride(detail::toVector(source.stride()))
            .set_dilation(detail::toVector(source.dilation()))
            .set_convolution_mode(detail::fromFbs(source.conv_mode()));
        return result;
    }
};

}  // namespace hipdnn_frontend::graph
