// Attributes of a reduction: Y keeps the dims of X except those reduced to 1. Y's dims must be
// set by the caller (they say which dims are reduced).
#pragma once

#include "AttributesBase.hpp"

namespace hipdnn_frontend::graph {

namespace reduction_ports {
enum class InputNames { X };
enum class OutputNames { Y };
}  // namespace reduction_ports

class ReductionAttributes
    : public AttributesBase<ReductionAttributes, reduction_ports::InputNames, reduction_ports::OutputNames> {
public:
    ReductionAttributes& set_mode(ReductionMode mode) {
        mode_ = mode;
        return *this;
    }
    [[nodiscard]] ReductionMode get_mode() const { return mode_; }

private:
    ReductionMode mode_ = ReductionMode::NOT_SET;
};

using Reduction_attributes = ReductionAttributes;

}  // namespace hipdnn_frontend::graph
