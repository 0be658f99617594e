#include "EnumMapping.hpp"

#include <array>
#include <string>

namespace hipdnn_cudnn_plugin {

std::optional<cudnnDataType_t> toCudnnDataType(fb::DataType type) {
    switch (type) {
        case fb::DataType::FLOAT:
            return CUDNN_DATA_FLOAT;
        case fb::DataType::HALF:
            return CUDNN_DATA_HALF;
        case fb::DataType::BFLOAT16:
            return CUDNN_DATA_BFLOAT16;
        case fb::DataType::DOUBLE:
            return CUDNN_DATA_DOUBLE;
        case fb::DataType::UINT8:
            return CUDNN_DATA_UINT8;
        case fb::DataType::INT32:
            return CUDNN_DATA_INT32;
        case fb::DataType::INT8:
            return CUDNN_DATA_INT8;
        case fb::DataType::INT64:
            return CUDNN_DATA_INT64;
        case fb::DataType::FP8_E4M3:
            return CUDNN_DATA_FP8_E4M3;
        case fb::DataType::FP8_E5M2:
            return CUDNN_DATA_FP8_E5M2;
        case fb::DataType::FP8_E8M0:
            return CUDNN_DATA_FP8_E8M0;
        case fb::DataType::FP4_E2M1:
            return CUDNN_DATA_FP4_E2M1;
        case fb::DataType::INT4:
            return CUDNN_DATA_INT4;
        default:
            return std::nullopt;
    }
}

size_t cudnnStorageBytes(cudnnDataType_t type, size_t elements) {
    switch (type) {
        case CUDNN_DATA_DOUBLE:
        case CUDNN_DATA_INT64:
            return 8 * elements;
        case CUDNN_DATA_FLOAT:
        case CUDNN_DATA_INT32:
            return 4 * elements;
        case CUDNN_DATA_HALF:
        case CUDNN_DATA_BFLOAT16:
            return 2 * elements;
        case CUDNN_DATA_INT8:
        case CUDNN_DATA_UINT8:
        case CUDNN_DATA_BOOLEAN:
        case CUDNN_DATA_FP8_E4M3:
        case CUDNN_DATA_FP8_E5M2:
        case CUDNN_DATA_FP8_E8M0:
            return elements;
        case CUDNN_DATA_FP4_E2M1:
        case CUDNN_DATA_INT4:
            return (elements + 1) / 2;
        default:
            return 0;
    }
}

std::optional<cudnnPointwiseMode_t> toCudnnPointwiseMode(fb::PointwiseMode mode) {
    using M = fb::PointwiseMode;
    switch (mode) {
        case M::ABS:
            return CUDNN_POINTWISE_ABS;
        case M::ADD:
            return CUDNN_POINTWISE_ADD;
        case M::ADD_SQUARE:
            return CUDNN_POINTWISE_ADD_SQUARE;
        case M::BINARY_SELECT:
            return CUDNN_POINTWISE_BINARY_SELECT;
        case M::CEIL:
            return CUDNN_POINTWISE_CEIL;
        case M::CMP_EQ:
            return CUDNN_POINTWISE_CMP_EQ;
        case M::CMP_GE:
            return CUDNN_POINTWISE_CMP_GE;
        case M::CMP_GT:
            return CUDNN_POINTWISE_CMP_GT;
        case M::CMP_LE:
            return CUDNN_POINTWISE_CMP_LE;
        case M::CMP_LT:
            return CUDNN_POINTWISE_CMP_LT;
        case M::CMP_NEQ:
            return CUDNN_POINTWISE_CMP_NEQ;
        case M::DIV:
            return CUDNN_POINTWISE_DIV;
        case M::ELU_BWD:
            return CUDNN_POINTWISE_ELU_BWD;
        case M::ELU_FWD:
            return CUDNN_POINTWISE_ELU_FWD;
        case M::ERF:
            return CUDNN_POINTWISE_ERF;
        case M::EXP:
            return CUDNN_POINTWISE_EXP;
        case M::FLOOR:
            return CUDNN_POINTWISE_FLOOR;
        case M::GELU_APPROX_TANH_BWD:
            return CUDNN_POINTWISE_GELU_APPROX_TANH_BWD;
        case M::GELU_APPROX_TANH_FWD:
            return CUDNN_POINTWISE_GELU_APPROX_TANH_FWD;
        case M::GELU_BWD:
            return CUDNN_POINTWISE_GELU_BWD;
        case M::GELU_FWD:
            return CUDNN_POINTWISE_GELU_FWD;
        case M::GEN_INDEX:
            return CUDNN_POINTWISE_GEN_INDEX;
        case M::IDENTITY:
            return CUDNN_POINTWISE_IDENTITY;
        case M::LOG:
            return CUDNN_POINTWISE_LOG;
        case M::LOGICAL_AND:
            return CUDNN_POINTWISE_LOGICAL_AND;
        case M::LOGICAL_NOT:
            return CUDNN_POINTWISE_LOGICAL_NOT;
        case M::LOGICAL_OR:
            return CUDNN_POINTWISE_LOGICAL_OR;
        case M::MAX_OP:
            return CUDNN_POINTWISE_MAX;
        case M::MIN_OP:
            return CUDNN_POINTWISE_MIN;
        case M::MUL:
            return CUDNN_POINTWISE_MUL;
        case M::NEG:
            return CUDNN_POINTWISE_NEG;
        case M::RECIPROCAL:
            return CUDNN_POINTWISE_RECIPROCAL;
        case M::RELU_BWD:
            return CUDNN_POINTWISE_RELU_BWD;
        case M::RELU_FWD:
            return CUDNN_POINTWISE_RELU_FWD;
        case M::RSQRT:
            return CUDNN_POINTWISE_RSQRT;
        case M::SIGMOID_BWD:
            return CUDNN_POINTWISE_SIGMOID_BWD;
        case M::SIGMOID_FWD:
            return CUDNN_POINTWISE_SIGMOID_FWD;
        case M::SIN:
            return CUDNN_POINTWISE_SIN;
        case M::SOFTPLUS_BWD:
            return CUDNN_POINTWISE_SOFTPLUS_BWD;
        case M::SOFTPLUS_FWD:
            return CUDNN_POINTWISE_SOFTPLUS_FWD;
        case M::SQRT:
            return CUDNN_POINTWISE_SQRT;
        case M::SUB:
            return CUDNN_POINTWISE_SUB;
        case M::SWISH_BWD:
            return CUDNN_POINTWISE_SWISH_BWD;
        case M::SWISH_FWD:
            return CUDNN_POINTWISE_SWISH_FWD;
        case M::TAN:
            return CUDNN_POINTWISE_TAN;
        case M::TANH_BWD:
            return CUDNN_POINTWISE_TANH_BWD;
        case M::TANH_FWD:
            return CUDNN_POINTWISE_TANH_FWD;
        case M::MOD:
            return CUDNN_POINTWISE_MOD;
        case M::POW:
            return CUDNN_POINTWISE_POW;
        case M::COS:
            return CUDNN_POINTWISE_COS;
        case M::UNSET:
            return std::nullopt;
    }
    return std::nullopt;
}

bool isActivationBackward(fb::PointwiseMode mode) {
    using M = fb::PointwiseMode;
    switch (mode) {
        case M::RELU_BWD:
        case M::TANH_BWD:
        case M::SIGMOID_BWD:
        case M::ELU_BWD:
        case M::GELU_BWD:
        case M::GELU_APPROX_TANH_BWD:
        case M::SOFTPLUS_BWD:
        case M::SWISH_BWD:
            return true;
        default:
            return false;
    }
}

std::optional<cudnnConvolutionMode_t> toCudnnConvMode(fb::ConvMode mode) {
    switch (mode) {
        case fb::ConvMode::CONVOLUTION:
            return CUDNN_CONVOLUTION;
        case fb::ConvMode::CROSS_CORRELATION:
            return CUDNN_CROSS_CORRELATION;
        case fb::ConvMode::UNSET:
            return std::nullopt;
    }
    return std::nullopt;
}

std::optional<cudnnReduceTensorOp_t> toCudnnReductionOp(fb::ReductionMode mode) {
    using M = fb::ReductionMode;
    switch (mode) {
        case M::ADD:
            return CUDNN_REDUCE_TENSOR_ADD;
        case M::MUL:
            return CUDNN_REDUCE_TENSOR_MUL;
        case M::MIN_OP:
            return CUDNN_REDUCE_TENSOR_MIN;
        case M::MAX_OP:
            return CUDNN_REDUCE_TENSOR_MAX;
        case M::AMAX:
            return CUDNN_REDUCE_TENSOR_AMAX;
        case M::AVG:
            return CUDNN_REDUCE_TENSOR_AVG;
        case M::NORM1:
            return CUDNN_REDUCE_TENSOR_NORM1;
        case M::NORM2:
            return CUDNN_REDUCE_TENSOR_NORM2;
        case M::MUL_NO_ZEROS:
            return CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS;
        case M::NOT_SET:
            return std::nullopt;
    }
    return std::nullopt;
}

namespace {

// Indexed by cudnnBackendKnobType_t value (cudnn_graph.h, cuDNN 9.19). Spelled out rather than
// taken from the enumerators because several of them are deprecated (and -Werror is on).
constexpr std::array<std::string_view, 44> kKnobTypeNames = {
    "SPLIT_K",
    "SWIZZLE",
    "TILE_SIZE",
    "USE_TEX",
    "EDGE",
    "KBLOCK",
    "LDGA",
    "LDGB",
    "CHUNK_K",
    "SPLIT_H",
    "WINO_TILE",
    "MULTIPLY",
    "SPLIT_K_BUF",
    "TILEK",
    "STAGES",
    "REDUCTION_MODE",
    "CTA_SPLIT_K_MODE",
    "SPLIT_K_SLC",
    "IDX_MODE",
    "SLICED",
    "SPLIT_RS",
    "SINGLEBUFFER",
    "LDGC",
    "SPECFILT",
    "KERNEL_CFG",
    "WORKSPACE",
    "TILE_CGA",
    "TILE_CGA_M",
    "TILE_CGA_N",
    "BLOCK_SIZE",
    "OCCUPANCY",
    "ARRAY_SIZE_PER_THREAD",
    "NUM_C_PER_BLOCK",
    "SPLIT_COLS",
    "TILE_ROWS",
    "TILE_COLS",
    "LOAD_SIZE",
    "CTA_COUNT",
    "STREAM_K",
    "SPLIT_P_SLC",
    "TILE_M",
    "TILE_N",
    "WARP_SPEC_CFG",
    "SWAP_AB",
};
static_assert(kKnobTypeNames.size() == CUDNN_KNOB_TYPE_COUNTS);

constexpr std::string_view kUnknownKnobPrefix = "KNOB_";

}  // namespace

std::string knobTypeName(int64_t knobType) {
    if (knobType >= 0 && knobType < static_cast<int64_t>(kKnobTypeNames.size())) {
        return std::string(kKnobTypeNames[static_cast<size_t>(knobType)]);
    }
    return std::string(kUnknownKnobPrefix) + std::to_string(knobType);
}

std::optional<int64_t> knobTypeFromName(std::string_view name) {
    for (size_t i = 0; i < kKnobTypeNames.size(); ++i) {
        if (kKnobTypeNames[i] == name) {
            return static_cast<int64_t>(i);
        }
    }
    if (name.starts_with(kUnknownKnobPrefix)) {
        const std::string digits(name.substr(kUnknownKnobPrefix.size()));
        if (!digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos) {
            return std::stoll(digits);
        }
    }
    return std::nullopt;
}

std::string_view heuristicModeName(cudnnBackendHeurMode_t mode) {
    switch (mode) {
        case CUDNN_HEUR_MODE_A:
            return "A";
        case CUDNN_HEUR_MODE_B:
            return "B";
        case CUDNN_HEUR_MODE_FALLBACK:
            return "FALLBACK";
        default:
            return "INSTANT";
    }
}

std::optional<cudnnBackendHeurMode_t> heuristicModeFromName(std::string_view name) {
    if (name == "A") {
        return CUDNN_HEUR_MODE_A;
    }
    if (name == "B") {
        return CUDNN_HEUR_MODE_B;
    }
    if (name == "FALLBACK") {
        return CUDNN_HEUR_MODE_FALLBACK;
    }
    return std::nullopt;
}

}  // namespace hipdnn_cudnn_plugin
