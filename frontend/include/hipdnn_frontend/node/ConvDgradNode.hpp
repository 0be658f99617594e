// Data gradient of a convolution: DX = conv_dgrad(DY, W). DX's dims must be set; the forward
// convolution of DX by W must give DY's dims.
#pragma once

#include "../attributes/ConvDgradAttributes.hpp"
#include "../detail/TensorLookup.hpp"
#include "ConvolutionShapes.hpp"
#include "INode.hpp"

namespace hipdnn_frontend::graph {

class ConvDgradNode : public NodeBase<ConvDgradNode, ConvDgradAttributes> {
public:
    static constexpr NodeType kType = NodeType::CONVOLUTION_DGRAD;
    using Schema = fbs::ConvolutionBwdAttributes;
    using NodeBase::NodeBase;

    static std::string_view portName(InputNames port) { return port == InputNames::DY ? "DY" : "W"; }
    static std::string_view portName(OutputNames) { return "DX"; }

    Error inferAndValidateNode() {
        HIPDNN_CHECK_FRONTEND_ERROR(requireInput(InputNames::DY));
        HIPDNN_CHECK_FRONTEND_ERROR(requireInput(InputNames::W));
        auto dx = out(OutputNames::DX);
        HIPDNN_CHECK_FRONTEND_ERROR(detail::requireDims(name(), "DX", dx));
        std::vector<int64_t> dyDims;
        HIPDNN_CHECK_FRONTEND_ERROR(
            detail::convolutionOutputDims(name(), "DX", *dx, "W", *in(InputNames::W), attributes, dyDims));
        HIPDNN_CHECK_FRONTEND_ERROR(
            detail::checkDims(name(), "DY", *in(InputNames::DY), dyDims, "the forward output of DX and W"));
        return inferOutput(OutputNames::DX, dx->get_dim(), InputNames::DY);
    }

    flatbuffers::Offset<Schema> packAttributes(flatbuffers::FlatBufferBuilder& b, const UidMap& uids) const {
        auto offset = fbs::CreateConvolutionBwdAttributes(
            b, detail::uidOf(uids, in(InputNames::DY)), detail::uidOf(uids, in(InputNames::W)),
            detail::uidOf(uids, out(OutputNames::DX)), b.CreateVector(attributes.get_pre_padding()),
            b.CreateVector(attributes.get_post_padding()), b.CreateVector(attributes.get_stride()),
            b.CreateVector(attributes.get_dilation()), detail::toFbs(attributes.get_convolution_mode()));
        return offset;
    }

    static ConvDgradAttributes unpack(const Schema& source, const detail::TensorLookup& tensors) {
        ConvDgradAttributes result;
        result.inputs[InputNames::DY] = tensors(source.dy_tensor_uid());
        result.inputs[InputNames::W] = tensors(source.w_tensor_uid());
        result.outputs[OutputNames::DX] = tensors(source.dx_tensor_uid());
        result.set_pre_padding(detail::toVector(source.pre_padding()))
            .set_post_padding(detail::toVector(source.post_padding()))
            .set_stride(detail::toVector(source.stride()))
            .set_dilation(detail::toVector(source.dilation()))
            .set_convolution_mode(detail::fromFbs(source.conv_mode()));
        return result;
    }
};

}  // namespace hipdnn_frontend::graph
