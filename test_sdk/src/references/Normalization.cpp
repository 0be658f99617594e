#include <hipdnn_test_sdk/references/Normalization.hpp>

#include "Common.hpp"

#include <cmath>

namespace hipdnn_test_sdk::references {
namespace {

using detail::require;
using detail::toString;

// The dims of one row (everything but dim 0) and the strides that walk them.
template <class T>
std::vector<int64_t> rowStrides(const TensorView<T>& view) {
    return {view.strides.begin() + 1, view.strides.end()};
}

std::vector<int64_t> rowDims(const std::vector<int64_t>& dims) {
    return {dims.begin() + 1, dims.end()};
}

// Strides reading a (1, ...) affine parameter at each index of a row of x: a dim of 1 repeats.
template <class P>
std::vector<int64_t> affineRowStrides(const TensorView<P>& view, const std::vector<int64_t>& xDims,
                                      const std::string& name) {
    detail::checkView(view, name);
    bool valid = view.dims.size() == xDims.size() && view.dims[0] == 1;
    std::vector<int64_t> strides;
    for (size_t d = 1; d < xDims.size() && valid; ++d) {
        valid = view.dims[d] == xDims[d] || view.dims[d] == 1;
        strides.push_back(view.dims[d] == 1 ? 0 : view.strides[d]);
    }
    require(valid, name + " dims " + toString(view.dims) + " must be (1, ...) matching x " + toString(xDims) +
                       " or 1");
    return strides;
}

template <class P>
void checkStatistics(const TensorView<P>& view, int64_t rows, size_t rank, const std::string& name) {
    detail::checkView(view, name);
    bool valid = view.dims.size() == rank && view.dims[0] == rows;
    for (size_t d = 1; d < view.dims.size() && valid; ++d) {
        valid = view.dims[d] == 1;
    }
    require(valid, name + " dims " + toString(view.dims) + " must be (" + std::to_string(rows) + ", 1, ...)");
}

template <class T>
void checkLikeX(const TensorView<T>& view, const std::vector<int64_t>& xDims, const std::string& name) {
    detail::checkView(view, name);
    require(view.dims == xDims,
            name + " dims " + toString(view.dims) + " differ from x's " + toString(xDims));
}

void checkX(const std::vector<int64_t>& dims, const std::string& op) {
    require(dims.size() >= 2, op + ": x must be (N, ...) with rank >= 2, got " + toString(dims));
    require(elementCount(dims) > 0, op + ": x has no elements");
}

// Sums a packed row-major (rows, rowDims...) buffer into a (1, ...) parameter gradient whose
// dims of 1 absorb the matching dims of the rows.
template <class P, class C>
void reduceRowsInto(const std::vector<C>& packed, const std::vector<int64_t>& xDims,
                    const TensorView<P>& target, const std::string& name) {
    const std::vector<int64_t> targetStrides = affineRowStrides(target, xDims, name);
    const std::vector<int64_t> packedXStrides = packedStrides(xDims);
    std::vector<int64_t> keptDims;
    std::vector<int64_t> keptPackedStrides;
    std::vector<int64_t> keptTargetStrides;
    std::vector<int64_t> summedDims{xDims[0]};
    std::vector<int64_t> summedStrides{packedXStrides[0]};
    for (size_t d = 1; d < xDims.size(); ++d) {
        if (target.dims[d] == 1) {
            summedDims.push_back(xDims[d]);
            summedStrides.push_back(packedXStrides[d]);
        } else {
            keptDims.push_back(xDims[d]);
            keptPackedStrides.push_back(packedXStrides[d]);
            keptTargetStrides.push_back(targetStrides[d - 1]);
        }
    }
    const int64_t summedCount = elementCount(summedDims);
    parallelFor(elementCount(keptDims), [&](int64_t begin, int64_t end) {
        detail::forEachOffset<2>(keptDims, {&keptPackedStrides, &keptTargetStrides}, begin, end,
                                 [&](int64_t, const std::array<int64_t, 2>& offsets, const auto&) {
                                     C sum = 0;
                                     detail::forEachOffset<1>(
                                         summedDims, {&summedStrides}, 0, summedCount,
                                         [&](int64_t, const std::array<int64_t, 1>& inner, const auto&) {
                                             sum += packed[static_cast<size_t>(offsets[0] + inner[0])];
                                         });
                                     target.data[offsets[1]] = detail::store<P>(sum);
                                 });
    });
}

}  // namespace

template <class T, class P, class C>
void layernormForward(const TensorView<const T>& x, const TensorView<const P>& scale,
                      const TensorView<const P>& bias, double epsilon, const TensorView<T>& y,
                      const std::optional<TensorView<P>>& mean,
                      const std::optional<TensorView<P>>& invVariance) {
    detail::checkView(x, "layernorm x");
    checkX(x.dims, "layernorm");
    checkLikeX(y, x.dims, "layernorm y");
    require(mean.has_value() == invVariance.has_value(),
            "layernorm: give both mean and inv_variance (training) or neither (inference)");
    const int64_t rows = x.dims[0];
    if (mean) {
        checkStatistics(*mean, rows, x.dims.size(), "layernorm mean");
        checkStatistics(*invVariance, rows, x.dims.size(), "layernorm inv_variance");
    }
    const std::vector<int64_t> dims = rowDims(x.dims);
    const std::vector<int64_t> xStrides = rowStrides(x);
    const std::vector<int64_t> yStrides = rowStrides(y);
    const std::vector<int64_t> scaleStrides = affineRowStrides(scale, x.dims, "layernorm scale");
    const std::vector<int64_t> biasStrides = affineRowStrides(bias, x.dims, "layernorm bias");
    const int64_t rowSize = elementCount(dims);

    parallelFor(rows, [&](int64_t begin, int64_t end) {
        for (int64_t n = begin; n < end; ++n) {
            const T* xRow = x.data + n * x.strides[0];
            T* yRow = y.data + n * y.strides[0];
            C sum = 0;
            detail::forEachOffset<1>(dims, {&xStrides}, 0, rowSize, [&](int64_t, const auto& o, const auto&) {
                sum += detail::load<C>(xRow[o[0]]);
            });
            const C rowMean = sum / static_cast<C>(rowSize);
            C squares = 0;
            detail::forEachOffset<1>(dims, {&xStrides}, 0, rowSize, [&](int64_t, const auto& o, const auto&) {
                const C centered = detail::load<C>(xRow[o[0]]) - rowMean;
                squares += centered * centered;
            });
            const C invStd = C(1) / std::sqrt(squares / static_cast<C>(rowSize) + static_cast<C>(epsilon));
            detail::forEachOffset<4>(
                dims, {&xStrides, &yStrides, &scaleStrides, &biasStrides}, 0, rowSize,
                [&](int64_t, const std::array<int64_t, 4>& o, const auto&) {
                    const C normalized = (detail::load<C>(xRow[o[0]]) - rowMean) * invStd;
                    yRow[o[1]] = detail::store<T>(normalized * detail::load<C>(scale.data[o[2]]) +
                                                  detail::load<C>(bias.data[o[3]]));
                });
            if (mean) {
                mean->data[n * mean->strides[0]] = detail::store<P>(rowMean);
                invVariance->data[n * invVariance->strides[0]] = detail::store<P>(invStd);
            }
        }
    });
}

template <class T, class P, class C>
void rmsnormForward(const TensorView<const T>& x, const TensorView<const P>& scale,
                    const std::optional<TensorView<const P>>& bias, double epsilon, const TensorView<T>& y,
                    const std::optional<TensorView<P>>& invRms) {
    detail::checkView(x, "rmsnorm x");
    checkX(x.dims, "rmsnorm");
    checkLikeX(y, x.dims, "rmsnorm y");
    const int64_t rows = x.dims[0];
    if (invRms) {
        checkStatistics(*invRms, rows, x.dims.size(), "rmsnorm inv_rms");
    }
    const std::vector<int64_t> dims = rowDims(x.dims);
    const std::vector<int64_t> xStrides = rowStrides(x);
    const std::vector<int64_t> yStrides = rowStrides(y);
    const std::vector<int64_t> scaleStrides = affineRowStrides(scale, x.dims, "rmsnorm scale");
    const std::vector<int64_t> biasStrides =
        bias ? affineRowStrides(*bias, x.dims, "rmsnorm bias") : std::vector<int64_t>(dims.size(), 0);
    const int64_t rowSize = elementCount(dims);

    parallelFor(rows, [&](int64_t begin, int64_t end) {
        for (int64_t n = begin; n < end; ++n) {
            const T* xRow = x.data + n * x.strides[0];
            T* yRow = y.data + n * y.strides[0];
            C squares = 0;
            detail::forEachOffset<1>(dims, {&xStrides}, 0, rowSize, [&](int64_t, const auto& o, const auto&) {
                const C value = detail::load<C>(xRow[o[0]]);
                squares += value * value;
            });
            const C rowInvRms = C(1) / std::sqrt(squares / static_cast<C>(rowSize) + static_cast<C>(epsilon));
            detail::forEachOffset<4>(dims, {&xStrides, &yStrides, &scaleStrides, &biasStrides}, 0, rowSize,
                                     [&](int64_t, const std::array<int64_t, 4>& o, const auto&) {
                                         C value = detail::load<C>(xRow[o[0]]) * rowInvRms *
                                                   detail::load<C>(scale.data[o[2]]);
                                         if (bias) {
                                             value += detail::load<C>(bias->data[o[3]]);
                                         }
                                         yRow[o[1]] = detail::store<T>(value);
                                     });
            if (invRms) {
                invRms->data[n * invRms->strides[0]] = detail::store<P>(rowInvRms);
            }
        }
    });
}

template <class T, class P, class C>
void rmsnormBackward(const TensorView<const T>& dy, const TensorView<const T>& x,
                     const TensorView<const P>& scale, const TensorView<const P>& invRms,
                     const TensorView<T>& dx, const TensorView<P>& dscale,
                     const std::optional<TensorView<P>>& dbias) {
    detail::checkView(x, "rmsnorm backward x");
    checkX(x.dims, "rmsnorm backward");
    checkLikeX(dy, x.dims, "rmsnorm backward dy");
    checkLikeX(dx, x.dims, "rmsnorm backward dx");
    const int64_t rows = x.dims[0];
    checkStatistics(invRms, rows, x.dims.size(), "rmsnorm backward inv_rms");
    const std::vector<int64_t> dims = rowDims(x.dims);
    const std::vector<int64_t> xStrides = rowStrides(x);
    const std::vector<int64_t> dyStrides = rowStrides(dy);
    const std::vector<int64_t> dxStrides = rowStrides(dx);
    const std::vector<int64_t> scaleStrides = affineRowStrides(scale, x.dims, "rmsnorm backward scale");
    const int64_t rowSize = elementCount(dims);
    // Per-element terms of the parameter gradients, packed row-major over x's dims, reduced to
    // dscale's and dbias's dims afterwards.
    std::vector<C> dscaleTerms(static_cast<size_t>(rows * rowSize));
    std::vector<C> dbiasTerms(dbias ? dscaleTerms.size() : 0);

    parallelFor(rows, [&](int64_t begin, int64_t end) {
        for (int64_t n = begin; n < end; ++n) {
            const T* xRow = x.data + n * x.strides[0];
            const T* dyRow = dy.data + n * dy.strides[0];
            T* dxRow = dx.data + n * dx.strides[0];
            const C r = detail::load<C>(invRms.data[n * invRms.strides[0]]);
            C projection = 0;  // sum of dy * scale * x over the row
            detail::forEachOffset<3>(dims, {&xStrides, &dyStrides, &scaleStrides}, 0, rowSize,
                                     [&](int64_t, const std::array<int64_t, 3>& o, const auto&) {
                                         projection += detail::load<C>(dyRow[o[1]]) *
                                                       detail::load<C>(scale.data[o[2]]) *
                                                       detail::load<C>(xRow[o[0]]);
                                     });
            const C correction = r * r * projection / static_cast<C>(rowSize);
            detail::forEachOffset<4>(
                dims, {&xStrides, &dyStrides, &scaleStrides, &dxStrides}, 0, rowSize,
                [&](int64_t linear, const std::array<int64_t, 4>& o, const auto&) {
                    const C xValue = detail::load<C>(xRow[o[0]]);
                    const C gradient = detail::load<C>(dyRow[o[1]]);
                    const C scaleValue = detail::load<C>(scale.data[o[2]]);
                    dxRow[o[3]] = detail::store<T>(r * (gradient * scaleValue - xValue * correction));
                    const auto packedIndex = static_cast<size_t>(n * rowSize + linear);
                    dscaleTerms[packedIndex] = gradient * xValue * r;
                    if (dbias) {
                        dbiasTerms[packedIndex] = gradient;
                    }
                });
        }
    });
    reduceRowsInto(dscaleTerms, x.dims, dscale, "rmsnorm backward dscale");
    if (dbias) {
        reduceRowsInto(dbiasTerms, x.dims, *dbias, "rmsnorm backward dbias");
    }
}

template <class T, class P, class C>
void layernormBackward(const TensorView<const T>& dy, const TensorView<const T>& x,
                       const TensorView<const P>& scale, const TensorView<const P>& mean,
                       const TensorView<const P>& invVariance, const TensorView<T>& dx,
                       const TensorView<P>& dscale, const TensorView<P>& dbias) {
    detail::checkView(x, "layernorm backward x");
    checkX(x.dims, "layernorm backward");
    checkLikeX(dy, x.dims, "layernorm backward dy");
    checkLikeX(dx, x.dims, "layernorm backward dx");
    const int64_t rows = x.dims[0];
    checkStatistics(mean, rows, x.dims.size(), "layernorm backward mean");
    checkStatistics(invVariance, rows, x.dims.size(), "layernorm backward inv_variance");
    const std::vector<int64_t> dims = rowDims(x.dims);
    const std::vector<int64_t> xStrides = rowStrides(x);
    const std::vector<int64_t> dyStrides = rowStrides(dy);
    const std::vector<int64_t> dxStrides = rowStrides(dx);
    const std::vector<int64_t> scaleStrides = affineRowStrides(scale, x.dims, "layernorm backward scale");
    const int64_t rowSize = elementCount(dims);
    // Per-element terms of the parameter gradients, packed row-major over x's dims, reduced to
    // dscale's and dbias's dims afterwards.
    std::vector<C> dscaleTerms(static_cast<size_t>(rows * rowSize));
    std::vector<C> dbiasTerms(dscaleTerms.size());

    parallelFor(rows, [&](int64_t begin, int64_t end) {
        for (int64_t n = begin; n < end; ++n) {
            const T* xRow = x.data + n * x.strides[0];
            const T* dyRow = dy.data + n * dy.strides[0];
            T* dxRow = dx.data + n * dx.strides[0];
            const C rowMean = detail::load<C>(mean.data[n * mean.strides[0]]);
            const C r = detail::load<C>(invVariance.data[n * invVariance.strides[0]]);
            C gradientSum = 0;    // sum of dy * scale over the row
            C projectionSum = 0;  // sum of dy * scale * xhat over the row
            detail::forEachOffset<3>(dims, {&xStrides, &dyStrides, &scaleStrides}, 0, rowSize,
                                     [&](int64_t, const std::array<int64_t, 3>& o, const auto&) {
                                         const C g =
                                             detail::load<C>(dyRow[o[1]]) * detail::load<C>(scale.data[o[2]]);
                                         gradientSum += g;
                                         projectionSum += g * (detail::load<C>(xRow[o[0]]) - rowMean) * r;
                                     });
            const C gradientMean = gradientSum / static_cast<C>(rowSize);
            const C projectionMean = projectionSum / static_cast<C>(rowSize);
            detail::forEachOffset<4>(dims, {&xStrides, &dyStrides, &scaleStrides, &dxStrides}, 0, rowSize,
                                     [&](int64_t linear, const std::array<int64_t, 4>& o, const auto&) {
                                         const C xhat = (detail::load<C>(xRow[o[0]]) - rowMean) * r;
                                         const C gradient = detail::load<C>(dyRow[o[1]]);
                                         const C g = gradient * detail::load<C>(scale.data[o[2]]);
                                         dxRow[o[3]] =
                                             detail::store<T>(r * (g - gradientMean - xhat * projectionMean));
                                         const auto packedIndex = static_cast<size_t>(n * rowSize + linear);
                                         dscaleTerms[packedIndex] = gradient * xhat;
                                         dbiasTerms[packedIndex] = gradient;
                                     });
        }
    });
    reduceRowsInto(dscaleTerms, x.dims, dscale, "layernorm backward dscale");
    reduceRowsInto(dbiasTerms, x.dims, dbias, "layernorm backward dbias");
}

#define HIPDNN_INSTANTIATE_NORMALIZATION(T, P, C)                                                        \
    template void layernormForward<T, P, C>(                                                             \
        const TensorView<const T>&, const TensorView<const P>&, const TensorView<const P>&, double,      \
        const TensorView<T>&, const std::optional<TensorView<P>>&, const std::optional<TensorView<P>>&); \
    template void rmsnormForward<T, P, C>(const TensorView<const T>&, const TensorView<const P>&,        \
                                          const std::optional<TensorView<const P>>&, double,             \
                                          const TensorView<T>&, const std::optional<TensorView<P>>&);    \
    template void rmsnormBackward<T, P, C>(const TensorView<const T>&, const TensorView<const T>&,       \
                                           const TensorView<const P>&, const TensorView<const P>&,       \
                                           const TensorView<T>&, const TensorView<P>&,                   \
                                           const std::optional<TensorView<P>>&);                         \
    template void layernormBackward<T, P, C>(const TensorView<const T>&, const TensorView<const T>&,     \
                                             const TensorView<const P>&, const TensorView<const P>&,     \
                                             const TensorView<const P>&, const TensorView<T>&,           \
                                             const TensorView<P>&, const TensorView<P>&);

#define HIPDNN_INSTANTIATE_NORMALIZATION_FOR_P(T, C)     \
    HIPDNN_INSTANTIATE_NORMALIZATION(T, float, C)        \
    HIPDNN_INSTANTIATE_NORMALIZATION(T, detail::half, C) \
    HIPDNN_INSTANTIATE_NORMALIZATION(T, detail::bfloat16, C)

HIPDNN_INSTANTIATE_NORMALIZATION_FOR_P(float, float)
HIPDNN_INSTANTIATE_NORMALIZATION_FOR_P(float, double)
HIPDNN_INSTANTIATE_NORMALIZATION_FOR_P(detail::half, float)
HIPDNN_INSTANTIATE_NORMALIZATION_FOR_P(detail::half, double)
HIPDNN_INSTANTIATE_NORMALIZATION_FOR_P(detail::bfloat16, float)
HIPDNN_INSTANTIATE_NORMALIZATION_FOR_P(detail::bfloat16, double)

}  // namespace hipdnn_test_sdk::references
