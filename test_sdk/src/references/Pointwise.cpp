#include <hipdnn_test_sdk/references/Pointwise.hpp>

#include "Common.hpp"

#include <hipdnn_flatbuffers_sdk/operations/Pointwise.hpp>

#include <cmath>
#include <limits>
#include <numbers>

namespace hipdnn_test_sdk::references {
namespace {

using detail::require;
using detail::toString;

// Strides that read `input` at every index of `outDims`: dims aligned from the right, a dim of
// 1 (or a missing leading dim) repeats with stride 0.
template <class T>
std::vector<int64_t> broadcastStrides(const TensorView<T>& input, const std::vector<int64_t>& outDims,
                                      const std::string& name) {
    require(input.dims.size() <= outDims.size(), "pointwise: " + name + " dims " + toString(input.dims) +
                                                     " have a higher rank than the output " +
                                                     toString(outDims));
    const size_t lead = outDims.size() - input.dims.size();
    std::vector<int64_t> strides(outDims.size(), 0);
    for (size_t d = 0; d < input.dims.size(); ++d) {
        const int64_t dim = input.dims[d];
        require(dim == outDims[d + lead] || dim == 1, "pointwise: " + name + " dims " + toString(input.dims) +
                                                          " do not broadcast to the output " +
                                                          toString(outDims));
        strides[d + lead] = dim == 1 ? 0 : input.strides[d];
    }
    return strides;
}

template <class C>
C sigmoid(C x) {
    return C(1) / (C(1) + std::exp(-x));
}

// The scalar function of each mode, on compute-type values. a = in0, b = in1, c = in2.
template <class C>
struct PointwiseFunction {
    PointwiseMode mode;
    C lowerClip;
    C upperClip;
    C lowerClipSlope;
    C swishBeta;
    C eluAlpha;
    C softplusBeta;

