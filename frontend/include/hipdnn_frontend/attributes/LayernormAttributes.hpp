// Attributes of layer normalization over every dim but the first. SCALE and BIAS are
// (1, d1, d2, ...); in TRAINING phase MEAN and INV_VARIANCE (N, 1, ..., 1) are also written.
#pragma once

#include "AttributesBase.hpp"

namespace hipdnn_frontend::graph {

namespace layernorm_ports {
enum class InputNames { X, SCALE, BIAS, EPSILON };
enum class OutputNames { Y, MEAN, INV_VARIANCE };
}  // namespace layernorm_ports

class LayernormAttributes
    : public AttributesBase<LayernormAttributes, layernorm_ports::InputNames, layernorm_ports::OutputNames> {
public:
    LayernormAttributes& set_forward_phase(NormFwdPhase phase) {
        phase_ = phase;
        return *this;
    }
    LayernormAttributes& set_epsilon(std::shared_ptr<TensorAttributes> epsilon) {
        inputs[InputNames::EPSILON] = std::move(epsilon);
        return *this;
    }
    [[nodiscard]] NormFwdPhase get_forward_phase() const { return phase_; }

private:
    NormFwdPhase phase_ = NormFwdPhase::NOT_SET;
};

using Layernorm_attributes = LayernormAttributes;

}  // namespace hipdnn_frontend::graph
