// Inference batch normalization from the variance and epsilon (extension).
#pragma once

#include "../attributes/BatchnormInferenceVarianceAttributes.hpp"
#include "../detail/TensorLookup.hpp"
#include "INode.hpp"

namespace hipdnn_frontend::graph {

class BatchnormInferenceVarianceNode
    : public NodeBase<BatchnormInferenceVarianceNode, BatchnormInferenceVarianceAttributes> {
public:
    static constexpr NodeType kType = NodeType::BATCHNORM_INFERENCE_VARIANCE;
    using Schema = fbs::BatchnormInferenceAttributesVarianceExt;
    using NodeBase::NodeBase;

    static std::string_view portName(InputNames port) {
        switch (port) {
            case InputNames::X:
                return "X";
            case InputNames::MEAN:
                return "MEAN";
            case InputNames::VARIANCE:
                return "VARIANCE";
            case InputNames::SCALE:
                return "SCALE";
            case InputNames::BIAS:
                return "BIAS";
            case InputNames::EPSILON:
                return "EPSILON";
        }
        return "?";
    }
    static std::string_view portName(OutputNames) { return "Y"; }

    Error inferAndValidateNode() {
        HIPDNN_CHECK_FRONTEND_ERROR(requireInput(InputNames::X));
        const auto& x = *in(InputNames::X);
        HIPDNN_CHECK_FRONTEND_ERROR(detail::requireRank(name(), "X", x, 2));
        const auto channelDims = detail::perChannelDims(x.get_dim());
        for (auto port : {InputNames::MEAN, InputNames::VARIANCE, InputNames::SCALE, InputNames::BIAS}) {
            HIPDNN_CHECK_FRONTEND_ERROR(requireInput(port));
            HIPDNN_CHECK_FRONTEND_ERROR(detail::checkDims(name(), portName(port), *in(port), channelDims,
                                                          "one value per channel of X"));
        }
        HIPDNN_CHECK_FRONTEND_ERROR(detail::requireScalar(name(), "EPSILON", in(InputNames::EPSILON)));
        return inferOutput(OutputNames::Y, x.get_dim(), InputNames::X);
    }

    flatbuffers::Offset<Schema> packAttributes(flatbuffers::FlatBufferBuilder& b, const UidMap& uids) const {
        auto offset = fbs::CreateBatchnormInferenceAttributesVarianceExt(
            b, detail::uidOf(uids, in(InputNames::X)), detail::uidOf(uids, in(InputNames::MEAN)),
            detail::uidOf(uids, in(InputNames::VARIANCE)), detail::uidOf(uids, in(InputNames::SCALE)),
            detail::uidOf(uids, in(InputNames::BIAS)), detail::uidOf(uids, out(OutputNames::Y)),
            detail::uidOf(uids, in(InputNames::EPSILON)));
        return offset;
    }

    static BatchnormInferenceVarianceAttributes unpack(
        const fbs::BatchnormInferenceAttributesVarianceExt& source, const detail::TensorLookup& tensors) {
        BatchnormInferenceVarianceAttributes result;
        result.inputs[InputNames::X] = tensors(source.x_tensor_uid());
        result.inputs[InputNames::MEAN] = tensors(source.mean_tensor_uid());
        result.inputs[InputNames::VARIANCE] = tensors(source.variance_tensor_uid());
        result.inputs[InputNames::SCALE] = tensors(source.scale_tensor_uid());
        result.inputs[InputNames::BIAS] = tensors(source.bias_tensor_uid());
        result.inputs[InputNames::EPSILON] = tensors(source.epsilon_tensor_uid());
        result.outputs[OutputNames::Y] = tensors(source.y_tensor_uid());
        return result;
    }
};

}  // namespace hipdnn_frontend::graph
