#pragma once

#include <hipdnn_test_sdk/references/Enums.hpp>
#include <hipdnn_test_sdk/references/TensorView.hpp>

#include <cstdint>
#include <optional>

namespace hipdnn_test_sdk::references {

struct PointwiseParams {
    PointwiseMode mode = PointwiseMode::IDENTITY;
    std::optional<double> reluLowerClip;       // default 0
    std::optional<double> reluUpperClip;       // default +inf
    std::optional<double> reluLowerClipSlope;  // default 0
    std::optional<int64_t> axis;               // GEN_INDEX only, required there
    std::optional<double> swishBeta;           // default 1
    std::optional<double> eluAlpha;            // default 1
    std::optional<double> softplusBeta;        // default 1
};

// Every input broadcasts to out's dims (aligned from the right; an input dim equals the output
// dim or is 1). Backward activations (*_BWD) take in0 = dy and in1 = x, the forward input, and
// write dx. BINARY_SELECT: out = in2 != 0 ? in0 : in1. Comparisons and logical modes write 1
// or 0. See README.md for every formula.
// Instantiated for In and Out in {float, half, bfloat16} and C in {float, double}.
template <class In, class Out, class C = float>
void pointwise(const PointwiseParams& params, const TensorView<const In>& in0,
               const std::optional<TensorView<const In>>& in1, const std::optional<TensorView<const In>>& in2,
               const TensorView<Out>& out);

}  // namespace hipdnn_test_sdk::references
