// Attributes of training batch normalization: Y, MEAN, INV_VARIANCE from X, SCALE, BIAS and
// EPSILON; with previous running statistics and MOMENTUM it also writes the next running
// statistics (Bessel-corrected variance).
#pragma once

#include <vector>

#include "AttributesBase.hpp"

namespace hipdnn_frontend::graph {

namespace batchnorm_ports {
enum class InputNames { X, SCALE, BIAS, EPSILON, PREV_RUNNING_MEAN, PREV_RUNNING_VARIANCE, MOMENTUM };
enum class OutputNames { Y, MEAN, INV_VARIANCE, NEXT_RUNNING_MEAN, NEXT_RUNNING_VARIANCE };
}  // namespace batchnorm_ports

class BatchnormAttributes
    : public AttributesBase<BatchnormAttributes, batchnorm_ports::InputNames, batchnorm_ports::OutputNames> {
public:
    BatchnormAttributes& set_epsilon(std::shared_ptr<TensorAttributes> epsilon) {
        inputs[InputNames::EPSILON] = std::move(epsilon);
        return *this;
    }
    BatchnormAttributes& set_previous_running_stats(std::shared_ptr<TensorAttributes> mean,
                                                    std::shared_ptr<TensorAttributes> variance,
                                                    std::shared_ptr<TensorAttributes> momentum) {
        inputs[InputNames::PREV_RUNNING_MEAN] = std::move(mean);
        inputs[InputNames::PREV_RUNNING_VARIANCE] = std::move(variance);
        inputs[InputNames::MOMENTUM] = std::move(momentum);
        return *this;
    }
    // Statistics of other devices in a multi-device batch norm.
    BatchnormAttributes& set_peer_stats(std::vector<std::shared_ptr<TensorAttributes>> peerStats) {
        peerStats_ = std::move(peerStats);
        return *this;
    }

    [[nodiscard]] const std::vector<std::shared_ptr<TensorAttributes>>& get_peer_stats() const {
        return peerStats_;
    }

private:
    std::vector<std::shared_ptr<TensorAttributes>> peerStats_;
};

using Batchnorm_attributes = BatchnormAttributes;

}  // namespace hipdnn_frontend::graph
