// Attributes of inference batch normalization: Y = SCALE * (X - MEAN) * INV_VARIANCE + BIAS.
#pragma once

#include "AttributesBase.hpp"

namespace hipdnn_frontend::graph {

namespace batchnorm_inference_ports {
enum class InputNames { X, MEAN, INV_VARIANCE, SCALE, BIAS };
enum class OutputNames { Y };
}  // namespace batchnorm_inference_ports

class BatchnormInferenceAttributes
    : public AttributesBase<BatchnormInferenceAttributes, batchnorm_inference_ports::InputNames,
                            batchnorm_inference_ports::OutputNames> {};

using Batchnorm_inference_attributes = BatchnormInferenceAttributes;

}  // namespace hipdnn_frontend::graph
