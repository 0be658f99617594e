// Tolerances for comparing an engine's output with the CPU reference.
//
// Two kinds are offered:
//  - a fixed table per operation and data type (the numbers upstream hipDNN validates with, so
//    results that pass there pass here), and
//  - an accumulation-aware bound for long reductions, where a fixed number is either too loose
//    for short sums or too tight for long ones.
#pragma once

#include <hipdnn_flatbuffers_sdk/data_objects/data_types_generated.h>

#include <cstdint>
#include <string_view>

namespace hipdnn_test_sdk {

/// An element passes when |actual - expected| <= absolute + relative * |expected|.
struct Tolerance {
    double absolute = 0.0;
    double relative = 0.0;
};

/// Operation families with their own row in the tolerance table.
enum class ToleranceOp {
    BatchnormInference,
    BatchnormInferenceVariance,
    BatchnormTraining,
    BatchnormBackward,
    ConvolutionFwd,
    ConvolutionBwd,
    ConvolutionWrw,
    Matmul,
    Reduction,
    Pointwise,
    Layernorm,
    RmsNorm,
    Resample,
    Sdpa,
    SdpaBackward,
};

std::string_view toleranceOpName(ToleranceOp op);

/// The fixed tolerance for `op` when the compared tensor has element type `dataType`.
/// FLOAT, HALF and BFLOAT16 use the upstream table; DOUBLE uses 1e-10 (every engine accumulates
/// doubles in double); integer types must match exactly. Throws std::invalid_argument for other
/// types.
Tolerance fixedTolerance(ToleranceOp op, hipdnn_flatbuffers_sdk::data_objects::DataType dataType);

/// Unit roundoff u of a floating-point type (2^-24 for float, 2^-11 for half, 2^-8 for
/// bfloat16, 2^-53 for double); 0 for integer types.
double unitRoundoff(hipdnn_flatbuffers_sdk::data_objects::DataType dataType);

/// Higham's gamma(k) = k*u / (1 - k*u): the relative error bound of a recursive sum of k terms
/// in a type with unit roundoff u. When k*u approaches 1 that bound is meaningless, so from
/// k*u >= 0.01 on the probabilistic sqrt(k)*u estimate (scaled by 6 for headroom) is used.
double accumulationGamma(int64_t termCount, double unitRoundoffValue);

/// Absolute bound for one output element that is a sum of `termCount` products accumulated in
/// `computeType` and stored as `outputType`: gamma(k) * sumAbsTerms for the accumulation plus
/// one rounding of the result (u_out * sumAbsTerms bounds |result|). `sumAbsTerms` is
/// sum_i |a_i * b_i| for that element (or an upper estimate such as k * max|a| * max|b|).
double accumulationBound(int64_t termCount, double sumAbsTerms,
                         hipdnn_flatbuffers_sdk::data_objects::DataType computeType,
                         hipdnn_flatbuffers_sdk::data_objects::DataType outputType);

/// The fixed tolerance widened, when needed, by accumulationBound() for a reduction of
/// `termCount` terms whose magnitudes are at most `maxAbsTerm` each: for long reductions in
/// low precision the fixed number is too tight, for short ones it stays as it is.
Tolerance reductionTolerance(ToleranceOp op, hipdnn_flatbuffers_sdk::data_objects::DataType outputType,
                             hipdnn_flatbuffers_sdk::data_objects::DataType computeType, int64_t termCount,
                             double maxAbsTerm);

/// Attention's fixed tolerance widened for the length of its reductions: `reductionLength` is
/// Skv for the forward pass (the softmax and the weighted sum of values run over the keys) and
/// max(Skv, Sq * Hq / Hk) for the backward pass (dK and dV also sum over every query row of their
/// head group). The table's numbers hold up to 128 terms; beyond, both parts grow with
/// sqrt(length / 128): the terms' rounding errors are independent, so they add up like a random
/// walk (the same estimate accumulationGamma uses for long sums), not linearly.
Tolerance attentionTolerance(ToleranceOp op, hipdnn_flatbuffers_sdk::data_objects::DataType outputType,
                             int64_t reductionLength);

}  // namespace hipdnn_test_sdk
