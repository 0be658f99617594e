// Reduction of the dims where Y has 1 and X has more.
#pragma once

#include "../attributes/ReductionAttributes.hpp"
#include "../detail/TensorLookup.hpp"
#include "INode.hpp"

namespace hipdnn_frontend::graph {

class ReductionNode : public NodeBase<ReductionNode, ReductionAttributes> {
public:
    static constexpr NodeType kType = NodeType::REDUCTION;
    using Schema = fbs::ReductionAttributes;
    using NodeBase::NodeBase;

    static std::string_view portName(InputNames) { return "X"; }
    static std::string_view portName(OutputNames) { return "Y"; }

    Error inferAndValidateNode() {
        HIPDNN_RETURN_FRONTEND_ERROR_IF(attributes.get_mode() == ReductionMode::NOT_SET,
                                        ErrorCode::ATTRIBUTE_NOT_SET,
                                        detail::nodePrefix(name()) + "reduction mode is not set");
        HIPDNN_CHECK_FRONTEND_ERROR(requireInput(InputNames::X));
        // Y's dims say which dims are reduced, so they cannot be inferred.
        HIPDNN_CHECK_FRONTEND_ERROR(detail::requireDims(name(), "Y", out(OutputNames::Y)));
        const auto& x = *in(InputNames::X);
        const auto& y = *out(OutputNames::Y);
        HIPDNN_CHECK_FRONTEND_ERROR(detail::requireSameRank(name(), "X", x, "Y", y));
        for (size_t i = 0; i < x.get_dim().size(); ++i) {
            HIPDNN_RETURN_FRONTEND_ERROR_IF(
                y.get_dim()[i] != 1 && y.get_dim()[i] != x.get_dim()[i], ErrorCode::INVALID_VALUE,
                detail::nodePrefix(name()) + "dim " + std::to_string(i) + " of " +
                    detail::describeTensor("Y", y) + " is " + std::to_string(y.get_dim()[i]) +
                    "; it must be 1 (reduced) or " + std::to_string(x.get_dim()[i]) + " (kept)");
        }
        return inferOutput(OutputNames::Y, y.get_dim(), InputNames::X);
    }

    flatbuffers::Offset<Schema> packAttributes(flatbuffers::FlatBufferBuilder& b, const UidMap& uids) const {
        auto offset = fbs::CreateReductionAttributes(b, detail::toFbs(attributes.get_mode()),
                                                     detail::uidOf(uids, in(InputNames::X)),
                                                     detail::uidOf(uids, out(OutputNames::Y)));
        return offset;
    }

    static ReductionAttributes unpack(const Schema& source, const detail::TensorLookup& tensors) {
        ReductionAttributes result;
        result.set_mode(detail::fromFbs(source.mode()));
        result.inputs[InputNames::X] = tensors(source.in_tensor_uid());
        result.outputs[OutputNames::Y] = tensors(source.out_tensor_uid());
        return result;
    }
};

}  // namespace hipdnn_frontend::graph
