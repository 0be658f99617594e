// Layer normalization (inference or training).
#pragma once

#include "../attributes/LayernormAttributes.hpp"
#include "../detail/TensorLookup.hpp"
#include "INode.hpp"
#include "NormShapes.hpp"

namespace hipdnn_frontend::graph {

class LayernormNode : public NodeBase<LayernormNode, LayernormAttributes> {
public:
    static constexpr NodeType kType = NodeType::LAYERNORM;
    using Schema = fbs::LayernormAttributes;
    using NodeBase::NodeBase;

    static std::string_view portName(InputNames port) {
        switch (port) {
            case InputNames::X:
                return "X";
            case InputNames::SCALE:
                return "SCALE";
            case InputNames::BIAS:
                return "BIAS";
            case InputNames::EPSILON:
                return "EPSILON";
        }
        return "?";
    }
    static std::string_view portName(OutputNames port) {
        switch (port) {
            case OutputNames::Y:
                return "Y";
            case OutputNames::MEAN:
                return "MEAN";
            case OutputNames::INV_VARIANCE:
                return "INV_VARIANCE";
        }
        return "?";
    }

    Error inferAndValidateNode() {
        const NormFwdPhase phase = attributes.get_forward_phase();
        HIPDNN_RETURN_FRONTEND_ERROR_IF(phase == NormFwdPhase::NOT_SET, ErrorCode::ATTRIBUTE_NOT_SET,
                                        detail::nodePrefix(name()) + "forward phase is not set");
        HIPDNN_CHECK_FRONTEND_ERROR(requireInput(InputNames::X));
        const auto& x = *in(InputNames::X);
        HIPDNN_CHECK_FRONTEND_ERROR(detail::requireRank(name(), "X", x, 2));
        HIPDNN_CHECK_FRONTEND_ERROR(
            detail::requireEveryDimButFirstNormalized(name(), attributes.get_normalized_dim_count(), x));
        const auto parameterDims = detail::normParameterDims(x.get_dim());
        for (auto port : {InputNames::SCALE, InputNames::BIAS}) {
            HIPDNN_CHECK_FRONTEND_ERROR(requireInput(port));
            HIPDNN_CHECK_FRONTEND_ERROR(
                detail::checkDims(name(), portName(port), *in(port), parameterDims, "X's dims with N = 1"));
        }
        HIPDNN_CHECK_FRONTEND_ERROR(detail::requireScalar(name(), "EPSILON", in(InputNames::EPSILON)));
        HIPDNN_CHECK_FRONTEND_ERROR(inferOutput(OutputNames::Y, x.get_dim(), InputNames::X));
        if (phase == NormFwdPhase::TRAINING) {
            const auto statisticsDims = detail::normStatisticsDims(x.get_dim());
            HIPDNN_CHECK_FRONTEND_ERROR(inferOutput(OutputNames::MEAN, statisticsDims, InputNames::X));
            HIPDNN_CHECK_FRONTEND_ERROR(
                inferOutput(OutputNames::INV_VARIANCE, statisticsDims, InputNames::X));
        }
        return {};
    }

    flatbuffers::Offset<Schema> packAttributes(flatbuffers::FlatBufferBuilder& b, const UidMap& uids) const {
        auto offset = fbs::CreateLayernormAttributes(
            b, detail::uidOf(uids, in(InputNames::X)), detail::uidOf(uids, in(InputNames::SCALE)),
            detail::uidOf(uids, in(InputNames::BIAS)), detail::uidOf(uids, in(InputNames::EPSILON)),
            detail::uidOf(uids, out(OutputNames::Y)), attributes.get_normalized_dim_count(),
            detail::optionalUidOf(uids, out(OutputNames::MEAN)),
            detail::optionalUidOf(uids, out(OutputNames::INV_VARIANCE)),
            detail::toFbs(attributes.get_forward_phase()));
        return offset;
    }

    static LayernormAttributes unpack(const Schema& source, const detail::TensorLookup& tensors) {
        LayernormAttributes result;
        result.set_forward_phase(detail::fromFbs(source.forward_phase()));
        result.set_normalized_dim_count(source.normalized_dim_count());
        result.inputs[InputNames::X] = tensors(source.x_tensor_uid());
        result.inputs[InputNames::SCALE] = tensors(source.scale_tensor_uid());
        result.inputs[InputNames::BIAS] = tensors(source.bias_tensor_uid());
        result.inputs[InputNames::EPSILON] = tensors(source.epsilon_tensor_uid());
        result.outputs[OutputNames::Y] = tensors(source.y_tensor_uid());
        result.outputs[OutputNames::MEAN] = tensors(source.mean_tensor_uid());
        result.outputs[OutputNames::INV_VARIANCE] = tensors(source.inv_variance_tensor_uid());
        return result;
    }
};

}  // namespace hipdnn_frontend::graph
