// Attributes of layer normalization over every dim but the first. SCALE and BIAS are
// (1, d1, d2, ...); in TRAINING phase MEAN and INV_VARIANCE (N, 1, ..., 1) are also written.
// normalized_dim_count, the number of trailing dims normalized, is 0 (every dim but the first) or
// that number (rank - 1); other splits are refused.
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
    LayernormAttributes& set_normalized_dim_count(int64_t count) {
        normalizedDimCount_ = count;
        return *this;
    }
    [[nodiscard]] NormFwdPhase get_forward_phase() const { return phase_; }
    [[nodiscard]] int64_t get_normalized_dim_count() const { return normalizedDimCount_; }

private:
    NormFwdPhase phase_ = NormFwdPhase::NOT_SET;
    int64_t normalizedDimCount_ = 0;
};

using Layernorm_attributes = LayernormAttributes;

}  // namespace hipdnn_frontend::graph
