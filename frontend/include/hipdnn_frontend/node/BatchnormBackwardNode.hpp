// Batch normalization backward, from saved statistics or recomputing them with epsilon.
#pragma once

#include "../attributes/BatchnormBackwardAttributes.hpp"
#include "../detail/TensorLookup.hpp"
#include "INode.hpp"

namespace hipdnn_frontend::graph {

class BatchnormBackwardNode : public NodeBase<BatchnormBackwardNode, BatchnormBackwardAttributes> {
public:
    static constexpr NodeType kType = NodeType::BATCHNORM_BACKWARD;
    using Schema = fbs::BatchnormBackwardAttributes;
    using NodeBase::NodeBase;

    static std::string_view portName(InputNames port) {
        switch (port) {
            case InputNames::DY:
                return "DY";
            case InputNames::X:
                return "X";
            case InputNames::MEAN:
                return "MEAN";
            case InputNames::INV_VARIANCE:
                return "INV_VARIANCE";
            case InputNames::SCALE:
                return "SCALE";
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

    [[nodiscard]] std::vector<TensorPort> inputs() const override {
        auto ports = NodeBase::inputs();
        for (const auto& peer : attributes.get_peer_stats()) {
            ports.push_back({"PEER_STATS", peer});
        }
        return ports;
    }

    Error inferAndValidateNode() {
        HIPDNN_CHECK_FRONTEND_ERROR(requireInput(InputNames::DY));
        HIPDNN_CHECK_FRONTEND_ERROR(requireInput(InputNames::X));
        HIPDNN_CHECK_FRONTEND_ERROR(requireInput(InputNames::SCALE));
        const auto& x = *in(InputNames::X);
        HIPDNN_CHECK_FRONTEND_ERROR(detail::requireRank(name(), "X", x, 2));
        HIPDNN_CHECK_FRONTEND_ERROR(
            detail::checkDims(name(), "DY", *in(InputNames::DY), x.get_dim(), "the dims of X"));
        const auto channelDims = detail::perChannelDims(x.get_dim());
        HIPDNN_CHECK_FRONTEND_ERROR(detail::checkDims(name(), "SCALE", *in(InputNames::SCALE), channelDims,
                                                      "one value per channel of X"));
        if (in(InputNames::MEAN) || in(InputNames::INV_VARIANCE)) {
            for (auto port : {InputNames::MEAN, InputNames::INV_VARIANCE}) {
                HIPDNN_CHECK_FRONTEND_ERROR(requireInput(port));
                HIPDNN_CHECK_FRONTEND_ERROR(detail::checkDims(name(), portName(port), *in(port), channelDims,
                                                              "one value per channel of X"));
            }
        } else {
            // Without saved statistics they are recomputed, which needs epsilon.
            HIPDNN_RETURN_FRONTEND_ERROR_IF(
                !in(InputNames::EPSILON), ErrorCode::ATTRIBUTE_NOT_SET,
                detail::nodePrefix(name()) + "neither the saved MEAN and INV_VARIANCE nor EPSILON is set");
            HIPDNN_CHECK_FRONTEND_ERROR(detail::requireScalar(name(), "EPSILON", in(InputNames::EPSILON)));
        }
        HIPDNN_CHECK_FRONTEND_ERROR(inferOutput(OutputNames::DX, x.get_dim(), InputNames::X));
        HIPDNN_CHECK_FRONTEND_ERROR(inferOutput(OutputNames::DSCALE, channelDims, InputNames::X));
        return inferOutput(OutputNames::DBIAS, channelDims, InputNames::X);
    }

    flatbuffers::Offset<Schema> packAttributes(flatbuffers::FlatBufferBuilder& b, const UidMap& uids) const {
        auto peers = detail::uidVector(b, uids, attributes.get_peer_stats());
        auto offset = fbs::CreateBatchnormBackwardAttributes(
            b, detail::uidOf(uids, in(InputNames::DY)), detail::uidOf(uids, in(InputNames::X)),
            detail::optionalUidOf(uids, in(InputNames::MEAN)),
            detail::optionalUidOf(uids, in(InputNames::INV_VARIANCE)),
            detail::uidOf(uids, in(InputNames::SCALE)), peers, detail::uidOf(uids, out(OutputNames::DX)),
            detail::uidOf(uids, out(OutputNames::DSCALE)), detail::uidOf(uids, out(OutputNames::DBIAS)),
            detail::optionalUidOf(uids, in(InputNames::EPSILON)));
        return offset;
    }

    static BatchnormBackwardAttributes unpack(const Schema& source, const detail::TensorLookup& tensors) {
        BatchnormBackwardAttributes result;
        result.inputs[InputNames::DY] = tensors(source.dy_tensor_uid());
        result.inputs[InputNames::X] = tensors(source.x_tensor_uid());
        result.inputs[InputNames::MEAN] = tensors(source.mean_tensor_uid());
        result.inputs[InputNames::INV_VARIANCE] = tensors(source.inv_variance_tensor_uid());
        result.inputs[InputNames::SCALE] = tensors(source.scale_tensor_uid());
        result.inputs[InputNames::EPSILON] = tensors(source.epsilon_tensor_uid());
        result.set_peer_stats(tensors(source.peer_stats_tensor_uid()));
        result.outputs[OutputNames::DX] = tensors(source.dx_tensor_uid());
        result.outputs[OutputNames::DSCALE] = tensors(source.dscale_tensor_uid());
        result.outputs[OutputNames::DBIAS] = tensors(source.dbias_tensor_uid());
        return result;
    }
};

}  // namespace hipdnn_frontend::graph
