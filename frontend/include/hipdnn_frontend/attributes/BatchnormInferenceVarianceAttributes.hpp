// Attributes of inference batch normalization from the variance (an extension):
// Y = SCALE * (X - MEAN) / sqrt(VARIANCE + EPSILON) + BIAS.
#pragma once

#include "AttributesBase.hpp"

namespace hipdnn_frontend::graph {

namespace batchnorm_inference_variance_ports {
enum class InputNames { X, MEAN, VARIANCE, SCALE, BIAS, EPSILON };
enum class OutputNames { Y };
}  // namespace batchnorm_inference_variance_ports

class BatchnormInferenceVarianceAttributes
    : public AttributesBase<BatchnormInferenceVarianceAttributes,
                            batchnorm_inference_variance_ports::InputNames,
                            batchnorm_inference_variance_ports::OutputNames> {
public:
    BatchnormInferenceVarianceAttributes& set_epsilon(std::shared_ptr<TensorAttributes> epsilon) {
        inputs[InputNames::EPSILON] = std::move(epsilon);
        return *this;
    }
};

using Batchnorm_inference_variance_attributes = BatchnormInferenceVarianceAttributes;

}  // namespace hipdnn_frontend::graph
