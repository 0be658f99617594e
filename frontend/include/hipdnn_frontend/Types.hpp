// Frontend enums. Values that also exist in the serialized schema keep the schema's numbers so
// that conversion is a cast, and detail:: below checks that they do, enumerator by enumerator;
// ConvolutionMode is the exception (the schema orders it the other way) and converts by name.
#pragma once

#include <cstdint>
#include <ostream>
#include <string_view>
#include <type_traits>

#include <hipdnn_backend.h>
#include <hipdnn_flatbuffers_sdk/data_objects/graph_generated.h>
#include <hipdnn_flatbuffers_sdk/ElementDataType.hpp>

namespace hipdnn_frontend {

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;

enum class DataType : int8_t {
    NOT_SET = 0,
    FLOAT = 1,
    HALF = 2,
    BFLOAT16 = 3,
    DOUBLE = 4,
    UINT8 = 5,
    INT32 = 6,
    INT8 = 7,
    FP8_E4M3 = 8,
    FP8_E5M2 = 9,
    INT64 = 15,
};

// Upstream hipDNN's numbering, not the schema's (fbs::ConvMode has CONVOLUTION = 1,
// CROSS_CORRELATION = 2): detail::toFbs and fromFbs convert it by name.
enum class ConvolutionMode { NOT_SET = 0, CROSS_CORRELATION = 1, CONVOLUTION = 2 };

enum class PointwiseMode : int32_t {
    NOT_SET = 0,
    ABS = 1,
    ADD = 2,
    ADD_SQUARE = 3,
    BINARY_SELECT = 4,
    CEIL = 5,
    CMP_EQ = 6,
    CMP_GE = 7,
    CMP_GT = 8,
    CMP_LE = 9,
    CMP_LT = 10,
    CMP_NEQ = 11,
    DIV = 12,
    ELU_BWD = 13,
    ELU_FWD = 14,
    ERF = 15,
    EXP = 16,
    FLOOR = 17,
    GELU_APPROX_TANH_BWD = 18,
    GELU_APPROX_TANH_FWD = 19,
    GELU_BWD = 20,
    GELU_FWD = 21,
    GEN_INDEX = 22,
    IDENTITY = 23,
    LOG = 24,
    LOGICAL_AND = 25,
    LOGICAL_NOT = 26,
    LOGICAL_OR = 27,
    MAX = 28,
    MIN = 29,
    MUL = 30,
    NEG = 31,
    RECIPROCAL = 32,
    RELU_BWD = 33,
    RELU_FWD = 34,
    RSQRT = 35,
    SIGMOID_BWD = 36,
    SIGMOID_FWD = 37,
    SIN = 38,
    SOFTPLUS_BWD = 39,
    SOFTPLUS_FWD = 40,
    SQRT = 41,
    SUB = 42,
    SWISH_BWD = 43,
    SWISH_FWD = 44,
    TAN = 45,
    TANH_BWD = 46,
    TANH_FWD = 47,
    MOD = 48,
    POW = 49,
    COS = 50,
};

enum class ReductionMode : int8_t { NOT_SET, ADD, MUL, MIN, MAX, AMAX, AVG, NORM1, NORM2, MUL_NO_ZEROS };
enum class ResampleMode : int8_t {
    NOT_SET,
    MAXPOOL,
    AVGPOOL_EXCLUDE_PADDING,
    AVGPOOL_INCLUDE_PADDING,
    BILINEAR,
    NEAREST
};
enum class PaddingMode : int8_t { NOT_SET, NEG_INF_PAD, ZERO_PAD, EDGE_VAL_PAD };
enum class NormFwdPhase : int8_t { NOT_SET, INFERENCE, TRAINING };
// Where attention's causal diagonal starts: at the first query and key (TOP_LEFT), or so that the
// last query sees the last key (BOTTOM_RIGHT: query i sees key j when j <= i + Skv - Sq).
enum class DiagonalAlignment : int8_t { TOP_LEFT, BOTTOM_RIGHT };

enum class HeuristicMode { INSTANT, B, FALLBACK, A };
// HEURISTICS_CHOICE builds candidates in ranked order until one builds; ALL builds every candidate.
enum class BuildPlanPolicy { HEURISTICS_CHOICE, ALL };

enum class NodeType {
    CONVOLUTION_FPROP,
    CONVOLUTION_DGRAD,
    CONVOLUTION_WGRAD,
    BATCHNORM,
    BATCHNORM_INFERENCE,
    BATCHNORM_INFERENCE_VARIANCE,
    BATCHNORM_BACKWARD,
    POINTWISE,
    MATMUL,
    REDUCTION,
    LAYERNORM,
    RMSNORM,
    RMSNORM_BACKWARD,
    LAYERNORM_BACKWARD,
    RESAMPLE,
    SDPA,
    SDPA_BACKWARD,
};

// cuDNN-frontend spellings.
using DataType_t = DataType;
using ConvolutionMode_t = ConvolutionMode;
using PointwiseMode_t = PointwiseMode;
using ReductionMode_t = ReductionMode;
using ResampleMode_t = ResampleMode;
using PaddingMode_t = PaddingMode;
using NormFwdPhase_t = NormFwdPhase;
using DiagonalAlignment_t = DiagonalAlignment;
using HeurMode_t = HeuristicMode;
using BuildPlanPolicy_t = BuildPlanPolicy;

inline const char* to_string(DataType type) {
    switch (type) {
        case DataType::NOT_SET:
            return "NOT_SET";
        case DataType::FLOAT:
            return "FLOAT";
        case DataType::HALF:
            return "HALF";
        case DataType::BFLOAT16:
            return "BFLOAT16";
        case DataType::DOUBLE:
            return "DOUBLE";
        case DataType::UINT8:
            return "UINT8";
        case DataType::INT32:
            return "INT32";
        case DataType::INT8:
            return "INT8";
        case DataType::FP8_E4M3:
            return "FP8_E4M3";
        case DataType::FP8_E5M2:
            return "FP8_E5M2";
        case DataType::INT64:
            return "INT64";
    }
    return "UNKNOWN";
}

inline std::ostream& operator<<(std::ostream& stream, DataType type) {
    return stream << to_string(type);
}

inline const char* to_string(PointwiseMode mode) {
    return fbs::EnumNamePointwiseMode(static_cast<fbs::PointwiseMode>(mode));
}

namespace detail {

// The enums below but ConvolutionMode convert to and from the schema's (hipdnn_flatbuffers_sdk
// data_objects) by static_cast. Next to each conversion, static_asserts check that the two enums
// have the same underlying type and that every frontend enumerator has the number of the schema
// enumerator of the same name, so a schema change that breaks agreement fails to compile here.
// The schema may have values the frontend lacks (DataType::FP8_E8M0 and others): fromFbs passes
// them through as values without an enumerator (to_string says "UNKNOWN").
template <class Frontend, class Schema>
constexpr bool sameValue(Frontend frontend, Schema schema) {
    return static_cast<int64_t>(frontend) == static_cast<int64_t>(schema);
}
template <class Frontend, class Schema>
inline constexpr bool sameUnderlyingType =
    std::is_same_v<std::underlying_type_t<Frontend>, std::underlying_type_t<Schema>>;

// The schema spells NOT_SET as UNSET.
static_assert(sameUnderlyingType<DataType, fbs::DataType>);
static_assert(sameValue(DataType::NOT_SET, fbs::DataType::UNSET));
static_assert(sameValue(DataType::FLOAT, fbs::DataType::FLOAT));
static_assert(sameValue(DataType::HALF, fbs::DataType::HALF));
static_assert(sameValue(DataType::BFLOAT16, fbs::DataType::BFLOAT16));
static_assert(sameValue(DataType::DOUBLE, fbs::DataType::DOUBLE));
static_assert(sameValue(DataType::UINT8, fbs::DataType::UINT8));
static_assert(sameValue(DataType::INT32, fbs::DataType::INT32));
static_assert(sameValue(DataType::INT8, fbs::DataType::INT8));
static_assert(sameValue(DataType::FP8_E4M3, fbs::DataType::FP8_E4M3));
static_assert(sameValue(DataType::FP8_E5M2, fbs::DataType::FP8_E5M2));
static_assert(sameValue(DataType::INT64, fbs::DataType::INT64));
inline fbs::DataType toFbs(DataType type) {
    return static_cast<fbs::DataType>(type);
}
inline DataType fromFbs(fbs::DataType type) {
    return static_cast<DataType>(type);
}

}  // namespace detail

/// The DataType of the element type T (float, double, the data SDK's half, bfloat16 and fp8
/// types, uint8_t, int8_t, int32_t, int64_t); a compile error for other types.
template <class T>
constexpr DataType getDataTypeEnumFromType() {
    return static_cast<DataType>(hipdnn_flatbuffers_sdk::dataTypeOf<T>());
}

namespace detail {

// The schema spells NOT_SET as UNSET, MAX and MIN as MAX_OP and MIN_OP. Its enum is a byte (as
// upstream's); the frontend's stays an int, and every value fits both.
static_assert(static_cast<int64_t>(fbs::PointwiseMode::MAX) <= INT8_MAX);
static_assert(sameValue(PointwiseMode::NOT_SET, fbs::PointwiseMode::UNSET));
static_assert(sameValue(PointwiseMode::ABS, fbs::PointwiseMode::ABS));
static_assert(sameValue(PointwiseMode::ADD, fbs::PointwiseMode::ADD));
static_assert(sameValue(PointwiseMode::ADD_SQUARE, fbs::PointwiseMode::ADD_SQUARE));
static_assert(sameValue(PointwiseMode::BINARY_SELECT, fbs::PointwiseMode::BINARY_SELECT));
static_assert(sameValue(PointwiseMode::CEIL, fbs::PointwiseMode::CEIL));
static_assert(sameValue(PointwiseMode::CMP_EQ, fbs::PointwiseMode::CMP_EQ));
static_assert(sameValue(PointwiseMode::CMP_GE, fbs::PointwiseMode::CMP_GE));
static_assert(sameValue(PointwiseMode::CMP_GT, fbs::PointwiseMode::CMP_GT));
static_assert(sameValue(PointwiseMode::CMP_LE, fbs::PointwiseMode::CMP_LE));
static_assert(sameValue(PointwiseMode::CMP_LT, fbs::PointwiseMode::CMP_LT));
static_assert(sameValue(PointwiseMode::CMP_NEQ, fbs::PointwiseMode::CMP_NEQ));
static_assert(sameValue(PointwiseMode::DIV, fbs::PointwiseMode::DIV));
static_assert(sameValue(PointwiseMode::ELU_BWD, fbs::PointwiseMode::ELU_BWD));
static_assert(sameValue(PointwiseMode::ELU_FWD, fbs::PointwiseMode::ELU_FWD));
static_assert(sameValue(PointwiseMode::ERF, fbs::PointwiseMode::ERF));
static_assert(sameValue(PointwiseMode::EXP, fbs::PointwiseMode::EXP));
static_assert(sameValue(PointwiseMode::FLOOR, fbs::PointwiseMode::FLOOR));
static_assert(sameValue(PointwiseMode::GELU_APPROX_TANH_BWD, fbs::PointwiseMode::GELU_APPROX_TANH_BWD));
static_assert(sameValue(PointwiseMode::GELU_APPROX_TANH_FWD, fbs::PointwiseMode::GELU_APPROX_TANH_FWD));
static_assert(sameValue(PointwiseMode::GELU_BWD, fbs::PointwiseMode::GELU_BWD));
static_assert(sameValue(PointwiseMode::GELU_FWD, fbs::PointwiseMode::GELU_FWD));
static_assert(sameValue(PointwiseMode::GEN_INDEX, fbs::PointwiseMode::GEN_INDEX));
static_assert(sameValue(PointwiseMode::IDENTITY, fbs::PointwiseMode::IDENTITY));
static_assert(sameValue(PointwiseMode::LOG, fbs::PointwiseMode::LOG));
static_assert(sameValue(PointwiseMode::LOGICAL_AND, fbs::PointwiseMode::LOGICAL_AND));
static_assert(sameValue(PointwiseMode::LOGICAL_NOT, fbs::PointwiseMode::LOGICAL_NOT));
static_assert(sameValue(PointwiseMode::LOGICAL_OR, fbs::PointwiseMode::LOGICAL_OR));
static_assert(sameValue(PointwiseMode::MAX, fbs::PointwiseMode::MAX_OP));
static_assert(sameValue(PointwiseMode::MIN, fbs::PointwiseMode::MIN_OP));
static_assert(sameValue(PointwiseMode::MUL, fbs::PointwiseMode::MUL));
static_assert(sameValue(PointwiseMode::NEG, fbs::PointwiseMode::NEG));
static_assert(sameValue(PointwiseMode::RECIPROCAL, fbs::PointwiseMode::RECIPROCAL));
static_assert(sameValue(PointwiseMode::RELU_BWD, fbs::PointwiseMode::RELU_BWD));
static_assert(sameValue(PointwiseMode::RELU_FWD, fbs::PointwiseMode::RELU_FWD));
static_assert(sameValue(PointwiseMode::RSQRT, fbs::PointwiseMode::RSQRT));
static_assert(sameValue(PointwiseMode::SIGMOID_BWD, fbs::PointwiseMode::SIGMOID_BWD));
static_assert(sameValue(PointwiseMode::SIGMOID_FWD, fbs::PointwiseMode::SIGMOID_FWD));
static_assert(sameValue(PointwiseMode::SIN, fbs::PointwiseMode::SIN));
static_assert(sameValue(PointwiseMode::SOFTPLUS_BWD, fbs::PointwiseMode::SOFTPLUS_BWD));
static_assert(sameValue(PointwiseMode::SOFTPLUS_FWD, fbs::PointwiseMode::SOFTPLUS_FWD));
static_assert(sameValue(PointwiseMode::SQRT, fbs::PointwiseMode::SQRT));
static_assert(sameValue(PointwiseMode::SUB, fbs::PointwiseMode::SUB));
static_assert(sameValue(PointwiseMode::SWISH_BWD, fbs::PointwiseMode::SWISH_BWD));
static_assert(sameValue(PointwiseMode::SWISH_FWD, fbs::PointwiseMode::SWISH_FWD));
static_assert(sameValue(PointwiseMode::TAN, fbs::PointwiseMode::TAN));
static_assert(sameValue(PointwiseMode::TANH_BWD, fbs::PointwiseMode::TANH_BWD));
static_assert(sameValue(PointwiseMode::TANH_FWD, fbs::PointwiseMode::TANH_FWD));
static_assert(sameValue(PointwiseMode::MOD, fbs::PointwiseMode::MOD));
static_assert(sameValue(PointwiseMode::POW, fbs::PointwiseMode::POW));
static_assert(sameValue(PointwiseMode::COS, fbs::PointwiseMode::COS));
inline fbs::PointwiseMode toFbs(PointwiseMode mode) {
    return static_cast<fbs::PointwiseMode>(mode);
}
inline PointwiseMode fromFbs(fbs::PointwiseMode mode) {
    return static_cast<PointwiseMode>(mode);
}

// The schema spells MAX and MIN as MAX_OP and MIN_OP.
static_assert(sameUnderlyingType<ReductionMode, fbs::ReductionMode>);
static_assert(sameValue(ReductionMode::NOT_SET, fbs::ReductionMode::NOT_SET));
static_assert(sameValue(ReductionMode::ADD, fbs::ReductionMode::ADD));
static_assert(sameValue(ReductionMode::MUL, fbs::ReductionMode::MUL));
static_assert(sameValue(ReductionMode::MIN, fbs::ReductionMode::MIN_OP));
static_assert(sameValue(ReductionMode::MAX, fbs::ReductionMode::MAX_OP));
static_assert(sameValue(ReductionMode::AMAX, fbs::ReductionMode::AMAX));
static_assert(sameValue(ReductionMode::AVG, fbs::ReductionMode::AVG));
static_assert(sameValue(ReductionMode::NORM1, fbs::ReductionMode::NORM1));
static_assert(sameValue(ReductionMode::NORM2, fbs::ReductionMode::NORM2));
static_assert(sameValue(ReductionMode::MUL_NO_ZEROS, fbs::ReductionMode::MUL_NO_ZEROS));
inline fbs::ReductionMode toFbs(ReductionMode mode) {
    return static_cast<fbs::ReductionMode>(mode);
}
inline ReductionMode fromFbs(fbs::ReductionMode mode) {
    return static_cast<ReductionMode>(mode);
}

static_assert(sameUnderlyingType<ResampleMode, fbs::ResampleMode>);
static_assert(sameValue(ResampleMode::NOT_SET, fbs::ResampleMode::NOT_SET));
static_assert(sameValue(ResampleMode::MAXPOOL, fbs::ResampleMode::MAXPOOL));
static_assert(sameValue(ResampleMode::AVGPOOL_EXCLUDE_PADDING, fbs::ResampleMode::AVGPOOL_EXCLUDE_PADDING));
static_assert(sameValue(ResampleMode::AVGPOOL_INCLUDE_PADDING, fbs::ResampleMode::AVGPOOL_INCLUDE_PADDING));
static_assert(sameValue(ResampleMode::BILINEAR, fbs::ResampleMode::BILINEAR));
static_assert(sameValue(ResampleMode::NEAREST, fbs::ResampleMode::NEAREST));
inline fbs::ResampleMode toFbs(ResampleMode mode) {
    return static_cast<fbs::ResampleMode>(mode);
}
inline ResampleMode fromFbs(fbs::ResampleMode mode) {
    return static_cast<ResampleMode>(mode);
}

static_assert(sameUnderlyingType<PaddingMode, fbs::PaddingMode>);
static_assert(sameValue(PaddingMode::NOT_SET, fbs::PaddingMode::PADDING_NOT_SET));
static_assert(sameValue(PaddingMode::NEG_INF_PAD, fbs::PaddingMode::NEG_INF_PAD));
static_assert(sameValue(PaddingMode::ZERO_PAD, fbs::PaddingMode::ZERO_PAD));
static_assert(sameValue(PaddingMode::EDGE_VAL_PAD, fbs::PaddingMode::EDGE_VAL_PAD));
inline fbs::PaddingMode toFbs(PaddingMode mode) {
    return static_cast<fbs::PaddingMode>(mode);
}
inline PaddingMode fromFbs(fbs::PaddingMode mode) {
    return static_cast<PaddingMode>(mode);
}

static_assert(sameUnderlyingType<NormFwdPhase, fbs::NormFwdPhase>);
static_assert(sameValue(NormFwdPhase::NOT_SET, fbs::NormFwdPhase::NOT_SET));
static_assert(sameValue(NormFwdPhase::INFERENCE, fbs::NormFwdPhase::INFERENCE));
static_assert(sameValue(NormFwdPhase::TRAINING, fbs::NormFwdPhase::TRAINING));
inline fbs::NormFwdPhase toFbs(NormFwdPhase phase) {
    return static_cast<fbs::NormFwdPhase>(phase);
}
inline NormFwdPhase fromFbs(fbs::NormFwdPhase phase) {
    return static_cast<NormFwdPhase>(phase);
}

static_assert(sameUnderlyingType<DiagonalAlignment, fbs::DiagonalAlignment>);
static_assert(sameValue(DiagonalAlignment::TOP_LEFT, fbs::DiagonalAlignment::TOP_LEFT));
static_assert(sameValue(DiagonalAlignment::BOTTOM_RIGHT, fbs::DiagonalAlignment::BOTTOM_RIGHT));
inline fbs::DiagonalAlignment toFbs(DiagonalAlignment alignment) {
    return static_cast<fbs::DiagonalAlignment>(alignment);
}
inline DiagonalAlignment fromFbs(fbs::DiagonalAlignment alignment) {
    return static_cast<DiagonalAlignment>(alignment);
}

// By name: the numbers differ (see ConvolutionMode). A schema enumerator without a case here
// fails to compile (-Wswitch); a value that is no enumerator converts to NOT_SET / UNSET.
constexpr fbs::ConvMode toFbs(ConvolutionMode mode) {
    switch (mode) {
        case ConvolutionMode::CONVOLUTION:
            return fbs::ConvMode::CONVOLUTION;
        case ConvolutionMode::CROSS_CORRELATION:
            return fbs::ConvMode::CROSS_CORRELATION;
        case ConvolutionMode::NOT_SET:
            break;
    }
    return fbs::ConvMode::UNSET;
}

constexpr ConvolutionMode fromFbs(fbs::ConvMode mode) {
    switch (mode) {
        case fbs::ConvMode::CONVOLUTION:
            return ConvolutionMode::CONVOLUTION;
        case fbs::ConvMode::CROSS_CORRELATION:
            return ConvolutionMode::CROSS_CORRELATION;
        case fbs::ConvMode::UNSET:
            break;
    }
    return ConvolutionMode::NOT_SET;
}

static_assert(toFbs(ConvolutionMode::NOT_SET) == fbs::ConvMode::UNSET);
static_assert(toFbs(ConvolutionMode::CROSS_CORRELATION) == fbs::ConvMode::CROSS_CORRELATION);
static_assert(toFbs(ConvolutionMode::CONVOLUTION) == fbs::ConvMode::CONVOLUTION);
static_assert(fromFbs(fbs::ConvMode::UNSET) == ConvolutionMode::NOT_SET);
static_assert(fromFbs(fbs::ConvMode::CROSS_CORRELATION) == ConvolutionMode::CROSS_CORRELATION);
static_assert(fromFbs(fbs::ConvMode::CONVOLUTION) == ConvolutionMode::CONVOLUTION);

inline hipdnnBackendHeurMode_t toBackend(HeuristicMode mode) {
    switch (mode) {
        case HeuristicMode::INSTANT:
            return HIPDNN_HEUR_MODE_INSTANT;
        case HeuristicMode::B:
            return HIPDNN_HEUR_MODE_B;
        case HeuristicMode::A:
            return HIPDNN_HEUR_MODE_A;
        case HeuristicMode::FALLBACK:
            break;
    }
    return HIPDNN_HEUR_MODE_FALLBACK;
}

}  // namespace detail
}  // namespace hipdnn_frontend
