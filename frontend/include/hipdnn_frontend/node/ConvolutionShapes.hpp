// Shape rules shared by the three convolution nodes: x and y are (N, C, spatial...), w is
// (K, C / groups, kernel...), each output length a SlidingWindow's.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

#include "../attributes/ConvolutionParameters.hpp"
#include "../detail/Validation.hpp"

namespace hipdnn_frontend::detail {

template <typename Parameters>
Error checkConvolutionParameters(std::string_view node, const Parameters& parameters, size_t spatialDims) {
    HIPDNN_CHECK_FRONTEND_ERROR(
        checkSpatialParameter(node, "pre-padding", parameters.get_pre_padding(), spatialDims, 0));
    HIPDNN_CHECK_FRONTEND_ERROR(
        checkSpatialParameter(node, "post-padding", parameters.get_post_padding(), spatialDims, 0));
    HIPDNN_CHECK_FRONTEND_ERROR(
        checkSpatialParameter(node, "stride", parameters.get_stride(), spatialDims, 1));
    HIPDNN_CHECK_FRONTEND_ERROR(
        checkSpatialParameter(node, "dilation", parameters.get_dilation(), spatialDims, 1));
    HIPDNN_RETURN_FRONTEND_ERROR_IF(parameters.get_convolution_mode() == ConvolutionMode::NOT_SET,
                                    ErrorCode::ATTRIBUTE_NOT_SET,
                                    nodePrefix(node) + "convolution mode is not set");
    return {};
}

// The forward output dims (N, K, out...) for input dims x and filter dims w, after checking
// that channels and groups agree and that the dilated kernel fits the padded input.
template <typename Parameters>
Error convolutionOutputDims(std::string_view node, std::string_view xPort, const graph::TensorAttributes& x,
                            std::string_view wPort, const graph::TensorAttributes& w,
                            const Parameters& parameters, std::vector<int64_t>& yDims) {
    HIPDNN_CHECK_FRONTEND_ERROR(requireRank(node, xPort, x, 3));
    HIPDNN_CHECK_FRONTEND_ERROR(requireSameRank(node, xPort, x, wPort, w));
    const auto& xDims = x.get_dim();
    const auto& wDims = w.get_dim();
    const size_t spatialDims = xDims.size() - 2;
    HIPDNN_CHECK_FRONTEND_ERROR(checkConvolutionParameters(node, parameters, spatialDims));

    const int64_t channels = xDims[1];
    const int64_t channelsPerGroup = wDims[1];
    HIPDNN_RETURN_FRONTEND_ERROR_IF(
        channelsPerGroup <= 0 || channels % channelsPerGroup != 0, ErrorCode::INVALID_VALUE,
        nodePrefix(node) + "channels of " + describeTensor(xPort, x) + " (" + std::to_string(channels) +
            ") are not a multiple of the channels of " + describeTensor(wPort, w) + " (" +
            std::to_string(channelsPerGroup) + ")");
    const int64_t groups = channels / channelsPerGroup;
    HIPDNN_RETURN_FRONTEND_ERROR_IF(wDims[0] % groups != 0, ErrorCode::INVALID_VALUE,
                                    nodePrefix(node) + "output channels of " + describeTensor(wPort, w) +
                                        " (" + std::to_string(wDims[0]) +
                                        ") are not a multiple of the group count " + std::to_string(groups));

    yDims = {xDims[0], wDims[0]};
    for (size_t i = 0; i < spatialDims; ++i) {
        const hipdnn_data_sdk::utilities::SlidingWindow window{xDims[i + 2],
                                                               wDims[i + 2],
                                                               parameters.get_pre_padding()[i],
                                                               parameters.get_post_padding()[i],
                                                               parameters.get_stride()[i],
                                                               parameters.get_dilation()[i]};
        const auto length = window.outputLength();
        HIPDNN_RETURN_FRONTEND_ERROR_IF(!length, ErrorCode::INVALID_VALUE,
                                        nodePrefix(node) + "spatial dim " + std::to_string(i) +
                                            ": the dilated kernel (" + std::to_string(window.extent()) +
                                            ") is larger than the padded input (" +
                                            std::to_string(window.paddedInput()) + ")");
        yDims.push_back(*length);
    }
    return {};
}

}  // namespace hipdnn_frontend::detail
