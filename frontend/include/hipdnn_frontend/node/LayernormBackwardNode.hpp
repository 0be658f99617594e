// Layer normalization backward.
#pragma once

#include "../attributes/LayernormBackwardAttributes.hpp"
#include "../detail/TensorLookup.hpp"
#include "INode.hpp"
#include "NormShapes.hpp"

namespace hipdnn_frontend::graph {

class LayernormBackwardNode : public NodeBase<LayernormBackwardNode, LayernormBackwardAttributes> {
public:
    static constexpr NodeType kType = NodeType::LAYERNORM_BACKWARD;
    using Schema = fbs::LayernormBackwardAttributes;
    using NodeBase::NodeBase;

    static std::string_view portName(InputNames port) {
        switch (port) {
            case InputNames::DY:
                return "DY";
            case InputNames::X:
                return "X";
            case InputNames::SCALE:
                return "SCALE";
            case InputNames::MEAN:
                return "MEAN";
            case InputNames::INV_VARIANCE:
                return "INV_VARIANCE";
            case InputNames::EPSILON:
                return "EPSILON";
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
        for (auto port : {InputNames::DY, InputNames::X, InputNames::SCALE}) {
            HIPDNN_CHECK_FRONTEND_ERROR(requireInput(port));
        }
        HIPDNN_RETURN_FRONTEND_ERROR_IF(!in(InputNames::MEAN) || !in(InputNames::INV_VARIANCE),
                                        ErrorCode::ATTRIBUTE_NOT_SET,
                                        detail::nodePrefix(name()) +
                                            "MEAN and INV_VARIANCE (the forward pass's statistics, "
                                            "set_saved_mean_and_inv_variance) are required; recomputing "
                                            "them is not supported");
        const auto& x = *in(InputNames::X);
        HIPDNN_CHECK_FRONTEND_ERROR(detail::requireRank(name(), "X", x, 2));
        HIPDNN_CHECK_FRONTEND_ERROR(
            detail::requireEveryDimButFirstNormalized(name(), attributes.get_normalized_dim_count(), x));
        HIPDNN_CHECK_FRONTEND_ERROR(
            detail::checkDims(name(), "DY", *in(InputNames::DY), x.get_dim(), "the dims of X"));
        const auto parameterDims = detail::normParameterDims(x.get_dim());
        HIPDNN_CHECK_FRONTEND_ERROR(
            detail::checkDims(name(), "SCALE", *in(InputNames::SCALE), parameterDims, "X's dims with N = 1"));
        const auto statisticsDims = detail::normStatisticsDims(x.get_dim());
        for (auto port : {InputNames::MEAN, InputNames::INV_VARIANCE}) {
            HIPDNN_CHECK_FRONTEND_ERROR(detail::checkDims(name(), portName(port), *in(port), statisticsDims,
                                                          "one value per sample of X"));
        }
        if (in(InputNames::EPSILON)) {
            HIPDNN_CHECK_FRONTEND_ERROR(detail::requireScalar(name(), "EPSILON", in(InputNames::EPSILON)));
        }
        HIPDNN_CHECK_FRONTEND_ERROR(inferOutput(OutputNames::DX, x.get_dim(), InputNames::X));
        HIPDNN_CHECK_FRONTEND_ERROR(inferOutput(OutputNames::DSCALE, parameterDims, InputNames::SCALE));
        HIPDNN_CHECK_FRONTEND_ERROR(inferOutput(OutputNames::DBIAS, parameterDims, InputNames::SCALE));
        return {};
    }

    flatbuffers::Offset<Schema> packAttributes(flatbuffers::FlatBufferBuilder& b, const UidMap& uids) const {
        auto offset = fbs::CreateLayernormBackwardAttributes(
            b, detail::uidOf(uids, in(InputNames::DY)), detail::uidOf(uids, in(InputNames::X)),
            detail::uidOf(uids, in(InputNames::SCALE)), detail::optionalUidOf(uids, in(InputNames::MEAN)),
            detail::optionalUidOf(uids, in(InputNames::INV_VARIANCE)),
            detail::optionalUidOf(uids, in(InputNames::EPSILON)), detail::uidOf(uids, out(OutputNames::DX)),
            detail::uidOf(uids, out(OutputNames::DSCALE)), detail::uidOf(uids, out(OutputNames::DBIAS)),
            attributes.get_normalized_dim_count());
        return offset;
    }

    static LayernormBackwardAttributes unpack(const Schema& source, const detail::TensorLookup& tensors) {
        LayernormBackwardAttributes result;
        result.set_normalized_dim_count(source.normalized_dim_count());
        result.inputs[InputNames::DY] = tensors(source.dy_tensor_uid());
        result.inputs[InputNames::X] = tensors(source.x_tensor_uid());
        result.inputs[InputNames::SCALE] = tensors(source.scale_tensor_uid());
        result.inputs[InputNames::MEAN] = tensors(source.mean_tensor_uid());
        result.inputs[InputNames::INV_VARIANCE] = tensors(source.inv_variance_tensor_uid());
        result.inputs[InputNames::EPSILON] = tensors(source.epsilon_tensor_uid());
        result.outputs[OutputNames::DX] = tensors(source.dx_tensor_uid());
        result.outputs[OutputNames::DSCALE] = tensors(source.dscale_tensor_uid());
        result.outputs[OutputNames::DBIAS] = tensors(source.dbias_tensor_uid());
        return result;
    }
};

}  // namespace hipdnn_frontend::graph
