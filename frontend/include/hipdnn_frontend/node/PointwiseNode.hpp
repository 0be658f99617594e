// Elementwise operation with one, two or three inputs broadcasting against each other.
#pragma once

#include "../attributes/PointwiseAttributes.hpp"
#include "../detail/TensorLookup.hpp"
#include "INode.hpp"

#include <hipdnn_flatbuffers_sdk/operations/Pointwise.hpp>

namespace hipdnn_frontend::graph {

class PointwiseNode : public NodeBase<PointwiseNode, PointwiseAttributes> {
public:
    static constexpr NodeType kType = NodeType::POINTWISE;
    using Schema = fbs::PointwiseAttributes;
    using NodeBase::NodeBase;

    static std::string_view portName(InputNames port) {
        switch (port) {
            case InputNames::IN_0:
                return "IN_0";
            case InputNames::IN_1:
                return "IN_1";
            case InputNames::IN_2:
                return "IN_2";
        }
        return "?";
    }
    static std::string_view portName(OutputNames) { return "OUT_0"; }

    Error inferAndValidateNode() {
        const PointwiseMode mode = attributes.get_mode();
        const int arity = hipdnn_flatbuffers_sdk::pointwiseInputCount(detail::toFbs(mode));
        HIPDNN_RETURN_FRONTEND_ERROR_IF(arity == 0, ErrorCode::ATTRIBUTE_NOT_SET,
                                        detail::nodePrefix(name()) + "pointwise mode is not set");
        const InputNames ports[] = {InputNames::IN_0, InputNames::IN_1, InputNames::IN_2};
        for (int i = 0; i < 3; ++i) {
            if (i < arity) {
                HIPDNN_CHECK_FRONTEND_ERROR(requireInput(ports[i]));
            } else {
                HIPDNN_RETURN_FRONTEND_ERROR_IF(in(ports[i]) != nullptr, ErrorCode::INVALID_VALUE,
                                                detail::nodePrefix(name()) + "mode " + to_string(mode) +
                                                    " takes " + std::to_string(arity) + " input(s) but " +
                                                    std::string(portName(ports[i])) + " is set");
            }
        }
        HIPDNN_RETURN_FRONTEND_ERROR_IF(mode == PointwiseMode::GEN_INDEX && !attributes.get_axis(),
                                        ErrorCode::ATTRIBUTE_NOT_SET,
                                        detail::nodePrefix(name()) + "GEN_INDEX needs an axis");
        const auto lower = attributes.get_relu_lower_clip();
        const auto upper = attributes.get_relu_upper_clip();
        HIPDNN_RETURN_FRONTEND_ERROR_IF(lower && upper && *lower > *upper, ErrorCode::INVALID_VALUE,
                                        detail::nodePrefix(name()) + "relu lower clip " +
                                            std::to_string(*lower) + " is above the upper clip " +
                                            std::to_string(*upper));

        std::vector<int64_t> outDims = in(InputNames::IN_0)->get_dim();
        for (int i = 0; i < arity; ++i) {
            expandScalar(*in(ports[i]), outDims.size());
            HIPDNN_CHECK_FRONTEND_ERROR(
                detail::broadcastInto(name(), portName(ports[i]), *in(ports[i]), outDims));
        }
        // Strides follow the first input that already has the output's shape.
        InputNames like = InputNames::IN_0;
        for (int i = arity - 1; i >= 0; --i) {
            if (in(ports[i])->get_dim() == outDims) {
                like = ports[i];
            }
        }
        return inferOutput(OutputNames::OUT_0, outDims, like);
    }

    flatbuffers::Offset<Schema> packAttributes(flatbuffers::FlatBufferBuilder& b, const UidMap& uids) const {
        auto optionalFloat = [](std::optional<float> value) {
            return value ? flatbuffers::Optional<float>(*value) : flatbuffers::nullopt;
        };
        const auto axis = attributes.get_axis();
        auto offset = fbs::CreatePointwiseAttributes(
            b, detail::toFbs(attributes.get_mode()), optionalFloat(attributes.get_relu_lower_clip()),
            optionalFloat(attributes.get_relu_upper_clip()),
            optionalFloat(attributes.get_relu_lower_clip_slope()),
            axis ? flatbuffers::Optional<int64_t>(*axis) : flatbuffers::nullopt,
            detail::uidOf(uids, in(InputNames::IN_0)), detail::optionalUidOf(uids, in(InputNames::IN_1)),
            detail::optionalUidOf(uids, in(InputNames::IN_2)), detail::uidOf(uids, out(OutputNames::OUT_0)),
            optionalFloat(attributes.get_swish_beta()), optionalFloat(attributes.get_elu_alpha()),
            optionalFloat(attributes.get_softplus_beta()));
        return offset;
    }

    static PointwiseAttributes unpack(const Schema& source, const detail::TensorLookup& tensors) {
        PointwiseAttributes result;
        result.set_mode(detail::fromFbs(source.operation()));
        if (source.relu_lower_clip())
            result.set_relu_lower_clip(*source.relu_lower_clip());
        if (source.relu_upper_clip())
            result.set_relu_upper_clip(*source.relu_upper_clip());
        if (source.relu_lower_clip_slope())
            result.set_relu_lower_clip_slope(*source.relu_lower_clip_slope());
        if (source.axis_tensor_uid())
            result.set_axis(*source.axis_tensor_uid());
        if (source.swish_beta())
            result.set_swish_beta(*source.swish_beta());
        if (source.elu_alpha())
            result.set_elu_alpha(*source.elu_alpha());
        if (source.softplus_beta())
            result.set_softplus_beta(*source.softplus_beta());
        result.inputs[InputNames::IN_0] = tensors(source.in_0_tensor_uid());
        result.inputs[InputNames::IN_1] = tensors(source.in_1_tensor_uid());
        result.inputs[InputNames::IN_2] = tensors(source.in_2_tensor_uid());
        result.outputs[OutputNames::OUT_0] = tensors(source.out_0_tensor_uid());
        return result;
    }

private:
    // A pass-by-value scalar created with dims [1] takes the rank of the other operands, so that
    // plugins see equal ranks.
    static void expandScalar(TensorAttributes& tensor, size_t rank) {
        if (tensor.get_is_pass_by_value() && tensor.get_volume() == 1 && tensor.get_dim().size() < rank) {
            tensor.set_dim(std::vector<int64_t>(rank, 1));
            tensor.set_stride(std::vector<int64_t>(rank, 1));
        }
    }
};

}  // namespace hipdnn_frontend::graph
