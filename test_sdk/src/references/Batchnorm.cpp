#include <hipdnn_test_sdk/references/Batchnorm.hpp>

#include "Common.hpp"

#include <cmath>
#include <numeric>

namespace hipdnn_test_sdk::references {
namespace {

using detail::require;
using detail::toString;

// (N, C, spatial...) -> (C, N, spatial...): a channel's elements are one contiguous range of
// the iteration space.
template <class T>
TensorView<T> channelFirst(const TensorView<T>& view) {
    std::vector<int64_t> order(view.dims.size());
    std::iota(order.begin(), order.end(), 0);
    std::swap(order[0], order[1]);
    return detail::permuted(view, order);
}

template <class T>
void checkActivation(const TensorView<T>& view, const std::vector<int64_t>& expectedDims,
                     const std::string& name) {
    detail::checkView(view, name);
    require(view.dims == expectedDims,
            name + " dims " + toString(view.dims) + " differ from x's " + toString(expectedDims));
}

template <class P>
void checkPerChannel(const TensorView<P>& view, int64_t channels, const std::string& name) {
    detail::checkView(view, name);
    bool valid = view.dims.size() >= 2 && view.dims[1] == channels;
    for (size_t d = 0; d < view.dims.size() && valid; ++d) {
        valid = d == 1 || view.dims[d] == 1;
    }
    require(valid,
            name + " dims " + toString(view.dims) + " must be (1, " + std::to_string(channels) + ", 1, ...)");
}

template <class C, class P>
std::vector<C> loadPerChannel(const TensorView<const P>& view, int64_t channels) {
    std::vector<C> values(static_cast<size_t>(channels));
    for (int64_t c = 0; c < channels; ++c) {
        values[static_cast<size_t>(c)] = detail::load<C>(view.data[detail::channelOffset(view.strides, c)]);
    }
    return values;
}

template <class P, class C>
void storePerChannel(const std::vector<C>& values, const TensorView<P>& view) {
    for (size_t c = 0; c < values.size(); ++c) {
        view.data[detail::channelOffset(view.strides, static_cast<int64_t>(c))] = detail::store<P>(values[c]);
    }
}

int64_t elementsPerChannel(const std::vector<int64_t>& dims) {
    return dims[1] == 0 ? 0 : elementCount(dims) / dims[1];
}

// y = x * factor[c] + offset[c], the affine form every batch norm forward reduces to.
template <class T, class C>
void applyPerChannelAffine(const TensorView<const T>& x, const TensorView<T>& y, const std::vector<C>& factor,
                           const std::vector<C>& offset) {
    const TensorView<const T> xByChannel = channelFirst(x);
    const TensorView<T> yByChannel = channelFirst(y);
    parallelFor(x.elementCount(), [&](int64_t begin, int64_t end) {
        detail::forEachOffset<2>(
            xByChannel.dims, {&xByChannel.strides, &yByChannel.strides}, begin, end,
            [&](int64_t, const std::array<int64_t, 2>& offsets, const std::vector<int64_t>& coord) {
                const auto c = static_cast<size_t>(coord[0]);
                yByChannel.data[offsets[1]] =
                    detail::store<T>(detail::load<C>(xByChannel.data[offsets[0]]) * factor[c] + offset[c]);
            });
    });
}

// Calls fn(xOffset) for every element of channel c of a channel-first view.
template <class T, class Fn>
void forEachInChannel(const TensorView<T>& byChannel, int64_t c, int64_t perChannel, Fn&& fn) {
    detail::forEachOffset<1>(
        byChannel.dims, {&byChannel.strides}, c * perChannel, (c + 1) * perChannel,
        [&](int64_t, const std::array<int64_t, 1>& offset, const auto&) { fn(offset[0]); });
}

// Two-pass batch mean and biased variance per channel.
template <class T, class C>
void channelStatistics(const TensorView<const T>& x, std::vector<C>& mean, std::vector<C>& variance) {
    const int64_t channels = x.dims[1];
    const int64_t perChannel = elementsPerChannel(x.dims);
    const TensorView<const T> byChannel = channelFirst(x);
    mean.assign(static_cast<size_t>(channels), C(0));
    variance.assign(static_cast<size_t>(channels), C(0));
    parallelFor(channels, [&](int64_t begin, int64_t end) {
        for (int64_t c = begin; c < end; ++c) {
            C sum = 0;
            forEachInChannel(byChannel, c, perChannel,
                             [&](int64_t offset) { sum += detail::load<C>(byChannel.data[offset]); });
            const C channelMean = sum / static_cast<C>(perChannel);
            C squares = 0;
            forEachInChannel(byChannel, c, perChannel, [&](int64_t offset) {
                const C centered = detail::load<C>(byChannel.data[offset]) - channelMean;
                squares += centered * centered;
            });
            mean[static_cast<size_t>(c)] = channelMean;
            variance[static_cast<size_t>(c)] = squares / static_cast<C>(perChannel);
        }
    });
}

void requireStatisticsCount(int64_t perChannel) {
    require(perChannel > 0, "batchnorm: x has no elements per channel to take statistics over");
}

// Shared by both inference forms: y = scale * (x - mean) * invStd + bias, with the statistics
// already in the compute type.
template <class T, class P, class C>
void normalizeWithStatistics(const TensorView<const T>& x, const std::vector<C>& meanValues,
                             const std::vector<C>& invStd, const TensorView<const P>& scale,
                             const TensorView<const P>& bias, const TensorView<T>& y) {
    const int64_t channels = x.dims[1];
    checkActivation(y, x.dims, "batchnorm y");
    checkPerChannel(scale, channels, "batchnorm scale");
    checkPerChannel(bias, channels, "batchnorm bias");
    const auto scaleValues = loadPerChannel<C>(scale, channels);
    const auto biasValues = loadPerChannel<C>(bias, channels);
    std::vector<C> factor(static_cast<size_t>(channels));
    std::vector<C> offset(static_cast<size_t>(channels));
    for (size_t c = 0; c < factor.size(); ++c) {
        factor[c] = scaleValues[c] * invStd[c];
        offset[c] = biasValues[c] - meanValues[c] * factor[c];
    }
    applyPerChannelAffine(x, y, factor, offset);
}

}  // namespace

template <class T, class P, class C>
void batchnormInference(const TensorView<const T>& x, const TensorView<const P>& mean,
                        const TensorView<const P>& invVariance, const TensorView<const P>& scale,
                        const TensorView<const P>& bias, const TensorView<T>& y) {
    detail::checkView(x, "batchnorm x");
    require(x.dims.size() >= 2, "batchnorm: x must be (N, C, ...), got " + toString(x.dims));
    const int64_t channels = x.dims[1];
    checkPerChannel(mean, channels, "batchnorm mean");
    checkPerChannel(invVariance, channels, "batchnorm inv_variance");
    normalizeWithStatistics(x, loadPerChannel<C>(mean, channels), loadPerChannel<C>(invVariance, channels),
                            scale, bias, y);
}

template <class T, class P, class C>
void batchnormInferenceWithVariance(const TensorView<const T>& x, const TensorView<const P>& mean,
                                    const TensorView<const P>& variance, const TensorView<const P>& scale,
                                    const TensorView<const P>& bias, double epsilon, const TensorView<T>& y) {
    detail::checkView(x, "batchnorm x");
    require(x.dims.size() >= 2, "batchnorm: x must be (N, C, ...), got " + toString(x.dims));
    const int64_t channels = x.dims[1];
    checkPerChannel(mean, channels, "batchnorm mean");
    checkPerChannel(variance, channels, "batchnorm variance");
    std::vector<C> invStd = loadPerChannel<C>(variance, channels);
    for (C& value : invStd) {
        value = C(1) / std::sqrt(value + static_cast<C>(epsilon));
    }
    normalizeWithStatistics(x, loadPerChannel<C>(mean, channels), invStd, scale, bias, y);
}

template <class T, class P, class C>
void batchnormTraining(const TensorView<const T>& x, const TensorView<const P>& scale,
                       const TensorView<const P>& bias, double epsilon, const TensorView<T>& y,
                       const std::optional<TensorView<P>>& mean,
                       const std::optional<TensorView<P>>& invVariance,
                       const std::optional<BatchnormRunningStats<P>>& runningStats) {
    detail::checkView(x, "batchnorm x");
    require(x.dims.size() >= 2, "batchnorm: x must be (N, C, ...), got " + toString(x.dims));
    const int64_t channels = x.dims[1];
    const int64_t perChannel = elementsPerChannel(x.dims);
    requireStatisticsCount(perChannel);
    checkActivation(y, x.dims, "batchnorm y");
    checkPerChannel(scale, channels, "batchnorm scale");
    checkPerChannel(bias, channels, "batchnorm bias");
    if (mean) {
        checkPerChannel(*mean, channels, "batchnorm mean");
    }
    if (invVariance) {
        checkPerChannel(*invVariance, channels, "batchnorm inv_variance");
    }
    if (runningStats) {
        checkPerChannel(runningStats->prevMean, channels, "batchnorm prev_running_mean");
        checkPerChannel(runningStats->prevVariance, channels, "batchnorm prev_running_variance");
        checkPerChannel(runningStats->nextMean, channels, "batchnorm next_running_mean");
        checkPerChannel(runningStats->nextVariance, channels, "batchnorm next_running_variance");
    }

    std::vector<C> batchMean;
    std::vector<C> batchVariance;
    channelStatistics(x, batchMean, batchVariance);
    std::vector<C> invStd(static_cast<size_t>(channels));
    for (size_t c = 0; c < invStd.size(); ++c) {
        invStd[c] = C(1) / std::sqrt(batchVariance[c] + static_cast<C>(epsilon));
    }

    normalizeWithStatistics(x, batchMean, invStd, scale, bias, y);

    if (mean) {
        storePerChannel(batchMean, *mean);
    }
    if (invVariance) {
        storePerChannel(invStd, *invVariance);
    }
    if (runningStats) {
        const auto momentum = static_cast<C>(runningStats->momentum);
        const auto prevMean = loadPerChannel<C>(runningStats->prevMean, channels);
        const auto prevVariance = loadPerChannel<C>(runningStats->prevVariance, channels);
        // Bessel's correction; a single element per channel has no spread to correct.
        const C bessel = perChannel > 1 ? static_cast<C>(perChannel) / static_cast<C>(perChannel - 1) : C(1);
        std::vector<C> nextMean(static_cast<size_t>(channels));
        std::vector<C> nextVariance(static_cast<size_t>(channels));
        for (size_t c = 0; c < nextMean.size(); ++c) {
            nextMean[c] = (C(1) - momentum) * prevMean[c] + momentum * batchMean[c];
            nextVariance[c] = (C(1) - momentum) * prevVariance[c] + momentum * batchVariance[c] * bessel;
        }
        storePerChannel(nextMean, runningStats->nextMean);
        storePerChannel(nextVariance, runningStats->nextVariance);
    }
}

template <class T, class P, class C>
void batchnormBackward(const TensorView<const T>& dy, const TensorView<const T>& x,
                       const std::optional<TensorView<const P>>& mean,
                       const std::optional<TensorView<const P>>& invVariance,
                       const TensorView<const P>& scale, std::optional<double> epsilon,
                       const TensorView<T>& dx, const TensorView<P>& dscale, const TensorView<P>& dbias) {
    detail::checkView(x, "batchnorm backward x");
    require(x.dims.size() >= 2, "batchnorm backward: x must be (N, C, ...), got " + toString(x.dims));
    const int64_t channels = x.dims[1];
    const int64_t perChannel = elementsPerChannel(x.dims);
    requireStatisticsCount(perChannel);
    checkActivation(dy, x.dims, "batchnorm backward dy");
    checkActivation(dx, x.dims, "batchnorm backward dx");
    checkPerChannel(scale, channels, "batchnorm backward scale");
    checkPerChannel(dscale, channels, "batchnorm backward dscale");
    checkPerChannel(dbias, channels, "batchnorm backward dbias");
    require(mean.has_value() == invVariance.has_value(),
            "batchnorm backward: give both saved mean and inv_variance or neither");

    std::vector<C> channelMean;
    std::vector<C> invStd;
    if (mean) {
        checkPerChannel(*mean, channels, "batchnorm backward mean");
        checkPerChannel(*invVariance, channels, "batchnorm backward inv_variance");
        channelMean = loadPerChannel<C>(*mean, channels);
        invStd = loadPerChannel<C>(*invVariance, channels);
    } else {
        require(epsilon.has_value(), "batchnorm backward: epsilon is required to recompute the statistics");
        std::vector<C> variance;
        channelStatistics(x, channelMean, variance);
        invStd.resize(variance.size());
        for (size_t c = 0; c < invStd.size(); ++c) {
            invStd[c] = C(1) / std::sqrt(variance[c] + static_cast<C>(*epsilon));
        }
    }
    const auto scaleValues = loadPerChannel<C>(scale, channels);

    const TensorView<const T> xByChannel = channelFirst(x);
    const TensorView<const T> dyByChannel = channelFirst(dy);
    const TensorView<T> dxByChannel = channelFirst(dx);
    std::vector<C> sumDy(static_cast<size_t>(channels));
    std::vector<C> sumDyXhat(static_cast<size_t>(channels));
    parallelFor(channels, [&](int64_t begin, int64_t end) {
        for (int64_t c = begin; c < end; ++c) {
            const auto cu = static_cast<size_t>(c);
            C dySum = 0;
            C dyXhatSum = 0;
            detail::forEachOffset<2>(
                xByChannel.dims, {&xByChannel.strides, &dyByChannel.strides}, c * perChannel,
                (c + 1) * perChannel, [&](int64_t, const std::array<int64_t, 2>& offsets, const auto&) {
                    const C gradient = detail::load<C>(dyByChannel.data[offsets[1]]);
                    const C xhat =
                        (detail::load<C>(xByChannel.data[offsets[0]]) - channelMean[cu]) * invStd[cu];
                    dySum += gradient;
                    dyXhatSum += gradient * xhat;
                });
            sumDy[cu] = dySum;
            sumDyXhat[cu] = dyXhatSum;
        }
    });

    const auto count = static_cast<C>(perChannel);
    parallelFor(x.elementCount(), [&](int64_t begin, int64_t end) {
        detail::forEachOffset<3>(
            xByChannel.dims, {&xByChannel.strides, &dyByChannel.strides, &dxByChannel.strides}, begin, end,
            [&](int64_t, const std::array<int64_t, 3>& offsets, const std::vector<int64_t>& coord) {
                const auto c = static_cast<size_t>(coord[0]);
                const C xhat = (detail::load<C>(xByChannel.data[offsets[0]]) - channelMean[c]) * invStd[c];
                const C gradient = detail::load<C>(dyByChannel.data[offsets[1]]);
                dxByChannel.data[offsets[2]] = detail::store<T>(
                    scaleValues[c] * invStd[c] * (gradient - sumDy[c] / count - xhat * sumDyXhat[c] / count));
            });
    });
    storePerChannel(sumDyXhat, dscale);
    storePerChannel(sumDy, dbias);
}

#define HIPDNN_INSTANTIATE_BATCHNORM(T, P, C)                                                              \
    template void batchnormInference<T, P, C>(const TensorView<const T>&, const TensorView<const P>&,      \
                                              const TensorView<const P>&, const TensorView<const P>&,      \
                                              const TensorView<const P>&, const TensorView<T>&);           \
    template void batchnormInferenceWithVariance<T, P, C>(                                                 \
        const TensorView<const T>&, const TensorView<const P>&, const TensorView<const P>&,                \
        const TensorView<const P>&, const TensorView<const P>&, double, const TensorView<T>&);             \
    template void batchnormTraining<T, P, C>(                                                              \
        const TensorView<const T>&, const TensorView<const P>&, const TensorView<const P>&, double,        \
        const TensorView<T>&, const std::optional<TensorView<P>>&, const std::optional<TensorView<P>>&,    \
        const std::optional<BatchnormRunningStats<P>>&);                                                   \
    template void batchnormBackward<T, P, C>(                                                              \
        const TensorView<const T>&, const TensorView<const T>&, const std::optional<TensorView<const P>>&, \
        const std::optional<TensorView<const P>>&, const TensorView<const P>&, std::optional<double>,      \
        const TensorView<T>&, const TensorView<P>&, const TensorView<P>&);

#define HIPDNN_INSTANTIATE_BATCHNORM_FOR_P(T, C)     \
    HIPDNN_INSTANTIATE_BATCHNORM(T, float, C)        \
    HIPDNN_INSTANTIATE_BATCHNORM(T, detail::half, C) \
    HIPDNN_INSTANTIATE_BATCHNORM(T, detail::bfloat16, C)

HIPDNN_INSTANTIATE_BATCHNORM_FOR_P(float, float)
HIPDNN_INSTANTIATE_BATCHNORM_FOR_P(float, double)
HIPDNN_INSTANTIATE_BATCHNORM_FOR_P(detail::half, float)
HIPDNN_INSTANTIATE_BATCHNORM_FOR_P(detail::half, double)
HIPDNN_INSTANTIATE_BATCHNORM_FOR_P(detail::bfloat16, float)
HIPDNN_INSTANTIATE_BATCHNORM_FOR_P(detail::bfloat16, double)

}  // namespace hipdnn_test_sdk::references
