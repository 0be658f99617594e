// Attributes of RMS normalization backward: DX, DSCALE [, DBIAS] from DY, X, SCALE and the
// forward pass's INV_RMS.
#pragma once

#include "AttributesBase.hpp"

namespace hipdnn_frontend::graph {

namespace rmsnorm_backward_ports {
enum class InputNames { DY, X, SCALE, INV_RMS };
enum class OutputNames { DX, DSCALE, DBIAS };
}  // namespace rmsnorm_backward_ports

class RmsnormBackwardAttributes
    : public AttributesBase<RmsnormBackwardAttributes, rmsnorm_backward_ports::InputNames,
                            rmsnorm_backward_ports::OutputNames> {
public:
    // Whether the forward pass had a bias whose gradient is wanted.
    RmsnormBackwardAttributes& has_dbias(bool value) {
        hasDbias_ = value;
        return *this;
    }
    [[nodiscard]] bool get_has_dbias() const { return hasDbias_; }

private:
    bool hasDbias_ = false;
};

using Rmsnorm_backward_attributes = RmsnormBackwardAttributes;

}  // namespace hipdnn_frontend::graph
