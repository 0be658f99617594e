#pragma once

#include <cstdint>

// Enumerator names and numeric values follow flatbuffers_sdk/schemas/operations.fbs so that a
// FlatBuffers enum value converts with static_cast.
namespace hipdnn_test_sdk::references {

enum class ConvMode : int8_t { CONVOLUTION = 1, CROSS_CORRELATION = 2 };

enum class PointwiseMode : int32_t {
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
    MAX_OP = 28,
    MIN_OP = 29,
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

enum class ReductionMode : int8_t {
    ADD = 1,
    MUL = 2,
    MIN_OP = 3,
    MAX_OP = 4,
    AMAX = 5,
    AVG = 6,
    NORM1 = 7,
    NORM2 = 8,
    MUL_NO_ZEROS = 9,
};

enum class ResampleMode : int8_t {
    MAXPOOL = 1,
    AVGPOOL_EXCLUDE_PADDING = 2,
    AVGPOOL_INCLUDE_PADDING = 3,
};

enum class PaddingMode : int8_t { NEG_INF_PAD = 1, ZERO_PAD = 2, EDGE_VAL_PAD = 3 };

}  // namespace hipdnn_test_sdk::references
