// Graphs the unit tests analyse and compile.
#pragma once

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>
#include <hipdnn_test_sdk/GraphBuilder.hpp>

#include <cstdint>
#include <vector>

namespace cuda_kernels_test {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

/// Every schema pointwise mode but UNSET.
std::vector<fb::PointwiseMode> allPointwiseModes();

/// One graph with a node per mode, each writing its own output of `dims`; inputs a, b, c of `type`
/// have `dims` (or, with `broadcastB`, b has extent 1 in every dim but dim 1) and compute `compute`.
hipdnn_test_sdk::GraphBuilder everyModeGraph(fb::DataType type, fb::DataType compute,
                                             const std::vector<int64_t>& dims, bool broadcastB);

/// y = relu(1.5 * x + b) with virtual FLOAT intermediates; x, b, y of `type` in `strides`.
hipdnn_test_sdk::GraphBuilder scaleAddReluGraph(fb::DataType type, const std::vector<int64_t>& dims,
                                                const std::vector<int64_t>& strides = {});

inline hipdnn_flatbuffers_sdk::GraphWrapper wrap(const hipdnn_test_sdk::GraphBuilder& builder) {
    const std::vector<uint8_t> bytes = builder.build();
    return {bytes.data(), bytes.size()};
}

}  // namespace cuda_kernels_test
