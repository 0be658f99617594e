// Attributes of the weight gradient of a convolution, DW = conv_wgrad(DY, X); DW dims must be set.
#pragma once

#include "AttributesBase.hpp"
#include "ConvolutionParameters.hpp"

namespace hipdnn_frontend::graph {

namespace conv_wgrad_ports {
enum class InputNames { DY, X };
enum class OutputNames { DW };
}  // namespace conv_wgrad_ports

class ConvWgradAttributes
    : public AttributesBase<ConvWgradAttributes, conv_wgrad_ports::InputNames, conv_wgrad_ports::OutputNames>,
      public ConvolutionParameters<ConvWgradAttributes> {};

using Conv_wgrad_attributes = ConvWgradAttributes;

}  // namespace hipdnn_frontend::graph