    C operator()(C a, C b, C c) const {
        constexpr C sqrtHalf = static_cast<C>(0.70710678118654752440);
        constexpr C invSqrtTwoPi = static_cast<C>(0.39894228040143267794);
        constexpr C tanhGeluScale = static_cast<C>(0.79788456080286535588);  // sqrt(2 / pi)
        constexpr C tanhGeluCubic = static_cast<C>(0.044715);
        switch (mode) {
            case PointwiseMode::ABS:
                return std::abs(a);
            case PointwiseMode::CEIL:
                return std::ceil(a);
            case PointwiseMode::COS:
                return std::cos(a);
            case PointwiseMode::ERF:
                return std::erf(a);
            case PointwiseMode::EXP:
                return std::exp(a);
            case PointwiseMode::FLOOR:
                return std::floor(a);
            case PointwiseMode::IDENTITY:
                return a;
            case PointwiseMode::LOG:
                return std::log(a);
            case PointwiseMode::LOGICAL_NOT:
                return a == C(0) ? C(1) : C(0);
            case PointwiseMode::NEG:
                return -a;
            case PointwiseMode::RECIPROCAL:
                return C(1) / a;
            case PointwiseMode::RSQRT:
                return C(1) / std::sqrt(a);
            case PointwiseMode::SIN:
                return std::sin(a);
            case PointwiseMode::SQRT:
                return std::sqrt(a);
            case PointwiseMode::TAN:
                return std::tan(a);
            case PointwiseMode::RELU_FWD:
                return a <= lowerClip ? lowerClip + lowerClipSlope * (a - lowerClip) : std::min(a, upperClip);
            case PointwiseMode::SIGMOID_FWD:
                return sigmoid(a);
            case PointwiseMode::TANH_FWD:
                return std::tanh(a);
            case PointwiseMode::ELU_FWD:
                return a > C(0) ? a : eluAlpha * std::expm1(a);
            case PointwiseMode::GELU_FWD:
                return C(0.5) * a * (C(1) + std::erf(a * sqrtHalf));
            case PointwiseMode::GELU_APPROX_TANH_FWD:
                return C(0.5) * a * (C(1) + std::tanh(tanhGeluScale * (a + tanhGeluCubic * a * a * a)));
            case PointwiseMode::SOFTPLUS_FWD: {
                // log(1 + e^z) without overflow for large z.
                const C z = softplusBeta * a;
                return (std::max(z, C(0)) + std::log1p(std::exp(-std::abs(z)))) / softplusBeta;
            }
            case PointwiseMode::SWISH_FWD:
                return a * sigmoid(swishBeta * a);
            case PointwiseMode::ADD:
                return a + b;
            case PointwiseMode::ADD_SQUARE:
                return a + b * b;
            case PointwiseMode::SUB:
                return a - b;
            case PointwiseMode::MUL:
                return a * b;
            case PointwiseMode::DIV:
                return a / b;
            case PointwiseMode::MAX_OP:
                return std::max(a, b);
            case PointwiseMode::MIN_OP:
                return std::min(a, b);
            case PointwiseMode::MOD:
                return std::fmod(a, b);
            case PointwiseMode::POW:
                return std::pow(a, b);
            case PointwiseMode::CMP_EQ:
                return a == b ? C(1) : C(0);
            case PointwiseMode::CMP_NEQ:
                return a != b ? C(1) : C(0);
            case PointwiseMode::CMP_GT:
                return a > b ? C(1) : C(0);
            case PointwiseMode::CMP_GE:
                return a >= b ? C(1) : C(0);
            case PointwiseMode::CMP_LT:
                return a < b ? C(1) : C(0);
            case PointwiseMode::CMP_LE:
                return a <= b ? C(1) : C(0);
            case PointwiseMode::LOGICAL_AND:
                return (a != C(0) && b != C(0)) ? C(1) : C(0);
            case PointwiseMode::LOGICAL_OR:
                return (a != C(0) || b != C(0)) ? C(1) : C(0);
            case PointwiseMode::BINARY_SELECT:
                return c != C(0) ? a : b;
            // Backward activations: a = dy, b = x (the forward input).
            case PointwiseMode::RELU_BWD:
                if (b <= lowerClip) {
                    return lowerClipSlope * a;
                }
                return b < upperClip ? a : C(0);
            case PointwiseMode::SIGMOID_BWD: {
                const C s = sigmoid(b);
                return a * s * (C(1) - s);
            }
            case PointwiseMode::TANH_BWD: {
                const C t = std::tanh(b);
                return a * (C(1) - t * t);
            }
            case PointwiseMode::ELU_BWD:
                return b > C(0) ? a : a * eluAlpha * std::exp(b);
            case PointwiseMode::GELU_BWD:
                return a * (C(0.5) * (C(1) + std::erf(b * sqrtHalf)) +
                            b * invSqrtTwoPi * std::exp(C(-0.5) * b * b));
            case PointwiseMode::GELU_APPROX_TANH_BWD: {
                const C inner = tanhGeluScale * (b + tanhGeluCubic * b * b * b);
                const C t = std::tanh(inner);
                const C innerDerivative = tanhGeluScale * (C(1) + C(3) * tanhGeluCubic * b * b);
                return a * (C(0.5) * (C(1) + t) + C(0.5) * b * (C(1) - t * t) * innerDerivative);
            }
            case PointwiseMode::SOFTPLUS_BWD:
                return a * sigmoid(softplusBeta * b);
            case PointwiseMode::SWISH_BWD: {
                const C s = sigmoid(swishBeta * b);
                return a * (s + swishBeta * b * s * (C(1) - s));
            }
            case PointwiseMode::GEN_INDEX:
                break;  // handled by the caller
            case PointwiseMode::UNSET:
                break;  // rejected by the input count
        }
        detail::fail("pointwise: unknown mode " + std::to_string(static_cast<int>(mode)));
    }
};

}  // namespace

template <class In, class Out, class C>
void pointwise(const PointwiseParams& params, const TensorView<const In>& in0,
               const std::optional<TensorView<const In>>& in1, const std::optional<TensorView<const In>>& in2,
               const TensorView<Out>& out) {
    detail::checkView(in0, "pointwise in_0");
    detail::checkView(out, "pointwise out_0");
    const int inputCount = hipdnn_flatbuffers_sdk::pointwiseInputCount(params.mode);
    require(inputCount > 0, "pointwise: unknown mode " + std::to_string(static_cast<int>(params.mode)));
    const bool needsIn1 = inputCount >= 2;
    const bool needsIn2 = inputCount == 3;
    require(in1.has_value() == needsIn1, std::string("pointwise: mode ") +
                                             std::to_string(static_cast<int>(params.mode)) +
                                             (needsIn1 ? " needs in_1" : " takes no in_1"));
    require(in2.has_value() == needsIn2, std::string("pointwise: mode ") +
                                             std::to_string(static_cast<int>(params.mode)) +
                                             (needsIn2 ? " needs in_2" : " takes no in_2"));

    const std::vector<int64_t> in0Strides = broadcastStrides(in0, out.dims, "in_0");
    std::vector<int64_t> in1Strides(out.dims.size(), 0);
    std::vector<int64_t> in2Strides(out.dims.size(), 0);
    if (in1) {
        detail::checkView(*in1, "pointwise in_1");
        in1Strides = broadcastStrides(*in1, out.dims, "in_1");
    }
    if (in2) {
        detail::checkView(*in2, "pointwise in_2");
        in2Strides = broadcastStrides(*in2, out.dims, "in_2");
    }

    if (params.mode == PointwiseMode::GEN_INDEX) {
        require(params.axis.has_value() && *params.axis >= 0 &&
                    *params.axis < static_cast<int64_t>(out.dims.size()),
                "pointwise GEN_INDEX: axis must be set and within the output rank " +
                    std::to_string(out.dims.size()));
        const auto axis = static_cast<size_t>(*params.axis);
        parallelFor(out.elementCount(), [&](int64_t begin, int64_t end) {
            detail::forEachOffset<1>(
                out.dims, {&out.strides}, begin, end,
                [&](int64_t, const std::array<int64_t, 1>& offset, const std::vector<int64_t>& coord) {
                    out.data[offset[0]] = detail::store<Out>(static_cast<C>(coord[axis]));
                });
        });
        return;
    }

    const PointwiseFunction<C> function{
        params.mode,
        static_cast<C>(params.reluLowerClip.value_or(0.0)),
        static_cast<C>(params.reluUpperClip.value_or(std::numeric_limits<double>::infinity())),
        static_cast<C>(params.reluLowerClipSlope.value_or(0.0)),
        static_cast<C>(params.swishBeta.value_or(1.0)),
        static_cast<C>(params.eluAlpha.value_or(1.0)),
        static_cast<C>(params.softplusBeta.value_or(1.0)),
    };
    const In* in1Data = in1 ? in1->data : nullptr;
    const In* in2Data = in2 ? in2->data : nullptr;
    parallelFor(out.elementCount(), [&](int64_t begin, int64_t end) {
        detail::forEachOffset<4>(out.dims, {&in0Strides, &in1Strides, &in2Strides, &out.strides}, begin, end,
                                 [&](int64_t, const std::array<int64_t, 4>& offsets, const auto&) {
                                     const C a = detail::load<C>(in0.data[offsets[0]]);
                                     const C b = in1Data ? detail::load<C>(in1Data[offsets[1]]) : C(0);
                                     const C c = in2Data ? detail::load<C>(in2Data[offsets[2]]) : C(0);
                                     out.data[offsets[3]] = detail::store<Out>(function(a, b, c));
                                 });
    });
}

#define HIPDNN_INSTANTIATE_POINTWISE(In, Out, C)                                             \
    template void pointwise<In, Out, C>(const PointwiseParams&, const TensorView<const In>&, \
                                        const std::optional<TensorView<const In>>&,          \
                                        const std::optional<TensorView<const In>>&, const TensorView<Out>&);

#define HIPDNN_INSTANTIATE_POINTWISE_FOR_OUT(In, C)   \
    HIPDNN_INSTANTIATE_POINTWISE(In, float, C)        \
    HIPDNN_INSTANTIATE_POINTWISE(In, detail::half, C) \
    HIPDNN_INSTANTIATE_POINTWISE(In, detail::bfloat16, C)

HIPDNN_INSTANTIATE_POINTWISE_FOR_OUT(float, float)
HIPDNN_INSTANTIATE_POINTWISE_FOR_OUT(float, double)
HIPDNN_INSTANTIATE_POINTWISE_FOR_OUT(detail::half, float)
HIPDNN_INSTANTIATE_POINTWISE_FOR_OUT(detail::half, double)
HIPDNN_INSTANTIATE_POINTWISE_FOR_OUT(detail::bfloat16, float)
HIPDNN_INSTANTIATE_POINTWISE_FOR_OUT(detail::bfloat16, double)

}  // namespace hipdnn_test_sdk::references
