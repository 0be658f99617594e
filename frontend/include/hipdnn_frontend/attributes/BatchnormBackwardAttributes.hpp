// Attributes of batch normalization backward: DX, DSCALE, DBIAS from DY, X and SCALE, with either
// the saved MEAN and INV_VARIANCE of the forward pass or EPSILON to recompute them.
#pragma once

#include <vector>

#include "AttributesBase.hpp"

namespace hipdnn_frontend::graph {

namespace batchnorm_backward_ports {
enum class InputNames { DY, X, MEAN, INV_VARIANCE, SCALE, EPSILON };
enum class OutputNames { DX, DSCALE, DBIAS };
}  // namespace batchnorm_backward_ports

class BatchnormBackwardAttributes
    : public AttributesBase<BatchnormBackwardAttributes, batchnorm_backward_ports::InputNames,
                            batchnorm_backward_ports::OutputNames> {
public:
    BatchnormBackwardAttributes& set_saved_mean_and_inv_variance(
        std::shared_ptr<TensorAttributes> mean, std::shared_ptr<TensorAttributes> invVariance) {
        inputs[InputNames::MEAN] = std::move(mean);
        inputs[InputNames::INV_VARIANCE] = std::move(invVariance);
        return *this;
    }
    BatchnormBackwardAttributes& set_epsilon(std::shared_ptr<TensorAttributes> epsilon) {
        inputs[InputNames::EPSILON] = std::move(epsilon);
        return *this;
    }
    BatchnormBackwardAttributes& set_peer_stats(std::vector<std::shared_ptr<TensorAttributes>> peerStats) {
        peerStats_ = std::move(peerStats);
        return *this;
    }

    [[nodiscard]] const std::vector<std::shared_ptr<TensorAttributes>>& get_peer_stats() const {
        return peerStats_;
    }

private:
    std::vector<std::shared_ptr<TensorAttributes>> peerStats_;
};

using Batchnorm_backward_attributes = BatchnormBackwardAttributes;

}  // namespace hipdnn_frontend::graph
