#include <hipdnn_test_sdk/references/Pooling.hpp>

#include "Common.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

#include <algorithm>
#include <limits>

namespace hipdnn_test_sdk::references {

template <class T, class Index, class C>
void poolingForward(const PoolingParams& params, const TensorView<const T>& x, const TensorView<T>& y,
                    const std::optional<TensorView<Index>>& index) {
    using detail::require;
    using detail::toString;
    detail::checkView(x, "pooling x");
    detail::checkView(y, "pooling y");
    const size_t rank = x.dims.size();
    require(rank >= 3 && rank <= 5 && y.dims.size() == rank,
            "pooling: x " + toString(x.dims) + " and y " + toString(y.dims) +
                " must be (N, C, [D,] H, W) with 1 to 3 spatial dims");
    require(y.dims[0] == x.dims[0] && y.dims[1] == x.dims[1],
            "pooling: y " + toString(y.dims) + " must keep x's N and C " + toString(x.dims));
    const size_t spatialRank = rank - 2;
    require(params.prePadding.size() == spatialRank && params.postPadding.size() == spatialRank &&
                params.stride.size() == spatialRank && params.window.size() == spatialRank,
            "pooling: padding, stride and window need one entry per spatial dim (" +
                std::to_string(spatialRank) + ")");
    const bool isMax = params.mode == ResampleMode::MAXPOOL;
    require(isMax || params.mode == ResampleMode::AVGPOOL_EXCLUDE_PADDING ||
                params.mode == ResampleMode::AVGPOOL_INCLUDE_PADDING,
            "pooling: unsupported resample mode " + std::to_string(static_cast<int>(params.mode)));
    require(params.paddingMode == PaddingMode::NEG_INF_PAD || params.paddingMode == PaddingMode::ZERO_PAD ||
                params.paddingMode == PaddingMode::EDGE_VAL_PAD,
            "pooling: unknown padding mode " + std::to_string(static_cast<int>(params.paddingMode)));
    require(!index || isMax, "pooling: an index output exists only for max pooling");
    int64_t windowSize = 1;
    for (size_t d = 0; d < spatialRank; ++d) {
        const int64_t window = params.window[d];
        // Padding narrower than the window keeps every window partly inside x.
        require(window >= 1 && params.stride[d] >= 1 && params.prePadding[d] >= 0 &&
                    params.postPadding[d] >= 0 && params.prePadding[d] < window &&
                    params.postPadding[d] < window,
                "pooling: need window, stride >= 1 and 0 <= padding < window (spatial dim " +
                    std::to_string(d) + ")");
        const int64_t expected =
            hipdnn_data_sdk::utilities::SlidingWindow{x.dims[d + 2], window, params.prePadding[d],
                                                      params.postPadding[d], params.stride[d]}
                .outputLength()
                .value_or(0);
        require(y.dims[d + 2] == expected, "pooling: output spatial dim " + std::to_string(d) + " is " +
                                               std::to_string(y.dims[d + 2]) + ", expected " +
                                               std::to_string(expected));
        windowSize *= window;
    }
    if (index) {
        detail::checkView(*index, "pooling index");
        require(index->dims == y.dims,
                "pooling: index dims " + toString(index->dims) + " differ from y's " + toString(y.dims));
        require(
            windowSize - 1 <= static_cast<int64_t>(std::numeric_limits<Index>::max()),
            "pooling: window of " + std::to_string(windowSize) + " positions does not fit the index type");
    }
    const std::vector<int64_t> noStrides(rank, 0);
    const std::vector<int64_t>& indexStrides = index ? index->strides : noStrides;

    parallelFor(y.elementCount(), [&](int64_t begin, int64_t end) {
        std::vector<int64_t> windowCoord(spatialRank);
        detail::forEachOffset<2>(
            y.dims, {&y.strides, &indexStrides}, begin, end,
            [&](int64_t, const std::array<int64_t, 2>& offsets, const std::vector<int64_t>& coord) {
                const T* xImage = x.data + coord[0] * x.strides[0] + coord[1] * x.strides[1];
                C best = -std::numeric_limits<C>::infinity();
                int64_t bestPosition = 0;
                C sum = 0;
                int64_t paddedCount = 0;
                int64_t insideCount = 0;
                for (int64_t position = 0; position < windowSize; ++position) {
                    int64_t remaining = position;
                    for (size_t d = spatialRank; d-- > 0;) {
                        windowCoord[d] = remaining % params.window[d];
                        remaining /= params.window[d];
                    }
                    int64_t offset = 0;
                    bool inside = true;
                    bool inPaddedExtent = true;
                    for (size_t d = 0; d < spatialRank; ++d) {
                        const int64_t extent = x.dims[d + 2];
                        int64_t in = coord[d + 2] * params.stride[d] + windowCoord[d] - params.prePadding[d];
                        inPaddedExtent = inPaddedExtent && in < extent + params.postPadding[d];
                        if (in < 0 || in >= extent) {
                            inside = false;
                            in = std::clamp<int64_t>(in, 0, extent - 1);
                        }
                        offset += in * x.strides[d + 2];
                    }
                    if (isMax) {
                        C value;
                        if (inside || params.paddingMode == PaddingMode::EDGE_VAL_PAD) {
                            value = detail::load<C>(xImage[offset]);
                        } else if (params.paddingMode == PaddingMode::ZERO_PAD) {
                            value = C(0);
                        } else {
                            continue;
                        }
                        if (value > best) {
                            best = value;
                            bestPosition = position;
                        }
                    } else {
                        paddedCount += inPaddedExtent ? 1 : 0;
                        if (inside) {
                            sum += detail::load<C>(xImage[offset]);
                            ++insideCount;
                        }
                    }
                }
                if (isMax) {
                    y.data[offsets[0]] = detail::store<T>(best);
                    if (index) {
                        index->data[offsets[1]] = static_cast<Index>(bestPosition);
                    }
                } else {
                    const int64_t divisor =
                        params.mode == ResampleMode::AVGPOOL_INCLUDE_PADDING ? paddedCount : insideCount;
                    y.data[offsets[0]] = detail::store<T>(sum / static_cast<C>(divisor));
                }
            });
    });
}

#define HIPDNN_INSTANTIATE_POOLING(T, Index, C)                                                 \
    template void poolingForward<T, Index, C>(const PoolingParams&, const TensorView<const T>&, \
                                              const TensorView<T>&,                             \
                                              const std::optional<TensorView<Index>>&);

#define HIPDNN_INSTANTIATE_POOLING_FOR_INDEX(T, C) \
    HIPDNN_INSTANTIATE_POOLING(T, int8_t, C)       \
    HIPDNN_INSTANTIATE_POOLING(T, int32_t, C)      \
    HIPDNN_INSTANTIATE_POOLING(T, int64_t, C)

HIPDNN_INSTANTIATE_POOLING_FOR_INDEX(float, float)
HIPDNN_INSTANTIATE_POOLING_FOR_INDEX(float, double)
HIPDNN_INSTANTIATE_POOLING_FOR_INDEX(detail::half, float)
HIPDNN_INSTANTIATE_POOLING_FOR_INDEX(detail::half, double)
HIPDNN_INSTANTIATE_POOLING_FOR_INDEX(detail::bfloat16, float)
HIPDNN_INSTANTIATE_POOLING_FOR_INDEX(detail::bfloat16, double)

}  // namespace hipdnn_test_sdk::references
