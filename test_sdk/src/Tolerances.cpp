#include <hipdnn_test_sdk/Tolerances.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace hipdnn_test_sdk {

using hipdnn_flatbuffers_sdk::data_objects::DataType;
using hipdnn_flatbuffers_sdk::data_objects::EnumNameDataType;

namespace {

// One row of the table: the same numbers upstream hipDNN's TestTolerances use, per element
// type. Where upstream gives one number it serves as both the absolute and relative part.
struct ToleranceRow {
    Tolerance fp32;
    Tolerance fp16;
    Tolerance bf16;
};

constexpr Tolerance same(double value) {
    return Tolerance{value, value};
}

ToleranceRow rowFor(ToleranceOp op) {
    switch (op) {
        case ToleranceOp::BatchnormInference:
            return {same(2e-4), same(5e-4), same(5e-3)};
        case ToleranceOp::BatchnormInferenceVariance:
            return {same(2e-4), same(8e-4), same(7e-3)};
        case ToleranceOp::BatchnormTraining:
            return {same(4e-3), same(4e-3), same(8e-3)};
        case ToleranceOp::BatchnormBackward:
            return {same(2e-3), same(4e-4), same(3e-3)};
        case ToleranceOp::ConvolutionFwd:
            return {{1e-5, 1e-5}, {1e-1, 1e-2}, {1e-1, 2e-2}};
        case ToleranceOp::ConvolutionBwd:
            return {same(8.5e-6), same(2e-2), same(2e-2)};
        case ToleranceOp::ConvolutionWrw:
            return {same(2e-4), same(2e-1), same(2e-1)};
        case ToleranceOp::Matmul:
            return {same(1e-5), same(1e-2), same(1e-2)};
        case ToleranceOp::Reduction:
        // Pooling is at most a short average; upstream has no row of its own for it.
        case ToleranceOp::Resample:
            return {same(1e-5), same(1e-2), same(5e-2)};
        case ToleranceOp::Pointwise:
            return {same(1e-5), same(1e-3), same(1e-2)};
        case ToleranceOp::Layernorm:
            return {same(1e-4), same(1e-3), same(1e-2)};
        case ToleranceOp::RmsNorm:
            return {same(4e-3), same(4e-3), same(8e-3)};
        // Engines round the attention weights to the data type before the weighted sum.
        case ToleranceOp::Sdpa:
            return {same(2e-5), same(5e-3), same(3e-2)};
        case ToleranceOp::SdpaBackward:
            return {same(1e-4), same(2e-2), same(6e-2)};
    }
    throw std::invalid_argument("unknown ToleranceOp " + std::to_string(static_cast<int>(op)));
}

}  // namespace

std::string_view toleranceOpName(ToleranceOp op) {
    switch (op) {
        case ToleranceOp::BatchnormInference:
            return "BatchnormInference";
        case ToleranceOp::BatchnormInferenceVariance:
            return "BatchnormInferenceVariance";
        case ToleranceOp::BatchnormTraining:
            return "BatchnormTraining";
        case ToleranceOp::BatchnormBackward:
            return "BatchnormBackward";
        case ToleranceOp::ConvolutionFwd:
            return "ConvolutionFwd";
        case ToleranceOp::ConvolutionBwd:
            return "ConvolutionBwd";
        case ToleranceOp::ConvolutionWrw:
            return "ConvolutionWrw";
        case ToleranceOp::Matmul:
            return "Matmul";
        case ToleranceOp::Reduction:
            return "Reduction";
        case ToleranceOp::Pointwise:
            return "Pointwise";
        case ToleranceOp::Layernorm:
            return "Layernorm";
        case ToleranceOp::RmsNorm:
            return "RmsNorm";
        case ToleranceOp::Resample:
            return "Resample";
        case ToleranceOp::Sdpa:
            return "Sdpa";
        case ToleranceOp::SdpaBackward:
            return "SdpaBackward";
    }
    return "unknown";
}

Tolerance fixedTolerance(ToleranceOp op, DataType dataType) {
    switch (dataType) {
        case DataType::FLOAT:
            return rowFor(op).fp32;
        case DataType::HALF:
            return rowFor(op).fp16;
        case DataType::BFLOAT16:
            return rowFor(op).bf16;
        case DataType::DOUBLE:
            return same(1e-10);
        case DataType::INT8:
        case DataType::UINT8:
        case DataType::INT32:
        case DataType::INT64:
            return Tolerance{};
        default:
            throw std::invalid_argument(std::string("no tolerance for data type ") +
                                        EnumNameDataType(dataType) + " in " +
                                        std::string(toleranceOpName(op)));
    }
}

double unitRoundoff(DataType dataType) {
    switch (dataType) {
        case DataType::FLOAT:
            return std::ldexp(1.0, -24);
        case DataType::HALF:
            return std::ldexp(1.0, -11);
        case DataType::BFLOAT16:
            return std::ldexp(1.0, -8);
        case DataType::DOUBLE:
            return std::ldexp(1.0, -53);
        default:
            return 0.0;
    }
}

double accumulationGamma(int64_t termCount, double unitRoundoffValue) {
    const auto ku = static_cast<double>(std::max<int64_t>(termCount, 1)) * unitRoundoffValue;
    if (ku < 0.01) {
        return ku / (1.0 - ku);
    }
    return 6.0 * std::sqrt(static_cast<double>(termCount)) * unitRoundoffValue;
}

double accumulationBound(int64_t termCount, double sumAbsTerms, DataType computeType, DataType outputType) {
    const double accumulation = accumulationGamma(termCount, unitRoundoff(computeType)) * sumAbsTerms;
    const double finalRounding = unitRoundoff(outputType) * sumAbsTerms;
    return accumulation + finalRounding;
}

Tolerance reductionTolerance(ToleranceOp op, DataType outputType, DataType computeType, int64_t termCount,
                             double maxAbsTerm) {
    Tolerance tolerance = fixedTolerance(op, outputType);
    const double sumAbsTerms = static_cast<double>(termCount) * maxAbsTerm;
    tolerance.absolute =
        std::max(tolerance.absolute, accumulationBound(termCount, sumAbsTerms, computeType, outputType));
    return tolerance;
}

Tolerance attentionTolerance(ToleranceOp op, DataType outputType, int64_t reductionLength) {
    if (op != ToleranceOp::Sdpa && op != ToleranceOp::SdpaBackward) {
        throw std::invalid_argument("attentionTolerance is for Sdpa and SdpaBackward, not " +
                                    std::string(toleranceOpName(op)));
    }
    constexpr double kTableLength = 128.0;
    Tolerance tolerance = fixedTolerance(op, outputType);
    const double widening = std::sqrt(std::max(1.0, static_cast<double>(reductionLength) / kTableLength));
    tolerance.absolute *= widening;
    tolerance.relative *= widening;
    return tolerance;
}

}  // namespace hipdnn_test_sdk
