#include <hipdnn_test_sdk/references/Convolution.hpp>

#include "Common.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

#include <numeric>

namespace hipdnn_test_sdk::references {
namespace {

using detail::require;
using detail::toString;

// Sizes of one convolution problem, validated once for all three directions.
struct ConvGeometry {
    int64_t batch = 0;
    int64_t channels = 0;
    int64_t filters = 0;
    int64_t groups = 0;
    int64_t channelsPerGroup = 0;
    int64_t filtersPerGroup = 0;
    std::vector<int64_t> inSpatial;
    std::vector<int64_t> outSpatial;
    std::vector<int64_t> filterSpatial;
    int64_t inSize = 1;  // product of inSpatial
    int64_t outSize = 1;
    int64_t filterSize = 1;
    std::vector<int64_t> prePadding;
    std::vector<int64_t> stride;
    std::vector<int64_t> dilation;
};

ConvGeometry makeGeometry(const std::vector<int64_t>& xDims, const std::vector<int64_t>& wDims,
                          const std::vector<int64_t>& yDims, const ConvolutionParams& params) {
    const size_t rank = xDims.size();
    require(rank >= 3 && rank <= 5,
            "convolution: x must be (N, C, [D,] H, W) with 1 to 3 spatial dims, got " + toString(xDims));
    require(wDims.size() == rank && yDims.size() == rank, "convolution: x " + toString(xDims) + ", w " +
                                                              toString(wDims) + " and y " + toString(yDims) +
                                                              " must have the same rank");
    const size_t spatialRank = rank - 2;
    require(params.prePadding.size() == spatialRank && params.postPadding.size() == spatialRank &&
                params.stride.size() == spatialRank && params.dilation.size() == spatialRank,
            "convolution: padding, stride and dilation need one entry per spatial dim (" +
                std::to_string(spatialRank) + ")");
    require(params.mode == ConvMode::CONVOLUTION || params.mode == ConvMode::CROSS_CORRELATION,
            "convolution: unknown conv mode " + std::to_string(static_cast<int>(params.mode)));

    ConvGeometry g;
    g.batch = xDims[0];
    g.channels = xDims[1];
    g.filters = wDims[0];
    g.channelsPerGroup = wDims[1];
    require(g.channelsPerGroup > 0 && g.channels % g.channelsPerGroup == 0,
            "convolution: x.C " + std::to_string(g.channels) + " is not a multiple of w.C " +
                std::to_string(g.channelsPerGroup));
    g.groups = g.channels / g.channelsPerGroup;
    require(g.groups > 0 && g.filters % g.groups == 0, "convolution: w.K " + std::to_string(g.filters) +
                                                           " is not a multiple of groups " +
                                                           std::to_string(g.groups));
    g.filtersPerGroup = g.filters / g.groups;
    require(yDims[0] == g.batch && yDims[1] == g.filters,
            "convolution: y " + toString(yDims) + " must be (x.N, w.K, ...) = (" + std::to_string(g.batch) +
                ", " + std::to_string(g.filters) + ", ...)");
    g.prePadding = params.prePadding;
    g.stride = params.stride;
    g.dilation = params.dilation;
    for (size_t d = 0; d < spatialRank; ++d) {
        require(params.stride[d] >= 1 && params.dilation[d] >= 1 && params.prePadding[d] >= 0 &&
                    params.postPadding[d] >= 0,
                "convolution: stride and dilation must be >= 1 and padding >= 0 (spatial dim " +
                    std::to_string(d) + ")");
        const int64_t in = xDims[d + 2];
        const int64_t k = wDims[d + 2];
        const hipdnn_data_sdk::utilities::SlidingWindow window{
            in, k, params.prePadding[d], params.postPadding[d], params.stride[d], params.dilation[d]};
        const auto length = window.outputLength();
        require(k >= 1 && length.has_value(),
                "convolution: filter extent " + std::to_string(window.extent()) + " exceeds padded input " +
                    std::to_string(window.paddedInput()) + " in spatial dim " + std::to_string(d));
        const int64_t expected = *length;
        require(yDims[d + 2] == expected, "convolution: output spatial dim " + std::to_string(d) + " is " +
                                              std::to_string(yDims[d + 2]) + ", expected " +
                                              std::to_string(expected));
        g.inSpatial.push_back(in);
        g.outSpatial.push_back(expected);
        g.filterSpatial.push_back(k);
        g.inSize *= in;
        g.outSize *= expected;
        g.filterSize *= k;
    }
    return g;
}

// The filter read back to front along every spatial dim, so that CONVOLUTION mode is
// cross-correlation with this view.
template <class T>
TensorView<T> spatiallyFlipped(TensorView<T> view) {
    for (size_t d = 2; d < view.dims.size(); ++d) {
        if (view.dims[d] > 0) {
            view.data += (view.dims[d] - 1) * view.strides[d];
        }
        view.strides[d] = -view.strides[d];
    }
    return view;
}

template <class T>
TensorView<T> effectiveFilter(const TensorView<T>& w, ConvMode mode) {
    return mode == ConvMode::CONVOLUTION ? spatiallyFlipped(w) : w;
}

// (N, C, spatial...) -> (N, spatial..., C): channels become the contiguous inner loop.
std::vector<int64_t> channelsLastOrder(size_t rank) {
    std::vector<int64_t> order{0};
    for (size_t d = 2; d < rank; ++d) {
        order.push_back(static_cast<int64_t>(d));
    }
    order.push_back(1);
    return order;
}

// (A, B, spatial...) -> (B, A, spatial...).
std::vector<int64_t> swapFirstTwoOrder(size_t rank) {
    std::vector<int64_t> order(rank);
    std::iota(order.begin(), order.end(), 0);
    std::swap(order[0], order[1]);
    return order;
}

void unravel(int64_t linear, const std::vector<int64_t>& dims, std::vector<int64_t>& coord) {
    for (size_t d = dims.size(); d-- > 0;) {
        coord[d] = linear % dims[d];
        linear /= dims[d];
    }
}

// Contiguous dot product with eight independent partial sums: a single running sum is bound by
// the floating-point add latency, and the split order is no less accurate.
template <class C>
C dotProduct(const C* a, const C* b, int64_t count) {
    constexpr int64_t lanes = 8;
    C partial[lanes] = {};
    int64_t i = 0;
    for (; i + lanes <= count; i += lanes) {
        for (int64_t lane = 0; lane < lanes; ++lane) {
            partial[lane] += a[i + lane] * b[i + lane];
        }
    }
    C sum = 0;
    for (; i < count; ++i) {
        sum += a[i] * b[i];
    }
    for (int64_t lane = 0; lane < lanes; ++lane) {
        sum += partial[lane];
    }
    return sum;
}

// A filter tap that lands inside the input: its flat input position and flat tap index.
struct Tap {
    int64_t inPosition;
    int64_t tap;
};

}  // namespace

template <class T, class C>
void convolutionFprop(const TensorView<const T>& x, const TensorView<const T>& w, const TensorView<T>& y,
                      const ConvolutionParams& params) {
    detail::checkView(x, "convolution fprop x");
    detail::checkView(w, "convolution fprop w");
    detail::checkView(y, "convolution fprop y");
    const ConvGeometry g = makeGeometry(x.dims, w.dims, y.dims, params);
    const size_t rank = x.dims.size();
    const size_t spatialRank = rank - 2;
    // Both operands channels-last in the compute type: the innermost loop is a contiguous dot
    // product over the group's channels.
    const std::vector<C> xPacked = detail::gatherPacked<C>(detail::permuted(x, channelsLastOrder(rank)));
    const std::vector<C> wPacked =
        detail::gatherPacked<C>(detail::permuted(effectiveFilter(w, params.mode), channelsLastOrder(rank)));
    std::vector<C> yPacked(static_cast<size_t>(g.batch * g.outSize * g.filters));

    parallelFor(g.batch * g.outSize, [&](int64_t begin, int64_t end) {
        std::vector<int64_t> outCoord(spatialRank);
        std::vector<int64_t> tapCoord(spatialRank);
        std::vector<Tap> taps;
        taps.reserve(static_cast<size_t>(g.filterSize));
        for (int64_t item = begin; item < end; ++item) {
            const int64_t n = item / g.outSize;
            unravel(item % g.outSize, g.outSpatial, outCoord);
            taps.clear();
            for (int64_t tap = 0; tap < g.filterSize; ++tap) {
                unravel(tap, g.filterSpatial, tapCoord);
                int64_t inPosition = 0;
                bool inside = true;
                for (size_t d = 0; d < spatialRank && inside; ++d) {
                    const int64_t in =
                        outCoord[d] * g.stride[d] + tapCoord[d] * g.dilation[d] - g.prePadding[d];
                    inside = in >= 0 && in < g.inSpatial[d];
                    inPosition = inPosition * g.inSpatial[d] + in;
                }
                if (inside) {
                    taps.push_back({inPosition, tap});
                }
            }
            const C* xBatch = xPacked.data() + n * g.inSize * g.channels;
            C* yOut = yPacked.data() + item * g.filters;
            for (int64_t k = 0; k < g.filters; ++k) {
                const int64_t channelBase = (k / g.filtersPerGroup) * g.channelsPerGroup;
                const C* wFilter = wPacked.data() + k * g.filterSize * g.channelsPerGroup;
                C sum = 0;
                for (const Tap& t : taps) {
                    sum += dotProduct(xBatch + t.inPosition * g.channels + channelBase,
                                      wFilter + t.tap * g.channelsPerGroup, g.channelsPerGroup);
                }
                yOut[k] = sum;
            }
        }
    });
    detail::scatterPacked(yPacked, detail::permuted(y, channelsLastOrder(rank)));
}

template <class T, class C>
void convolutionDgrad(const TensorView<const T>& dy, const TensorView<const T>& w, const TensorView<T>& dx,
                      const ConvolutionParams& params) {
    detail::checkView(dy, "convolution dgrad dy");
    detail::checkView(w, "convolution dgrad w");
    detail::checkView(dx, "convolution dgrad dx");
    const ConvGeometry g = makeGeometry(dx.dims, w.dims, dy.dims, params);
    const size_t rank = dx.dims.size();
    const size_t spatialRank = rank - 2;
    const std::vector<C> dyPacked = detail::gatherPacked<C>(detail::permuted(dy, channelsLastOrder(rank)));
    // w as (G, Kg, Cg, taps...) reordered to (G, Cg, taps..., Kg): the inner loop runs over the
    // group's filters, contiguous in both dy and w.
    const TensorView<const T> filter = effectiveFilter(w, params.mode);
    TensorView<const T> grouped{filter.data, {g.groups, g.filtersPerGroup}, {}};
    grouped.strides = {g.filtersPerGroup * filter.strides[0], filter.strides[0]};
    for (size_t d = 1; d < rank; ++d) {
        grouped.dims.push_back(filter.dims[d]);
        grouped.strides.push_back(filter.strides[d]);
    }
    std::vector<int64_t> order{0, 2};
    for (size_t d = 3; d < rank + 1; ++d) {
        order.push_back(static_cast<int64_t>(d));
    }
    order.push_back(1);
    const std::vector<C> wPacked = detail::gatherPacked<C>(detail::permuted(grouped, order));
    std::vector<C> dxPacked(static_cast<size_t>(g.batch * g.inSize * g.channels));

    parallelFor(g.batch * g.inSize, [&](int64_t begin, int64_t end) {
        std::vector<int64_t> inCoord(spatialRank);
        std::vector<int64_t> tapCoord(spatialRank);
        std::vector<Tap> taps;  // inPosition holds the output position here
        taps.reserve(static_cast<size_t>(g.filterSize));
        for (int64_t item = begin; item < end; ++item) {
            const int64_t n = item / g.inSize;
            unravel(item % g.inSize, g.inSpatial, inCoord);
            taps.clear();
            for (int64_t tap = 0; tap < g.filterSize; ++tap) {
                unravel(tap, g.filterSpatial, tapCoord);
                int64_t outPosition = 0;
                bool inside = true;
                for (size_t d = 0; d < spatialRank && inside; ++d) {
                    // in = out * stride + tap * dilation - pre, solved for out.
                    const int64_t scaled = inCoord[d] + g.prePadding[d] - tapCoord[d] * g.dilation[d];
                    inside =
                        scaled >= 0 && scaled % g.stride[d] == 0 && scaled / g.stride[d] < g.outSpatial[d];
                    outPosition = outPosition * g.outSpatial[d] + scaled / g.stride[d];
                }
                if (inside) {
                    taps.push_back({outPosition, tap});
                }
            }
            const C* dyBatch = dyPacked.data() + n * g.outSize * g.filters;
            C* dxOut = dxPacked.data() + item * g.channels;
            for (int64_t c = 0; c < g.channels; ++c) {
                const int64_t group = c / g.channelsPerGroup;
                const C* wChannel = wPacked.data() + c * g.filterSize * g.filtersPerGroup;
                C sum = 0;
                for (const Tap& t : taps) {
                    sum += dotProduct(dyBatch + t.inPosition * g.filters + group * g.filtersPerGroup,
                                      wChannel + t.tap * g.filtersPerGroup, g.filtersPerGroup);
                }
                dxOut[c] = sum;
            }
        }
    });
    detail::scatterPacked(dxPacked, detail::permuted(dx, channelsLastOrder(rank)));
}

template <class T, class C>
void convolutionWgrad(const TensorView<const T>& x, const TensorView<const T>& dy, const TensorView<T>& dw,
                      const ConvolutionParams& params) {
    detail::checkView(x, "convolution wgrad x");
    detail::checkView(dy, "convolution wgrad dy");
    detail::checkView(dw, "convolution wgrad dw");
    const ConvGeometry g = makeGeometry(x.dims, dw.dims, dy.dims, params);
    const size_t rank = x.dims.size();
    const size_t spatialRank = rank - 2;
    // Channel-major (C, N, spatial...) so that the sum over output positions walks the
    // innermost spatial dim contiguously.
    const std::vector<C> xPacked = detail::gatherPacked<C>(detail::permuted(x, swapFirstTwoOrder(rank)));
    const std::vector<C> dyPacked = detail::gatherPacked<C>(detail::permuted(dy, swapFirstTwoOrder(rank)));
    const int64_t lastDim = static_cast<int64_t>(spatialRank) - 1;
    std::vector<C> dwPacked(static_cast<size_t>(g.filters * g.channelsPerGroup * g.filterSize));

    parallelFor(g.filters * g.channelsPerGroup * g.filterSize, [&](int64_t begin, int64_t end) {
        std::vector<int64_t> tapCoord(spatialRank);
        std::vector<int64_t> low(spatialRank);
        std::vector<int64_t> high(spatialRank);
        std::vector<int64_t> outCoord(spatialRank);
        for (int64_t item = begin; item < end; ++item) {
            const int64_t k = item / (g.channelsPerGroup * g.filterSize);
            const int64_t cInGroup = (item / g.filterSize) % g.channelsPerGroup;
            const int64_t c = (k / g.filtersPerGroup) * g.channelsPerGroup + cInGroup;
            unravel(item % g.filterSize, g.filterSpatial, tapCoord);
            // The outputs whose input position (out * stride + tap * dilation - pre) is inside.
            bool empty = false;
            for (size_t d = 0; d < spatialRank; ++d) {
                const int64_t offset = tapCoord[d] * g.dilation[d] - g.prePadding[d];
                low[d] = offset >= 0 ? 0 : (-offset + g.stride[d] - 1) / g.stride[d];
                const int64_t lastIn = g.inSpatial[d] - 1 - offset;
                high[d] = lastIn < 0 ? 0 : std::min(g.outSpatial[d], lastIn / g.stride[d] + 1);
                empty = empty || low[d] >= high[d];
            }
            C sum = 0;
            if (!empty) {
                const int64_t innerStride = g.stride[static_cast<size_t>(lastDim)];
                for (int64_t n = 0; n < g.batch; ++n) {
                    const C* xImage = xPacked.data() + (c * g.batch + n) * g.inSize;
                    const C* dyImage = dyPacked.data() + (k * g.batch + n) * g.outSize;
                    // Odometer over the outer output dims of the box [low, high).
                    outCoord = low;
                    while (true) {
                        int64_t outBase = 0;
                        int64_t inBase = 0;
                        for (size_t d = 0; d < spatialRank; ++d) {
                            outBase = outBase * g.outSpatial[d] + outCoord[d];
                            inBase = inBase * g.inSpatial[d] + outCoord[d] * g.stride[d] +
                                     tapCoord[d] * g.dilation[d] - g.prePadding[d];
                        }
                        const int64_t count =
                            high[static_cast<size_t>(lastDim)] - low[static_cast<size_t>(lastDim)];
                        for (int64_t o = 0; o < count; ++o) {
                            sum += dyImage[outBase + o] * xImage[inBase + o * innerStride];
                        }
                        int64_t d = lastDim - 1;
                        for (; d >= 0; --d) {
                            const auto du = static_cast<size_t>(d);
                            if (++outCoord[du] < high[du]) {
                                break;
                            }
                            outCoord[du] = low[du];
                        }
                        if (d < 0) {
                            break;
                        }
                    }
                }
            }
            dwPacked[static_cast<size_t>(item)] = sum;
        }
    });
    detail::scatterPacked(dwPacked, effectiveFilter(dw, params.mode));
}

#define HIPDNN_INSTANTIATE_CONVOLUTION(T, C)                                                     \
    template void convolutionFprop<T, C>(const TensorView<const T>&, const TensorView<const T>&, \
                                         const TensorView<T>&, const ConvolutionParams&);        \
    template void convolutionDgrad<T, C>(const TensorView<const T>&, const TensorView<const T>&, \
                                         const TensorView<T>&, const ConvolutionParams&);        \
    template void convolutionWgrad<T, C>(const TensorView<const T>&, const TensorView<const T>&, \
                                         const TensorView<T>&, const ConvolutionParams&);

HIPDNN_INSTANTIATE_CONVOLUTION(float, float)
HIPDNN_INSTANTIATE_CONVOLUTION(float, double)
HIPDNN_INSTANTIATE_CONVOLUTION(detail::half, float)
HIPDNN_INSTANTIATE_CONVOLUTION(detail::half, double)
HIPDNN_INSTANTIATE_CONVOLUTION(detail::bfloat16, float)
HIPDNN_INSTANTIATE_CONVOLUTION(detail::bfloat16, double)

}  // namespace hipdnn_test_sdk::references
