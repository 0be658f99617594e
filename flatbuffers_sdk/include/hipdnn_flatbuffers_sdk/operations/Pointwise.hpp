// Pointwise modes: how many tensors each reads.
#pragma once

#include "hipdnn_flatbuffers_sdk/data_objects/graph_generated.h"

namespace hipdnn_flatbuffers_sdk {

// Number of tensor inputs a pointwise mode reads (1, 2 or 3); 0 for UNSET or unknown modes.
inline int pointwiseInputCount(data_objects::PointwiseMode mode) {
    using Mode = data_objects::PointwiseMode;
    switch (mode) {
        case Mode::ABS:
        case Mode::CEIL:
        case Mode::COS:
        case Mode::ELU_FWD:
        case Mode::ERF:
        case Mode::EXP:
        case Mode::FLOOR:
        case Mode::GELU_APPROX_TANH_FWD:
        case Mode::GELU_FWD:
        case Mode::GEN_INDEX:
        case Mode::IDENTITY:
        case Mode::LOG:
        case Mode::LOGICAL_NOT:
        case Mode::NEG:
        case Mode::RECIPROCAL:
        case Mode::RELU_FWD:
        case Mode::RSQRT:
        case Mode::SIGMOID_FWD:
        case Mode::SIN:
        case Mode::SOFTPLUS_FWD:
        case Mode::SQRT:
        case Mode::SWISH_FWD:
        case Mode::TAN:
        case Mode::TANH_FWD:
            return 1;
        case Mode::ADD:
        case Mode::ADD_SQUARE:
        case Mode::CMP_EQ:
        case Mode::CMP_GE:
        case Mode::CMP_GT:
        case Mode::CMP_LE:
        case Mode::CMP_LT:
        case Mode::CMP_NEQ:
        case Mode::DIV:
        case Mode::LOGICAL_AND:
        case Mode::LOGICAL_OR:
        case Mode::MAX_OP:
        case Mode::MIN_OP:
        case Mode::MOD:
        case Mode::MUL:
        case Mode::POW:
        case Mode::SUB:
        // Backward modes read (dy, x).
        case Mode::ELU_BWD:
        case Mode::GELU_APPROX_TANH_BWD:
        case Mode::GELU_BWD:
        case Mode::RELU_BWD:
        case Mode::SIGMOID_BWD:
        case Mode::SOFTPLUS_BWD:
        case Mode::SWISH_BWD:
        case Mode::TANH_BWD:
            return 2;
        case Mode::BINARY_SELECT:
            return 3;
        case Mode::UNSET:
            return 0;
    }
    return 0;
}

}  // namespace hipdnn_flatbuffers_sdk
