// Run-time shapes of some tensors for one execution (the variant pack's OVERRIDE attributes):
// uids[i] has rank lengths[i], and its dims and strides follow those of uids[0..i) in shapes and
// strides.
#pragma once

#include <cstdint>
#include <vector>

namespace hipdnn_backend::plugin {

struct ShapeOverrides {
    std::vector<int64_t> uids;
    std::vector<int64_t> lengths;
    std::vector<int64_t> shapes;
    std::vector<int64_t> strides;

    bool empty() const noexcept { return uids.empty(); }
};

}  // namespace hipdnn_backend::plugin
