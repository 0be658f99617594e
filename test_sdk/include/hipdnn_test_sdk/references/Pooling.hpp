#pragma once

#include <hipdnn_test_sdk/references/Enums.hpp>
#include <hipdnn_test_sdk/references/TensorView.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace hipdnn_test_sdk::references {

// Pooling over the spatial dims of (N, C, [D,] H, W); one entry per spatial dim in each vector.
// out = (in + pre + post - window) / stride + 1 (floor), checked against y.
struct PoolingParams {
    ResampleMode mode = ResampleMode::MAXPOOL;
    // Max pooling: padded positions are skipped (NEG_INF_PAD), read as 0 (ZERO_PAD) or as the
    // nearest in-bounds value (EDGE_VAL_PAD).
    PaddingMode paddingMode = PaddingMode::NEG_INF_PAD;
    std::vector<int64_t> prePadding;
    std::vector<int64_t> postPadding;
    std::vector<int64_t> stride;
    std::vector<int64_t> window;
};

// index (max pooling only): the row-major flat position of the first maximum within its window.
// Average pooling divides by the window positions inside the padded extent
// (AVGPOOL_INCLUDE_PADDING) or by the in-bounds positions (AVGPOOL_EXCLUDE_PADDING).
// Instantiated for T in {float, half, bfloat16}, Index in {int8_t, int32_t, int64_t} and C in
// {float, double}.
template <class T, class Index = int32_t, class C = float>
void poolingForward(const PoolingParams& params, const TensorView<const T>& x, const TensorView<T>& y,
                    const std::optional<TensorView<Index>>& index = std::nullopt);

}  // namespace hipdnn_test_sdk::references
