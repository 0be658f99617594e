// Attributes of the forward convolution, Y = conv(X, W).
#pragma once

#include "AttributesBase.hpp"
#include "ConvolutionParameters.hpp"

namespace hipdnn_frontend::graph {

namespace conv_fprop_ports {
enum class InputNames { X, W };
enum class OutputNames { Y };
}  // namespace conv_fprop_ports

class ConvFpropAttributes
    : public AttributesBase<ConvFpropAttributes, conv_fprop_ports::InputNames, conv_fprop_ports::OutputNames>,
      public ConvolutionParameters<ConvFpropAttributes> {};

using Conv_fprop_attributes = ConvFpropAttributes;

}  // namespace hipdnn_frontend::graph
