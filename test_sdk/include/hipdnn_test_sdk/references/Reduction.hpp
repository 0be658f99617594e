#pragma once

#include <hipdnn_test_sdk/references/Enums.hpp>
#include <hipdnn_test_sdk/references/TensorView.hpp>

namespace hipdnn_test_sdk::references {

// Reduces the dims where out is 1 and in is larger; all other dims must be equal.
// MUL_NO_ZEROS multiplies the non-zero elements (1 when there are none).
// Instantiated for In and Out in {float, half, bfloat16} and C in {float, double}.
template <class In, class Out, class C = float>
void reduction(ReductionMode mode, const TensorView<const In>& in, const TensorView<Out>& out);

}  // namespace hipdnn_test_sdk::references
