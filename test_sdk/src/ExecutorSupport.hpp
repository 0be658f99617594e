// Private helpers shared by the executor and its node implementations.
#pragma once

#include <hipdnn_test_sdk/CpuGraphExecutor.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hipdnn_test_sdk::detail {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

std::vector<int64_t> dimsOf(const fb::TensorAttributes& tensor);
std::vector<int64_t> stridesOf(const fb::TensorAttributes& tensor);
/// "tensor uid 3 'y'".
std::string tensorLabel(const fb::TensorAttributes& tensor);
/// "[1, 64, 56, 56]".
std::string formatDims(const std::vector<int64_t>& dims);

/// The tensor's element type; UNSET means the graph's intermediate type for virtual tensors and
/// its I/O type for the others.
fb::DataType effectiveDataType(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                               const fb::TensorAttributes& tensor);

/// The value of a scalar tensor: its pass-by-value `value`, else element 0 of its buffer.
double scalarValue(const hipdnn_flatbuffers_sdk::GraphWrapper& graph, int64_t uid,
                   const std::unordered_map<int64_t, void*>& buffers);

/// What of the node the CPU references do not implement, or nullopt.
std::optional<std::string> referenceLimit(const hipdnn_flatbuffers_sdk::NodeWrapper& node);

/// Adds every built-in implementation to `registry`.
void registerBuiltinImplementations(NodeRegistry& registry);

}  // namespace hipdnn_test_sdk::detail
