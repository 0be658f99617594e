#pragma once

// Builds graph buffers for these tests with the generated Create* functions. (The test SDK has
// the full graph builder; the FlatBuffers SDK cannot depend on it.)

#include "hipdnn_flatbuffers_sdk/data_objects/graph_generated.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hipdnn_flatbuffers_sdk::test {

namespace fb = data_objects;
using Builder = flatbuffers::FlatBufferBuilder;
using AttributesFactory = std::function<flatbuffers::Offset<void>(Builder&)>;

inline std::vector<int64_t> packedStrides(const std::vector<int64_t>& dims) {
    std::vector<int64_t> strides(dims.size(), 1);
    for (size_t i = dims.size(); i-- > 1;) {
        strides[i - 1] = strides[i] * dims[i];
    }
    return strides;
}

struct TensorSpec {
    int64_t uid = 0;
    std::string name;
    std::vector<int64_t> dims;
    std::vector<int64_t> strides;
    bool isVirtual = false;
    fb::DataType dataType = fb::DataType::FLOAT;
    std::optional<float> value;
};

// A float tensor with explicit strides.
inline TensorSpec stridedTensor(int64_t uid, std::string name, std::vector<int64_t> dims,
                                std::vector<int64_t> strides) {
    return {uid,   std::move(name),     std::move(dims), std::move(strides),
            false, fb::DataType::FLOAT, std::nullopt};
}

// A non-virtual pass-by-value float scalar.
inline TensorSpec scalarTensor(int64_t uid, std::string name, float value) {
    return {uid, std::move(name), {1}, {1}, false, fb::DataType::FLOAT, value};
}

class TestGraph {
public:
    TestGraph& tensor(int64_t uid, std::string name, std::vector<int64_t> dims, bool isVirtual = false) {
        auto strides = packedStrides(dims);
        return tensor(TensorSpec{uid, std::move(name), std::move(dims), std::move(strides), isVirtual,
                                 fb::DataType::FLOAT, std::nullopt});
    }

    TestGraph& tensor(TensorSpec spec) {
        _tensors.push_back(std::move(spec));
        return *this;
    }

    TestGraph& node(std::string name, fb::NodeAttributes type, AttributesFactory attributes) {
        _nodes.push_back({std::move(name), type, std::move(attributes)});
        return *this;
    }

    // 2-D convolution, padding 1, stride 1, dilation 1 unless given.
    TestGraph& conv(std::string name, int64_t x, int64_t w, int64_t y, std::vector<int64_t> padding = {1, 1},
                    std::vector<int64_t> stride = {1, 1}, std::vector<int64_t> dilation = {1, 1}) {
        return node(std::move(name), fb::NodeAttributes::ConvolutionFwdAttributes, [=](Builder& b) {
            return fb::CreateConvolutionFwdAttributesDirect(b, x, w, y, &padding, &padding, &stride,
                                                            &dilation, fb::ConvMode::CROSS_CORRELATION)
                .Union();
        });
    }

    TestGraph& pointwise(std::string name, fb::PointwiseMode mode, int64_t in0, std::optional<int64_t> in1,
                         int64_t out) {
        return node(std::move(name), fb::NodeAttributes::PointwiseAttributes, [=](Builder& b) {
            fb::PointwiseAttributesBuilder attributes(b);
            attributes.add_operation(mode);
            attributes.add_in_0_tensor_uid(in0);
            if (in1) {
                attributes.add_in_1_tensor_uid(*in1);
            }
            attributes.add_out_0_tensor_uid(out);
            return attributes.Finish().Union();
        });
    }

    std::vector<uint8_t> build() const {
        Builder b;
        std::vector<flatbuffers::Offset<fb::TensorAttributes>> tensors;
        for (const auto& t : _tensors) {
            flatbuffers::Offset<void> value = 0;
            if (t.value) {
                value = b.CreateStruct(fb::Float32Value(*t.value)).Union();
            }
            tensors.push_back(fb::CreateTensorAttributesDirect(
                b, t.uid, t.name.c_str(), t.dataType, &t.strides, &t.dims, t.isVirtual,
                t.value ? fb::TensorValue::Float32Value : fb::TensorValue::NONE, value));
        }
        std::vector<flatbuffers::Offset<fb::Node>> nodes;
        for (const auto& n : _nodes) {
            const auto attributes = n.attributes ? n.attributes(b) : flatbuffers::Offset<void>(0);
            nodes.push_back(fb::CreateNodeDirect(b, n.name.c_str(), fb::DataType::FLOAT, n.type, attributes));
        }
        b.Finish(fb::CreateGraphDirect(b, "test_graph", fb::DataType::FLOAT, fb::DataType::FLOAT,
                                       fb::DataType::FLOAT, &tensors, &nodes));
        return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
    }

private:
    struct NodeSpec {
        std::string name;
        fb::NodeAttributes type;
        AttributesFactory attributes;
    };

    std::vector<TensorSpec> _tensors;
    std::vector<NodeSpec> _nodes;
};

// conv (x=1, w=2 → y=3) → add (3 + bias 4 → 5) → relu (5 → out 6); 3 and 5 are virtual.
inline TestGraph convAddReluGraph() {
    TestGraph graph;
    graph.tensor(1, "x", {1, 2, 5, 5})
        .tensor(2, "w", {3, 2, 3, 3})
        .tensor(3, "conv_y", {1, 3, 5, 5}, true)
        .tensor(4, "bias", {1, 3, 1, 1})
        .tensor(5, "sum", {1, 3, 5, 5}, true)
        .tensor(6, "out", {1, 3, 5, 5})
        .conv("conv", 1, 2, 3)
        .pointwise("add", fb::PointwiseMode::ADD, 3, 4, 5)
        .pointwise("relu", fb::PointwiseMode::RELU_FWD, 5, std::nullopt, 6);
    return graph;
}

}  // namespace hipdnn_flatbuffers_sdk::test
