// Attributes of RMS normalization over every dim but the first: Y = X / rms(X) * SCALE [+ BIAS];
// in TRAINING phase INV_RMS (N, 1, ..., 1) is also written.
#pragma once

#include "AttributesBase.hpp"

namespace hipdnn_frontend::graph {

namespace rmsnorm_ports {
enum class InputNames { X, SCALE, BIAS, EPSILON };
enum class OutputNames { Y, INV_RMS };
}  // namespace rmsnorm_ports

class RmsnormAttributes
    : public AttributesBase<RmsnormAttributes, rmsnorm_ports::InputNames, rmsnorm_ports::OutputNames> {
public:
    RmsnormAttributes& set_forward_phase(NormFwdPhase phase) {
        phase_ = phase;
        return *this;
    }
    RmsnormAttributes& set_epsilon(std::shared_ptr<TensorAttributes> epsilon) {
        inputs[InputNames::EPSILON] = std::move(epsilon);
        return *this;
    }
    RmsnormAttributes& set_bias(std::shared_ptr<TensorAttributes> bias) {
        inputs[InputNames::BIAS] = std::move(bias);
        return *this;
    }
    [[nodiscard]] NormFwdPhase get_forward_phase() const { return phase_; }

private:
    NormFwdPhase phase_ = NormFwdPhase::NOT_SET;
};

using Rmsnorm_attributes = RmsnormAttributes;

}  // namespace hipdnn_frontend::graph
