// Training batch normalization with optional running statistics.
#pragma once

#include "../attributes/BatchnormAttributes.hpp"
#include "../detail/TensorLookup.hpp"
#include "INode.hpp"

namespace hipdnn_frontend::graph {

class BatchnormNode : public NodeBase<BatchnormNode, BatchnormAttributes> {
public:
    static constexpr NodeType kType = NodeType::BATCHNORM;
    using Schema = fbs::BatchnormAttributes;
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
            case InputNames::PREV_RUNNING_MEAN:
                return "PREV_RUNNING_MEAN";
            case InputNames::PREV_RUNNING_VARIANCE:
                return "PREV_RUNNING_VARIANCE";
            case InputNames::MOMENTUM:
                return "MOMENTUM";
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
            case OutputNames::NEXT_RUNNING_MEAN:
                return "NEXT_RUNNING_MEAN";
            case OutputNames::NEXT_RUNNING_VARIANCE:
                return "NEXT_RUNNING_VARIANCE";
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

    [[nodiscard]] bool hasRunningStats() const {
        return in(InputNames::PREV_RUNNING_MEAN) || in(InputNames::PREV_RUNNING_VARIANCE) ||
               in(InputNames::MOMENTUM);
    }

    Error inferAndValidateNode() {
        HIPDNN_CHECK_FRONTEND_ERROR(requireInput(InputNames::X));
        HIPDNN_CHECK_FRONTEND_ERROR(requireInput(InputNames::SCALE));
        HIPDNN_CHECK_FRONTEND_ERROR(requireInput(InputNames::BIAS));
        HIPDNN_CHECK_FRONTEND_ERROR(detail::requireScalar(name(), "EPSILON", in(InputNames::EPSILON)));
        const auto& x = *in(InputNames::X);
        HIPDNN_CHECK_FRONTEND_ERROR(detail::requireRank(name(), "X", x, 2));
        const auto channelDims = detail::perChannelDims(x.get_dim());
        HIPDNN_CHECK_FRONTEND_ERROR(detail::checkDims(name(), "SCALE", *in(InputNames::SCALE), channelDims,
                                                      "one value per channel of X"));
        HIPDNN_CHECK_FRONTEND_ERROR(detail::checkDims(name(), "BIAS", *in(InputNames::BIAS), channelDims,
                                                      "one value per channel of X"));
        if (hasRunningStats()) {
            // Running statistics are all or nothing.
            HIPDNN_CHECK_FRONTEND_ERROR(requireInput(InputNames::PREV_RUNNING_MEAN));
            HIPDNN_CHECK_FRONTEND_ERROR(requireInput(InputNames::PREV_RUNNING_VARIANCE));
            HIPDNN_CHECK_FRONTEND_ERROR(detail::requireScalar(name(), "MOMENTUM", in(InputNames::MOMENTUM)));
            HIPDNN_CHECK_FRONTEND_ERROR(detail::checkDims(name(), "PREV_RUNNING_MEAN",
                                                          *in(InputNames::PREV_RUNNING_MEAN), channelDims,
                                                          "one value per channel of X"));
            HIPDNN_CHECK_FRONTEND_ERROR(detail::checkDims(name(), "PREV_RUNNING_VARIANCE",
                                                          *in(InputNames::PREV_RUNNING_VARIANCE), channelDims,
                                                          "one value per channel of X"));
            HIPDNN_CHECK_FRONTEND_ERROR(
                inferOutput(OutputNames::NEXT_RUNNING_MEAN, channelDims, InputNames::X));
            HIPDNN_CHECK_FRONTEND_ERROR(
                inferOutput(OutputNames::NEXT_RUNNING_VARIANCE, channelDims, InputNames::X));
        }
        HIPDNN_CHECK_FRONTEND_ERROR(inferOutput(OutputNames::Y, x.get_dim(), InputNames::X));
        if (out(OutputNames::MEAN)) {
            HIPDNN_CHECK_FRONTEND_ERROR(inferOutput(OutputNames::MEAN, channelDims, InputNames::X));
        }
        if (out(OutputNames::INV_VARIANCE)) {
            HIPDNN_CHECK_FRONTEND_ERROR(inferOutput(OutputNames::INV_VARIANCE, channelDims, InputNames::X));
        }
        return {};
    }

    flatbuffers::Offset<Schema> packAttributes(flatbuffers::FlatBufferBuilder& b, const UidMap& uids) const {
        auto peers = detail::uidVector(b, uids, attributes.get_peer_stats());
        auto offset = fbs::CreateBatchnormAttributes(
            b, detail::uidOf(uids, in(InputNames::X)), detail::uidOf(uids, in(InputNames::SCALE)),
            detail::uidOf(uids, in(InputNames::BIAS)), detail::uidOf(uids, in(InputNames::EPSILON)), peers,
            detail::optionalUidOf(uids, in(InputNames::PREV_RUNNING_MEAN)),
            detail::optionalUidOf(uids, in(InputNames::PREV_RUNNING_VARIANCE)),
            detail::optionalUidOf(uids, in(InputNames::MOMENTUM)), detail::uidOf(uids, out(OutputNames::Y)),
            detail::optionalUidOf(uids, out(OutputNames::MEAN)),
            detail::optionalUidOf(uids, out(OutputNames::INV_VARIANCE)),
            detail::optionalUidOf(uids, out(OutputNames::NEXT_RUNNING_MEAN)),
            detail::optionalUidOf(uids, out(OutputNames::NEXT_RUNNING_VARIANCE)));
        return offset;
    }

    static BatchnormAttributes unpack(const Schema& source, const detail::TensorLookup& tensors) {
        BatchnormAttributes result;
        result.inputs[InputNames::X] = tensors(source.x_tensor_uid());
        result.inputs[InputNames::SCALE] = tensors(source.scale_tensor_uid());
        result.inputs[InputNames::BIAS] = tensors(source.bias_tensor_uid());
        result.inputs[InputNames::EPSILON] = tensors(source.epsilon_tensor_uid());
        result.inputs[InputNames::PREV_RUNNING_MEAN] = tensors(source.prev_running_mean_tensor_uid());
        result.inputs[InputNames::PREV_RUNNING_VARIANCE] = tensors(source.prev_running_variance_tensor_uid());
        result.inputs[InputNames::MOMENTUM] = tensors(source.momentum_tensor_uid());
        result.set_peer_stats(tensors(source.peer_stats_tensor_uid()));
        result.outputs[OutputNames::Y] = tensors(source.y_tensor_uid());
        result.outputs[OutputNames::MEAN] = tensors(source.mean_tensor_uid());
        result.outputs[OutputNames::INV_VARIANCE] = tensors(source.inv_variance_tensor_uid());
        result.outputs[OutputNames::NEXT_RUNNING_MEAN] = tensors(source.next_running_mean_tensor_uid());
        result.outputs[OutputNames::NEXT_RUNNING_VARIANCE] =
            tensors(source.next_running_variance_tensor_uid());
        return result;
    }
};

}  // namespace hipdnn_frontend::graph
