// Checks and shape inference shared by the nodes. Every message names the node, the port, the
// tensor and the offending value, so that a failing validate() says what to fix.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

#include "../Error.hpp"
#include "../attributes/TensorAttributes.hpp"

namespace hipdnn_frontend::detail {

using graph::TensorAttributes;
using hipdnn_data_sdk::utilities::formatDims;

// "'conv::Y' (port Y, uid 7)" — the name, the port, and the uid once one is known.
inline std::string describeTensor(std::string_view port, const TensorAttributes& tensor) {
    std::string text = "'" + tensor.get_name() + "' (port " + std::string(port);
    if (tensor.has_uid()) {
        text += ", uid " + std::to_string(tensor.get_uid());
    }
    return text + ")";
}

inline std::string nodePrefix(std::string_view node) {
    return "node '" + std::string(node) + "': ";
}

inline Error requireTensor(std::string_view node, std::string_view port,
                           const std::shared_ptr<TensorAttributes>& tensor) {
    HIPDNN_RETURN_FRONTEND_ERROR_IF(!tensor, ErrorCode::ATTRIBUTE_NOT_SET,
                                    nodePrefix(node) + "tensor " + std::string(port) + " is not set");
    return {};
}

// The tensor is set and has dims.
inline Error requireDims(std::string_view node, std::string_view port,
                         const std::shared_ptr<TensorAttributes>& tensor) {
    HIPDNN_CHECK_FRONTEND_ERROR(requireTensor(node, port, tensor));
    HIPDNN_RETURN_FRONTEND_ERROR_IF(
        tensor->get_dim().empty(), ErrorCode::ATTRIBUTE_NOT_SET,
        nodePrefix(node) + "dims of tensor " + describeTensor(port, *tensor) + " are not set");
    return {};
}

inline Error requireRank(std::string_view node, std::string_view port, const TensorAttributes& tensor,
                         size_t minimumRank) {
    HIPDNN_RETURN_FRONTEND_ERROR_IF(tensor.get_dim().size() < minimumRank, ErrorCode::INVALID_VALUE,
                                    nodePrefix(node) + "tensor " + describeTensor(port, tensor) +
                                        " has rank " + std::to_string(tensor.get_dim().size()) + " (dims " +
                                        formatDims(tensor.get_dim()) + "); at least " +
                                        std::to_string(minimumRank) + " is required");
    return {};
}

// Layer norm (forward and backward) normalizes every dim but the first; 0 says the same.
inline Error requireEveryDimButFirstNormalized(std::string_view node, int64_t normalizedDimCount,
                                               const TensorAttributes& x) {
    const auto trailing = static_cast<int64_t>(x.get_dim().size()) - 1;
    HIPDNN_RETURN_FRONTEND_ERROR_IF(
        normalizedDimCount != 0 && normalizedDimCount != trailing, ErrorCode::INVALID_VALUE,
        nodePrefix(node) + "normalized_dim_count " + std::to_string(normalizedDimCount) +
            " is not supported: only every dim but the first (" + std::to_string(trailing) +
            ") can be normalized");
    return {};
}

inline Error requireSameRank(std::string_view node, std::string_view portA, const TensorAttributes& a,
                             std::string_view portB, const TensorAttributes& b) {
    HIPDNN_RETURN_FRONTEND_ERROR_IF(a.get_dim().size() != b.get_dim().size(), ErrorCode::INVALID_VALUE,
                                    nodePrefix(node) + "tensor " + describeTensor(portA, a) + " has rank " +
                                        std::to_string(a.get_dim().size()) + " " + formatDims(a.get_dim()) +
                                        " but " + describeTensor(portB, b) + " has rank " +
                                        std::to_string(b.get_dim().size()) + " " + formatDims(b.get_dim()));
    return {};
}

// A per-channel tensor of x: dims (1, C, 1, ...) of x's rank.
inline std::vector<int64_t> perChannelDims(const std::vector<int64_t>& xDims) {
    std::vector<int64_t> dims(xDims.size(), 1);
    if (xDims.size() > 1) {
        dims[1] = xDims[1];
    }
    return dims;
}

// Sets the dims when absent; otherwise they must equal what the node's inputs imply.
inline Error inferOrCheckDims(std::string_view node, std::string_view port, TensorAttributes& tensor,
                              const std::vector<int64_t>& expected) {
    if (tensor.get_dim().empty()) {
        tensor.set_dim(expected);
        return {};
    }
    HIPDNN_RETURN_FRONTEND_ERROR_IF(tensor.get_dim() != expected, ErrorCode::INVALID_VALUE,
                                    nodePrefix(node) + "tensor " + describeTensor(port, tensor) +
                                        " has dims " + formatDims(tensor.get_dim()) +
                                        " but the node's inputs imply " + formatDims(expected));
    return {};
}

// An input whose dims must be exactly `expected` (e.g. a per-channel scale).
inline Error checkDims(std::string_view node, std::string_view port, const TensorAttributes& tensor,
                       const std::vector<int64_t>& expected, std::string_view why) {
    HIPDNN_RETURN_FRONTEND_ERROR_IF(tensor.get_dim() != expected, ErrorCode::INVALID_VALUE,
                                    nodePrefix(node) + "tensor " + describeTensor(port, tensor) +
                                        " has dims " + formatDims(tensor.get_dim()) + "; expected " +
                                        formatDims(expected) + " (" + std::string(why) + ")");
    return {};
}

// Missing strides follow the stride order of `like` (the node's main input), so an NHWC input
// gives NHWC outputs; without a usable reference the strides are packed row-major.
inline void inferStrides(TensorAttributes& tensor, const TensorAttributes* like) {
    if (!tensor.get_stride().empty() || tensor.get_dim().empty()) {
        return;
    }
    const auto& dims = tensor.get_dim();
    for (int64_t dim : dims) {
        if (dim <= 0) {
            return;  // reported by the graph's tensor checks
        }
    }
    if (like != nullptr && like->get_stride().size() == dims.size()) {
        tensor.set_stride(hipdnn_data_sdk::utilities::generatePackedStrides(
            dims, hipdnn_data_sdk::utilities::extractStrideOrder(like->get_stride())));
    } else {
        tensor.set_stride(hipdnn_data_sdk::utilities::packedStrides(dims));
    }
}

// One entry per spatial dim, each at least `minimum`.
inline Error checkSpatialParameter(std::string_view node, std::string_view parameter,
                                   const std::vector<int64_t>& values, size_t spatialDims, int64_t minimum) {
    HIPDNN_RETURN_FRONTEND_ERROR_IF(values.empty(), ErrorCode::ATTRIBUTE_NOT_SET,
                                    nodePrefix(node) + std::string(parameter) + " is not set");
    HIPDNN_RETURN_FRONTEND_ERROR_IF(values.size() != spatialDims, ErrorCode::INVALID_VALUE,
                                    nodePrefix(node) + std::string(parameter) + " " + formatDims(values) +
                                        " has " + std::to_string(values.size()) + " entries; the input has " +
                                        std::to_string(spatialDims) + " spatial dims");
    for (size_t i = 0; i < values.size(); ++i) {
        HIPDNN_RETURN_FRONTEND_ERROR_IF(values[i] < minimum, ErrorCode::INVALID_VALUE,
                                        nodePrefix(node) + std::string(parameter) + " " + formatDims(values) +
                                            " has entry " + std::to_string(values[i]) + " at spatial dim " +
                                            std::to_string(i) + "; the minimum is " +
                                            std::to_string(minimum));
    }
    return {};
}

// Broadcasts `input` against `target` dims (equal rank, each dim equal or 1); the result is the
// larger of each pair. Fails with a message naming both shapes.
inline Error broadcastInto(std::string_view node, std::string_view port, const TensorAttributes& input,
                           std::vector<int64_t>& target) {
    const auto& dims = input.get_dim();
    HIPDNN_RETURN_FRONTEND_ERROR_IF(dims.size() != target.size(), ErrorCode::INVALID_VALUE,
                                    nodePrefix(node) + "cannot broadcast " + describeTensor(port, input) +
                                        " with dims " + formatDims(dims) + " to " + formatDims(target) +
                                        ": ranks differ");
    for (size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] == target[i] || dims[i] == 1) {
            continue;
        }
        HIPDNN_RETURN_FRONTEND_ERROR_IF(target[i] != 1, ErrorCode::INVALID_VALUE,
                                        nodePrefix(node) + "cannot broadcast " + describeTensor(port, input) +
                                            " with dims " + formatDims(dims) + " to " + formatDims(target) +
                                            ": dim " + std::to_string(i) + " is " + std::to_string(dims[i]) +
                                            " against " + std::to_string(target[i]));
        target[i] = dims[i];
    }
    return {};
}

}  // namespace hipdnn_frontend::detail

namespace hipdnn_frontend::detail {

// Epsilon, momentum and similar parameters hold one element.
inline Error requireScalar(std::string_view node, std::string_view port,
                           const std::shared_ptr<TensorAttributes>& tensor) {
    HIPDNN_CHECK_FRONTEND_ERROR(requireDims(node, port, tensor));
    HIPDNN_RETURN_FRONTEND_ERROR_IF(tensor->get_volume() != 1, ErrorCode::INVALID_VALUE,
                                    nodePrefix(node) + "tensor " + describeTensor(port, *tensor) +
                                        " must hold one element; its dims are " +
                                        formatDims(tensor->get_dim()));
    return {};
}

}  // namespace hipdnn_frontend::detail
