// Forward resampling (max / average pooling).
#pragma once

#include "../attributes/ResampleAttributes.hpp"
#include "../detail/TensorLookup.hpp"
#include "INode.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

namespace hipdnn_frontend::graph {

class ResampleNode : public NodeBase<ResampleNode, ResampleAttributes> {
public:
    static constexpr NodeType kType = NodeType::RESAMPLE;
    using Schema = fbs::ResampleFwdAttributes;
    using NodeBase::NodeBase;

    static std::string_view portName(InputNames) { return "X"; }
    static std::string_view portName(OutputNames port) { return port == OutputNames::Y ? "Y" : "INDEX"; }

    Error inferAndValidateNode() {
        HIPDNN_RETURN_FRONTEND_ERROR_IF(attributes.get_resampling_mode() == ResampleMode::NOT_SET,
                                        ErrorCode::ATTRIBUTE_NOT_SET,
                                        detail::nodePrefix(name()) + "resampling mode is not set");
        HIPDNN_CHECK_FRONTEND_ERROR(requireInput(InputNames::X));
        const auto& x = *in(InputNames::X);
        HIPDNN_CHECK_FRONTEND_ERROR(detail::requireRank(name(), "X", x, 3));
        const auto& xDims = x.get_dim();
        const size_t spatialDims = xDims.size() - 2;
        HIPDNN_CHECK_FRONTEND_ERROR(
            detail::checkSpatialParameter(name(), "window", attributes.get_window(), spatialDims, 1));
        HIPDNN_CHECK_FRONTEND_ERROR(
            detail::checkSpatialParameter(name(), "stride", attributes.get_stride(), spatialDims, 1));
        HIPDNN_CHECK_FRONTEND_ERROR(detail::checkSpatialParameter(
            name(), "pre-padding", attributes.get_pre_padding(), spatialDims, 0));
        HIPDNN_CHECK_FRONTEND_ERROR(detail::checkSpatialParameter(
            name(), "post-padding", attributes.get_post_padding(), spatialDims, 0));
        std::vector<int64_t> yDims = {xDims[0], xDims[1]};
        for (size_t i = 0; i < spatialDims; ++i) {
            const hipdnn_data_sdk::utilities::SlidingWindow window{
                xDims[i + 2], attributes.get_window()[i], attributes.get_pre_padding()[i],
                attributes.get_post_padding()[i], attributes.get_stride()[i]};
            const auto length = window.outputLength();
            HIPDNN_RETURN_FRONTEND_ERROR_IF(!length, ErrorCode::INVALID_VALUE,
                                            detail::nodePrefix(name()) + "spatial dim " + std::to_string(i) +
                                                ": the window (" + std::to_string(window.window) +
                                                ") is larger than the padded input (" +
                                                std::to_string(window.paddedInput()) + ")");
            yDims.push_back(*length);
        }
        HIPDNN_CHECK_FRONTEND_ERROR(inferOutput(OutputNames::Y, yDims, InputNames::X));
        if (attributes.get_generate_index()) {
            HIPDNN_RETURN_FRONTEND_ERROR_IF(
                attributes.get_resampling_mode() != ResampleMode::MAXPOOL, ErrorCode::INVALID_VALUE,
                detail::nodePrefix(name()) + "indices are generated only for MAXPOOL");
            HIPDNN_CHECK_FRONTEND_ERROR(inferOutput(OutputNames::INDEX, yDims, InputNames::X));
        }
        return {};
    }

    flatbuffers::Offset<Schema> packAttributes(flatbuffers::FlatBufferBuilder& b, const UidMap& uids) const {
        auto offset = fbs::CreateResampleFwdAttributes(
            b, detail::uidOf(uids, in(InputNames::X)), detail::uidOf(uids, out(OutputNames::Y)),
            detail::optionalUidOf(uids, out(OutputNames::INDEX)),
            b.CreateVector(attributes.get_pre_padding()), b.CreateVector(attributes.get_post_padding()),
            b.CreateVector(attributes.get_stride()), b.CreateVector(attributes.get_window()),
            detail::toFbs(attributes.get_resampling_mode()), detail::toFbs(attributes.get_padding_mode()),
            attributes.get_generate_index());
        return offset;
    }

    static ResampleAttributes unpack(const Schema& source, const detail::TensorLookup& tensors) {
        ResampleAttributes result;
        result.set_resampling_mode(detail::fromFbs(source.resample_mode()))
            .set_padding_mode(detail::fromFbs(source.padding_mode()))
            .set_pre_padding(detail::toVector(source.pre_padding()))
            .set_post_padding(detail::toVector(source.post_padding()))
            .set_stride(detail::toVector(source.stride()))
            .set_window(detail::toVector(source.window()))
            .set_generate_index(source.generate_index());
        result.inputs[InputNames::X] = tensors(source.x_tensor_uid());
        result.outputs[OutputNames::Y] = tensors(source.y_tensor_uid());
        result.outputs[OutputNames::INDEX] = tensors(source.index_tensor_uid());
        return result;
    }
};

}  // namespace hipdnn_frontend::graph
