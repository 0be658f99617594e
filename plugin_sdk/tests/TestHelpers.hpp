// Graph and engine-config buffers for the plugin SDK tests.
#pragma once

#include <hipdnn_flatbuffers_sdk/data_objects/graph_generated.h>
#include <hipdnn_flatbuffers_sdk/Builders.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace plugin_sdk_test {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

inline constexpr int64_t kInputUid = 1;
inline constexpr int64_t kOutputUid = 2;

/// y = op(x) with float x (uid 1) and y (uid 2) of packed dims {2, 3}.
inline std::vector<uint8_t> makeUnaryPointwiseGraph(fb::PointwiseMode mode, const std::string& graphName) {
    flatbuffers::FlatBufferBuilder builder;
    const std::vector<int64_t> dims = {2, 3};
    const std::vector<int64_t> strides = {3, 1};
    const std::vector<flatbuffers::Offset<fb::TensorAttributes>> tensors = {
        fb::CreateTensorAttributesDirect(builder, kInputUid, "x", fb::DataType::FLOAT, &strides, &dims),
        fb::CreateTensorAttributesDirect(builder, kOutputUid, "y", fb::DataType::FLOAT, &strides, &dims),
    };
    fb::PointwiseAttributesBuilder attributes(builder);
    attributes.add_operation(mode);
    attributes.add_in_0_tensor_uid(kInputUid);
    attributes.add_out_0_tensor_uid(kOutputUid);
    const auto attributesOffset = attributes.Finish();
    const std::vector<flatbuffers::Offset<fb::Node>> nodes = {
        fb::CreateNodeDirect(builder, "pointwise", fb::DataType::FLOAT,
                             fb::NodeAttributes::PointwiseAttributes, attributesOffset.Union()),
    };
    builder.Finish(fb::CreateGraphDirect(builder, graphName.c_str(), fb::DataType::FLOAT, fb::DataType::FLOAT,
                                         fb::DataType::FLOAT, &tensors, &nodes));
    return {builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize()};
}

}  // namespace plugin_sdk_test
