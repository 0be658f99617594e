// Shapes of layer norm and RMS norm, which normalize over every dim but the first.
#pragma once

#include <cstdint>
#include <vector>

namespace hipdnn_frontend::detail {

// Scale and bias: (1, d1, d2, ...).
inline std::vector<int64_t> normParameterDims(std::vector<int64_t> xDims) {
    if (!xDims.empty()) {
        xDims[0] = 1;
    }
    return xDims;
}

// Per-sample statistics: (N, 1, ..., 1).
inline std::vector<int64_t> normStatisticsDims(const std::vector<int64_t>& xDims) {
    std::vector<int64_t> dims(xDims.size(), 1);
    if (!xDims.empty()) {
        dims[0] = xDims[0];
    }
    return dims;
}

}  // namespace hipdnn_frontend::detail
