// Attributes of a (batched) matrix product: C[..., M, N] = A[..., M, K] x B[..., K, N]. Batch dims
// broadcast when one divides the other.
#pragma once

#include <memory>
#include <utility>

#include "AttributesBase.hpp"

namespace hipdnn_frontend::graph {

namespace matmul_ports {
enum class InputNames { A, B };
enum class OutputNames { C };
}  // namespace matmul_ports

class MatmulAttributes
    : public AttributesBase<MatmulAttributes, matmul_ports::InputNames, matmul_ports::OutputNames> {
public:
    // Upstream hipDNN's port accessors; Graph::matmul sets A, B and C itself.
    MatmulAttributes& set_a(std::shared_ptr<TensorAttributes> a) {
        inputs[InputNames::A] = std::move(a);
        return *this;
    }
    MatmulAttributes& set_b(std::shared_ptr<TensorAttributes> b) {
        inputs[InputNames::B] = std::move(b);
        return *this;
    }
    MatmulAttributes& set_c(std::shared_ptr<TensorAttributes> c) {
        outputs[OutputNames::C] = std::move(c);
        return *this;
    }
    [[nodiscard]] std::shared_ptr<TensorAttributes> get_a() const { return input(InputNames::A); }
    [[nodiscard]] std::shared_ptr<TensorAttributes> get_b() const { return input(InputNames::B); }
    [[nodiscard]] std::shared_ptr<TensorAttributes> get_c() const { return output(OutputNames::C); }
};

using Matmul_attributes = MatmulAttributes;

}  // namespace hipdnn_frontend::graph
