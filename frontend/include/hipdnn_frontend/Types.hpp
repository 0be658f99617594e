// Frontend enums. Values that also exist in the serialized schema keep the schema's numbers so
// that conversion is a cast; ConvolutionMode is the exception (the schema orders it the other way).
#pragma once

#include <cstdint>
#include <string_view>

#include <hipdnn_backend.h>
#include <hipdnn_flatbuffers_sdk/data_objects/graph_generated.h>

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

enum class ConvolutionMode { NOT_SET, CROSS_CORRELATION, CONVOLUTION };

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
    RESAMPLE,
};

// cuDNN-frontend spellings.
using DataType_t = DataType;
using ConvolutionMode_t = ConvolutionMode;
using PointwiseMode_t = PointwiseMode;
using ReductionMode_t = ReductionMode;
using ResampleMode_t = ResampleMode;
using PaddingMode_t = PaddingMode;
using NormFwdPhase_t = NormFwdPhase;
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

inline const char* to_string(PointwiseMode mode) {
    return fbs::EnumNamePointwiseMode(static_cast<fbs::PointwiseMode>(mode));
}

namespace detail {

inline fbs::DataType toFbs(DataType type) {
    return static_cast<fbs::DataType>(type);
}
inline fbs::PointwiseMode toFbs(PointwiseMode mode) {
    return static_cast<fbs::PointwiseMode>(mode);
}
inline fbs::ReductionMode toFbs(ReductionMode mode) {
    return static_cast<fbs::ReductionMode>(mode);
}
inline fbs::ResampleMode toFbs(ResampleMode mode) {
    return static_cast<fbs::ResampleMode>(mode);
}
inline fbs::PaddingMode toFbs(PaddingMode mode) {
    return static_cast<fbs::PaddingMode>(mode);
}
inline fbs::NormFwdPhase toFbs(NormFwdPhase phase) {
    return static_cast<fbs::NormFwdPhase>(phase);
}

inline fbs::ConvMode toFbs(ConvolutionMode mode) {
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

inline ConvolutionMode fromFbs(fbs::ConvMode mode) {
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

inline DataType fromFbs(fbs::DataType type) {
    return static_cast<DataType>(type);
}
inline PointwiseMode fromFbs(fbs::PointwiseMode mode) {
    return static_cast<PointwiseMode>(mode);
}
inline ReductionMode fromFbs(fbs::ReductionMode mode) {
    return static_cast<ReductionMode>(mode);
}
inline ResampleMode fromFbs(fbs::ResampleMode mode) {
    return static_cast<ResampleMode>(mode);
}
inline PaddingMode fromFbs(fbs::PaddingMode mode) {
    return static_cast<PaddingMode>(mode);
}
inline NormFwdPhase fromFbs(fbs::NormFwdPhase phase) {
    return static_cast<NormFwdPhase>(phase);
}

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
