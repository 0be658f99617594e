// Weight gradient of a convolution: DW = conv_wgrad(DY, X). DW's dims must be set; the forward
// convolution of X by DW must give DY's dims.
#pragma once

#include "../attributes/ConvWgradAttributes.hpp"
#include "../detail/TensorLookup.hpp"
#include "ConvolutionShapes.hpp"
#include "INode.hpp"

namespace hipdnn_frontend::graph {

class ConvWgradNode : public NodeBase<ConvWgradNode, ConvWgradAttributes> {
public:
    static constexpr NodeType kType = NodeType::CONVOLUTION_WGRAD;
    using Schema = fbs::ConvolutionWrwAttributes;
    using NodeBase::NodeBase;

    static std::string_view portName(InputNames port) { return port == InputNames::DY ? "DY" : "X"; }
    static std::string_view portName(OutputNames) { return "DW"; }

    Error inferAndValidateNode() {
        HIPDNN_CHECK_FRONTEND_ERROR(requireInput(InputNames::DY));
        HIPDNN_CHECK_FRONTEND_ERROR(requireInput(InputNames::X));
        auto dw = out(OutputNames::DW);
        HIPDNN_CHECK_FRONTEND_ERROR(detail::requireDims(name(), "DW", dw));
        std::vector<int64_t> dyDims;
        HIPDNN_CHECK_FRONTEND_ERROR(
            detail::convolutionOutputDims(name(), "X", *in(InputNames::X), "DW", *dw, attributes, dyDims));
        HIPDNN_CHECK_FRONTEND_ERROR(
            detail::checkDims(name(), "DY", *in(InputNames::DY), dyDims, "the forward output of X and DW"));
        return inferOutput(OutputNames::DW, dw->get_dim(), InputNames::X);
    }

    flatbuffers::Offset<Schema> packAttributes(flatbuffers::FlatBufferBuilder& b, const UidMap& uids) const {
        auto offset = fbs::CreateConvolutionWrwAttributes(
            b, detail::uidOf(uids, in(InputNames::X)), detail::uidOf(uids, in(InputNames::DY)),
            detail::uidOf(uids, out(OutputNames::DW)), b.CreateVector(attributes.get_pre_padding()),
            b.CreateVector(attributes.get_post_padding()), b.CreateVector(attributes.get_stride()),
            b.CreateVector(attributes.get_dilation()), detail::toFbs(attributes.get_convolution_mode()));
        return offset;
    }

    static ConvWgradAttributes unpack(const Schema& source, const detail::TensorLookup& tensors) {
        ConvWgradAttributes result;
        result.inputs[InputNames::X] = tensors(source.x_tensor_uid());
        result.inputs[InputNames::DY] = tensors(source.dy_tensor_uid());
        result.outputs[OutputNames::DW] = tensors(source.dw_tensor_uid());
        result.set_pre_padding(detail::toVector(source.pre_padding()))
            .set_post_padding(detail::toVector(source.post_padding()))
            .set_stride(detail::toVector(source.stride()))
            .set_dilation(detail::toVector(source.dilation()))
            .set_convolution_mode(detail::fromFbs(source.conv_mode()));
        return result;
    }
};

}  // namespace hipdnn_frontend::graph
