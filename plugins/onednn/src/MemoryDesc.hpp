// Translation of graph tensors (dims + strides + data type) into oneDNN memory descriptors.
#pragma once

#include <hipdnn_flatbuffers_sdk/data_objects/tensor_attributes_generated.h>

#include <oneapi/dnnl/dnnl.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hipdnn_onednn {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

/// The oneDNN element type of a graph data type; nullopt when oneDNN has no such type (or this
/// engine does not offer it: only f32 and bf16 are attempted).
std::optional<dnnl::memory::data_type> toDnnlDataType(fb::DataType type);

std::vector<int64_t> dimsOf(const fb::TensorAttributes& tensor);
std::vector<int64_t> stridesOf(const fb::TensorAttributes& tensor);

/// A descriptor with exactly the tensor's dims and strides, so that oneDNN reads and writes the
/// user's buffer in place whatever its stride order. Throws std::invalid_argument for a data type
/// without oneDNN equivalent or a rank oneDNN cannot describe.
dnnl::memory::desc makeMemoryDesc(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides,
                                  fb::DataType type);
dnnl::memory::desc makeMemoryDesc(const fb::TensorAttributes& tensor);

/// True when every dim but `axis` is 1 (a per-channel vector such as a (1, K, 1, 1) bias).
bool isVectorAlong(const fb::TensorAttributes& tensor, size_t axis, int64_t length);

/// A 1-D descriptor over a per-channel tensor (1, C, 1, ...): {C} with the stride of dim 1.
dnnl::memory::desc makeChannelDesc(const fb::TensorAttributes& tensor);

/// True when both tensors have the same dims and strides (oneDNN primitives that take a single
/// data descriptor, such as eltwise and batch norm, need source and destination alike).
bool sameLayout(const fb::TensorAttributes& a, const fb::TensorAttributes& b);

/// "uid 3 'x' FLOAT dims [1,2,3] strides [6,3,1]": how decline reasons name a tensor.
std::string describeTensor(const fb::TensorAttributes& tensor);

/// True when dims [first, rank) of `tensor` cover one contiguous block of memory (in any stride
/// order), so that oneDNN can see them as a single dense dimension.
bool isDenseFrom(const fb::TensorAttributes& tensor, size_t first);

}  // namespace hipdnn_onednn
