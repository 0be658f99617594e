#include "ConvolutionGemm.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

#include <algorithm>

namespace hipdnn_cuda_kernels {

namespace {

using hipdnn_data_sdk::utilities::formatDims;

bool decline(std::string& reason, std::string why) {
    reason = std::move(why);
    return false;
}

// The distance between consecutive rows of a data tensor (N, C, spatial...) read as a row-major
// matrix of positions x channels: channels at stride 1 and the position dims (spatial innermost,
// N outermost) collapsing into one stride of at least C; nullopt otherwise.
std::optional<int64_t> rowStride(const ConvolutionTensor& tensor) {
    const int64_t channels = tensor.dims[1];
    if (channels > 1 && tensor.strides[1] != 1) {
        return std::nullopt;
    }
    std::vector<size_t> positions;
    for (size_t d = tensor.dims.size() - 1; d >= 2; --d) {
        positions.push_back(d);
    }
    positions.push_back(0);
    std::optional<int64_t> leading;
    int64_t next = 0;
    for (const size_t d : positions) {
        if (tensor.dims[d] == 1) {
            continue;
        }
        if (leading && tensor.strides[d] != next) {
            return std::nullopt;
        }
        leading = leading.value_or(tensor.strides[d]);
        next = tensor.strides[d] * tensor.dims[d];
    }
    const int64_t stride = leading.value_or(channels);
    return stride >= channels ? std::optional(stride) : std::nullopt;
}

// The distance between consecutive output channels of a 1x1 filter (K, C, 1...) read as a
// row-major K x C matrix; nullopt where C is not at stride 1 or rows overlap.
std::optional<int64_t> filterRowStride(const ConvolutionTensor& filter) {
    const int64_t channels = filter.dims[1];
    if (channels > 1 && filter.strides[1] != 1) {
        return std::nullopt;
    }
    const int64_t stride = filter.dims[0] > 1 ? filter.strides[0] : channels;
    return stride >= channels ? std::optional(stride) : std::nullopt;
}

bool allEqual(const std::vector<int64_t>& values, int64_t expected) {
    return std::all_of(values.begin(), values.end(), [&](int64_t value) { return value == expected; });
}

MatmulOperand operand(const ConvolutionTensor& tensor, int64_t rows, int64_t columns, int64_t leading,
                      bool transposed) {
    MatmulOperand result;
    result.uid = tensor.uid;
    result.type = tensor.type;
    result.rows = rows;
    result.columns = columns;
    result.leadingDimension = leading;
    result.transposed = transposed;
    return result;
}

bool isPlainProduct(const ConvolutionProgram& c, std::string& reason) {
    const std::vector<int64_t> filterExtents(c.w.dims.begin() + 2, c.w.dims.end());
    if (!allEqual(filterExtents, 1)) {
        return decline(reason, "the filter's spatial extents are " + formatDims(filterExtents) +
                                   "; only a 1x1 filter is a matrix product");
    }
    if (!allEqual(c.stride, 1) || !allEqual(c.padding, 0)) {
        return decline(reason, "strides " + formatDims(c.stride) + " and padding " + formatDims(c.padding) +
                                   "; only unit strides without padding are a matrix product");
    }
    const std::vector<int64_t> xPositions(c.x.dims.begin() + 2, c.x.dims.end());
    const std::vector<int64_t> yPositions(c.y.dims.begin() + 2, c.y.dims.end());
    if (c.x.dims[0] != c.y.dims[0] || xPositions != yPositions) {
        return decline(reason, "x dims " + formatDims(c.x.dims) + " and y dims " + formatDims(c.y.dims) +
                                   " differ in batch or spatial extents");
    }
    if (c.w.dims[0] != c.y.dims[1] || c.w.dims[1] != c.x.dims[1]) {
        return decline(reason, "w dims " + formatDims(c.w.dims) + " are not (K " +
                                   std::to_string(c.y.dims[1]) + ", C " + std::to_string(c.x.dims[1]) +
                                   "): a grouped convolution is no single matrix product");
    }
    const ElementType operands = c.direction == ConvolutionDirection::Forward ? c.x.type : c.y.type;
    const ElementType output = c.output().type;
    if (output != operands && output != ElementType::Float) {
        return decline(reason,
                       "the output type differs from the operands' and is not FLOAT; cuBLASLt writes "
                       "the operands' type or FLOAT");
    }
    return true;
}

}  // namespace

std::optional<MatmulProgram> convolutionAsMatmul(const ConvolutionProgram& convolution, std::string& reason) {
    if (!isPlainProduct(convolution, reason)) {
        return std::nullopt;
    }
    const auto xRows = rowStride(convolution.x);
    const auto yRows = rowStride(convolution.y);
    const auto wRows = filterRowStride(convolution.w);
    if (!xRows || !yRows || !wRows) {
        const ConvolutionTensor& offending = !xRows ? convolution.x : !yRows ? convolution.y : convolution.w;
        reason = "dims " + formatDims(offending.dims) + " with strides " + formatDims(offending.strides) +
                 " are not rows of channels at one stride (a packed or row-padded channels-last tensor)";
        return std::nullopt;
    }
    int64_t positions = convolution.x.dims[0];
    for (size_t d = 2; d < convolution.x.dims.size(); ++d) {
        positions *= convolution.x.dims[d];
    }
    const int64_t channels = convolution.x.dims[1];
    const int64_t features = convolution.y.dims[1];
    // cuBLASLt is column-major: a row-major P x C matrix is its C x P matrix with leading
    // dimension equal to the row stride, and the product is written as the transpose of the graph's.
    MatmulProgram program;
    switch (convolution.direction) {
        case ConvolutionDirection::Forward:  // Y^T (K x P) = W (K x C) X^T (C x P)
            program.m = features;
            program.n = positions;
            program.k = channels;
            program.a = operand(convolution.w, channels, features, *wRows, true);
            program.b = operand(convolution.x, channels, positions, *xRows, false);
            program.d = operand(convolution.y, features, positions, *yRows, false);
            break;
        case ConvolutionDirection::BackwardData:  // dX^T (C x P) = W^T (C x K) dY^T (K x P)
            program.m = channels;
            program.n = positions;
            program.k = features;
            program.a = operand(convolution.w, channels, features, *wRows, false);
            program.b = operand(convolution.y, features, positions, *yRows, false);
            program.d = operand(convolution.x, channels, positions, *xRows, false);
            break;
        case ConvolutionDirection::BackwardFilter:  // dW^T (C x K) = X^T (C x P) dY (P x K)
            program.m = channels;
            program.n = features;
            program.k = positions;
            program.a = operand(convolution.x, channels, positions, *xRows, false);
            program.b = operand(convolution.y, features, positions, *yRows, true);
            program.d = operand(convolution.w, channels, features, *wRows, false);
            break;
    }
    return program;
}

}  // namespace hipdnn_cuda_kernels
