// Attributes of a (batched) matrix product: C[..., M, N] = A[..., M, K] x B[..., K, N]. Batch dims
// broadcast when one divides the other.
#pragma once

#include "AttributesBase.hpp"

namespace hipdnn_frontend::graph {

namespace matmul_ports {
enum class InputNames { A, B };
enum class OutputNames { C };
}  // namespace matmul_ports

class MatmulAttributes
    : public AttributesBase<MatmulAttributes, matmul_ports::InputNames, matmul_ports::OutputNames> {};

using Matmul_attributes = MatmulAttributes;

}  // namespace hipdnn_frontend::graph
