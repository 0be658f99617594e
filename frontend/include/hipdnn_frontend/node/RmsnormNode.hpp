// RMS normalization (inference or training), with an optional bias.
#pragma once

#include "../attributes/RmsnormAttributes.hpp"
#include "../detail/TensorLookup.hpp"
#include "INode.hpp"
#include "NormShapes.hpp"

namespace hipdnn_frontend::graph {

class RmsnormNode : public NodeBase<RmsnormNode, RmsnormAttributes> {
public:
    static constexpr NodeType kType = NodeType::RMSNORM;
    using Schema = fbs::RMSNormAttributes;
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
    static std::string_view portName(OutputNames port) { return port == OutputNames::Y ? "Y" : "INV_RMS"; }

    Error inferAndValidateNode() {
        const NormFwdPhase phase = attributes.get_forward_phase();
        HIPDNN_RETURN_FRONTEND_ERROR_IF(phase == NormFwdPhase::NOT_SET, ErrorCode::ATTRIBUTE_NOT_SET,
                                        detail::nodePrefix(name()) + "forward phase is not set");
        HIPDNN_CHECK_FRONTEND_ERROR(requireInput(InputNames::X));
        const auto& x = *in(InputNames::X);
        HIPDNN_CHECK_FRONTEND_ERROR(detail::requireRank(name(), "X", x, 2));
        const auto parameterDims = detail::normParameterDims(x.get_dim());
        HIPDNN_CHECK_FRONTEND_ERROR(requireInput(InputNames::SCALE));
        HIPDNN_CHECK_FRONTEND_ERROR(
            detail::checkDims(name(), "SCALE", *in(InputNames::SCALE), parameterDims, "X's dims with N = 1"));
        if (in(InputNames::BIAS)) {
            HIPDNN_CHECK_FRONTEND_ERROR(requireInput(InputNames::BIAS));
            HIPDNN_CHECK_FRONTEND_ERROR(detail::checkDims(name(), "BIAS", *in(InputNames::BIAS),
                                                          parameterDims, "X's dims with N = 1"));
        }
        HIPDNN_CHECK_FRONTEND_ERROR(detail::requireScalar(name(), "EPSILON", in(InputNames::EPSILON)));
        HIPDNN_CHECK_FRONTEND_ERROR(inferOutput(OutputNames::Y, x.get_dim(), InputNames::X));
        if (phase == NormFwdPhase::TRAINING) {
            HIPDNN_CHECK_FRONTEND_ERROR(
                inferOutput(OutputNames::INV_RMS, detail::normStatisticsDims(x.get_dim()), InputNames::X));
        }
        return {};
    }

    flatbuffers::Offset<Schema> packAttributes(flatbuffers::FlatBufferBuilder& b, const UidMap& uids) const {
        auto offset = fbs::CreateRMSNormAttributes(
            b, detail::uidOf(uids, in(InputNames::X)), detail::uidOf(uids, in(InputNames::SCALE)),
            detail::uidOf(uids, in(InputNames::EPSILON)), detail::uidOf(uids, out(OutputNames::Y)),
            detail::optionalUidOf(uids, in(InputNames::BIAS)),
            detail::optionalUidOf(uids, out(OutputNames::INV_RMS)),
            detail::toFbs(attributes.get_forward_phase()));
        return offset;
    }

    static RmsnormAttributes unpack(const Schema& source, const detail::TensorLookup& tensors) {
        RmsnormAttributes result;
        result.set_forward_phase(detail::fromFbs(source.forward_phase()));
        result.inputs[InputNames::X] = tensors(source.x_tensor_uid());
        result.inputs[InputNames::SCALE] = tensors(source.scale_tensor_uid());
        result.inputs[InputNames::BIAS] = tensors(source.bias_tensor_uid());
        result.inputs[InputNames::EPSILON] = tensors(source.epsilon_tensor_uid());
        result.outputs[OutputNames::Y] = tensors(source.y_tensor_uid());
        result.outputs[OutputNames::INV_RMS] = tensors(source.inv_rms_tensor_uid());
        return result;
    }
};

}  // namespace hipdnn_frontend::graph
