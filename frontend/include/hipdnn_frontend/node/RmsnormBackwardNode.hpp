// RMS normalization backward.
#pragma once

#include "../attributes/RmsnormBackwardAttributes.hpp"
#include "../detail/TensorLookup.hpp"
#include "INode.hpp"
#include "NormShapes.hpp"

namespace hipdnn_frontend::graph {

class RmsnormBackwardNode : public NodeBase<RmsnormBackwardNode, RmsnormBackwardAttributes> {
public:
    static constexpr NodeType kType = NodeType::RMSNORM_BACKWARD;
    using Schema = fbs::RMSNormBackwardAttributes;
    using NodeBase::NodeBase;

    static std::string_view portName(InputNames port) {
        switch (port) {
            case InputNames::DY:
                return "DY";
            case InputNames::X:
                return "X";
            case InputNames::SCALE:
                return "SCALE";
            case InputNames::INV_RMS:
                return "INV_RMS";
        }
        return "?";
    }
    static std::string_view portName(OutputNames port) {
        switch (port) {
            case OutputNames::DX:
                return "DX";
            case OutputNames::DSCALE:
                return "DSCALE";
            case OutputNames::DBIAS:
                return "DBIAS";
        }
        return "?";
    }

    Error inferAndValidateNode() {
        for (auto port : {InputNames::DY, InputNames::X, InputNames::SCALE, InputNames::INV_RMS}) {
            HIPDNN_CHECK_FRONTEND_ERROR(requireInput(port));
        }
        const auto& x = *in(InputNames::X);
        HIPDNN_CHECK_FRONTEND_ERROR(detail::requireRank(name(), "X", x, 2));
        HIPDNN_CHECK_FRONTEND_ERROR(
            detail::checkDims(name(), "DY", *in(InputNames::DY), x.get_dim(), "the dims of X"));
        const auto parameterDims = detail::normParameterDims(x.get_dim());
        HIPDNN_CHECK_FRONTEND_ERROR(
            detail::checkDims(name(), "SCALE", *in(InputNames::SCALE), parameterDims, "X's dims with N = 1"));
        HIPDNN_CHECK_FRONTEND_ERROR(detail::checkDims(name(), "INV_RMS", *in(InputNames::INV_RMS),
                                                      detail::normStatisticsDims(x.get_dim()),
                                                      "one value per sample of X"));
        HIPDNN_CHECK_FRONTEND_ERROR(inferOutput(OutputNames::DX, x.get_dim(), InputNames::X));
        HIPDNN_CHECK_FRONTEND_ERROR(inferOutput(OutputNames::DSCALE, parameterDims, InputNames::SCALE));
        if (out(OutputNames::DBIAS)) {
            HIPDNN_CHECK_FRONTEND_ERROR(inferOutput(OutputNames::DBIAS, parameterDims, InputNames::SCALE));
        }
        return {};
    }

    flatbuffers::Offset<Schema> packAttributes(flatbuffers::FlatBufferBuilder& b, const UidMap& uids) const {
        auto offset = fbs::CreateRMSNormBackwardAttributes(
            b, detail::uidOf(uids, in(InputNames::DY)), detail::uidOf(uids, in(InputNames::X)),
            detail::uidOf(uids, in(InputNames::SCALE)), detail::uidOf(uids, in(InputNames::INV_RMS)),
            detail::uidOf(uids, out(OutputNames::DX)), detail::uidOf(uids, out(OutputNames::DSCALE)),
            detail::optionalUidOf(uids, out(OutputNames::DBIAS)));
        return offset;
    }

    static RmsnormBackwardAttributes unpack(const Schema& source, const detail::TensorLookup& tensors) {
        RmsnormBackwardAttributes result;
        result.inputs[InputNames::DY] = tensors(source.dy_tensor_uid());
        result.inputs[InputNames::X] = tensors(source.x_tensor_uid());
        result.inputs[InputNames::SCALE] = tensors(source.scale_tensor_uid());
        result.inputs[InputNames::INV_RMS] = tensors(source.inv_rms_tensor_uid());
        result.outputs[OutputNames::DX] = tensors(source.dx_tensor_uid());
        result.outputs[OutputNames::DSCALE] = tensors(source.dscale_tensor_uid());
        result.outputs[OutputNames::DBIAS] = tensors(source.dbias_tensor_uid());
        result.has_dbias(source.dbias_tensor_uid().has_value());
        return result;
    }
};

}  // namespace hipdnn_frontend::graph
