// Inference batch normalization from the saved mean and inverse variance.
#pragma once

#include "../attributes/BatchnormInferenceAttributes.hpp"
#include "../detail/TensorLookup.hpp"
#include "INode.hpp"

namespace hipdnn_frontend::graph {

class BatchnormInferenceNode : public NodeBase<BatchnormInferenceNode, BatchnormInferenceAttributes> {
public:
    static constexpr NodeType kType = NodeType::BATCHNORM_INFERENCE;
    using Schema = fbs::BatchnormInferenceAttributes;
    using NodeBase::NodeBase;

    static std::string_view portName(InputNames port) {
        switch (port) {
            case InputNames::X:
                return "X";
            case InputNames::MEAN:
                return "MEAN";
            case InputNames::INV_VARIANCE:
                return "INV_VARIANCE";
            case InputNames::SCALE:
                return "SCALE";
            case InputNames::BIAS:
                return "BIAS";
        }
        return "?";
    }
    static std::string_view portName(OutputNames) { return "Y"; }

    Error inferAndValidateNode() {
        HIPDNN_CHECK_FRONTEND_ERROR(requireInput(InputNames::X));
        const auto& x = *in(InputNames::X);
        HIPDNN_CHECK_FRONTEND_ERROR(detail::requireRank(name(), "X", x, 2));
        const auto channelDims = detail::perChannelDims(x.get_dim());
        for (auto port : {InputNames::MEAN, InputNames::INV_VARIANCE, InputNames::SCALE, InputNames::BIAS}) {
            HIPDNN_CHECK_FRONTEND_ERROR(requireInput(port));
            HIPDNN_CHECK_FRONTEND_ERROR(detail::checkDims(name(), portName(port), *in(port), channelDims,
                                                          "one value per channel of X"));
        }
        return inferOutput(OutputNames::Y, x.get_dim(), InputNames::X);
    }

    flatbuffers::Offset<Schema> packAttributes(flatbuffers::FlatBufferBuilder& b, const UidMap& uids) const {
        auto offset = fbs::CreateBatchnormInferenceAttributes(
            b, detail::uidOf(uids, in(InputNames::X)), detail::uidOf(uids, in(InputNames::MEAN)),
            detail::uidOf(uids, in(InputNames::INV_VARIANCE)), detail::uidOf(uids, in(InputNames::SCALE)),
            detail::uidOf(uids, in(InputNames::BIAS)), detail::uidOf(uids, out(OutputNames::Y)));
        return offset;
    }

    static BatchnormInferenceAttributes unpack(const Schema& source, const detail::TensorLookup& tensors) {
        BatchnormInferenceAttributes result;
        result.inputs[InputNames::X] = tensors(source.x_tensor_uid());
        result.inputs[InputNames::MEAN] = tensors(source.mean_tensor_uid());
        result.inputs[InputNames::INV_VARIANCE] = tensors(source.inv_variance_tensor_uid());
        result.inputs[InputNames::SCALE] = tensors(source.scale_tensor_uid());
        result.inputs[InputNames::BIAS] = tensors(source.bias_tensor_uid());
        result.outputs[OutputNames::Y] = tensors(source.y_tensor_uid());
        return result;
    }
};

}  // namespace hipdnn_frontend::graph
