// Attributes of layer normalization backward: DX, DSCALE, DBIAS from DY, X, SCALE and the
// forward pass's MEAN and INV_VARIANCE (N, 1, ..., 1), over every dim but the first as in the
// forward pass. EPSILON is optional and unused: it would only matter if the statistics were
// recomputed, which this version refuses.
#pragma once

#include "AttributesBase.hpp"

namespace hipdnn_frontend::graph {

namespace layernorm_backward_ports {
enum class InputNames { DY, X, SCALE, MEAN, INV_VARIANCE, EPSILON };
enum class OutputNames { DX, DSCALE, DBIAS };
}  // namespace layernorm_backward_ports

class LayernormBackwardAttributes
    : public AttributesBase<LayernormBackwardAttributes, layernorm_backward_ports::InputNames,
                            layernorm_backward_ports::OutputNames> {
public:
    LayernormBackwardAttributes& set_saved_mean_and_inv_variance(
        std::shared_ptr<TensorAttributes> mean, std::shared_ptr<TensorAttributes> invVariance) {
        inputs[InputNames::MEAN] = std::move(mean);
        inputs[InputNames::INV_VARIANCE] = std::move(invVariance);
        return *this;
    }
    LayernormBackwardAttributes& set_epsilon(std::shared_ptr<TensorAttributes> epsilon) {
        inputs[InputNames::EPSILON] = std::move(epsilon);
        return *this;
    }
    LayernormBackwardAttributes& set_normalized_dim_count(int64_t count) {
        normalizedDimCount_ = count;
        return *this;
    }
    [[nodiscard]] int64_t get_normalized_dim_count() const { return normalizedDimCount_; }

private:
    int64_t normalizedDimCount_ = 0;
};

using Layernorm_backward_attributes = LayernormBackwardAttributes;

}  // namespace hipdnn_frontend::graph
