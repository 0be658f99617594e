// Attributes of the data gradient of a convolution, DX = conv_dgrad(DY, W); DX dims must be set.
#pragma once

#include "AttributesBase.hpp"
#include "ConvolutionParameters.hpp"

namespace hipdnn_frontend::graph {

namespace conv_dgrad_ports {
enum class InputNames { DY, W };
enum class OutputNames { DX };
}  // namespace conv_dgrad_ports

class ConvDgradAttributes
    : public AttributesBase<ConvDgradAttributes, conv_dgrad_ports::InputNames, conv_dgrad_ports::OutputNames>,
      public ConvolutionParameters<ConvDgradAttributes> {};

using Conv_dgrad_attributes = ConvDgradAttributes;

}  // namespace hipdnn_frontend::graph
