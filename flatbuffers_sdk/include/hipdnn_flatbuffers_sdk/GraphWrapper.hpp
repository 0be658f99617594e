#pragma once

#include "hipdnn_flatbuffers_sdk/FlatbufferError.hpp"
#include "hipdnn_flatbuffers_sdk/NodeWrapper.hpp"
#include "hipdnn_flatbuffers_sdk/data_objects/graph_generated.h"

#include <flatbuffers/util.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace hipdnn_flatbuffers_sdk {

// A verified, read-only graph. Construction copies the buffer, runs the FlatBuffers verifier
// and checks the graph contract; any failure throws GraphError naming the problem and the
// offending value. Once constructed, every accessor can trust the buffer.
class GraphWrapper {
public:
    GraphWrapper(const void* data, size_t size)
        : _buffer(copyAndVerify<data_objects::Graph, GraphError>(data, size, "graph")),
          _graph(data_objects::GetGraph(_buffer.data())) {
        indexTensors();
        validateTensors();
        validateNodes();
    }

    GraphWrapper(const GraphWrapper& other)
        : _buffer(other._buffer),
          _graph(data_objects::GetGraph(_buffer.data())),
          _inputUids(other._inputUids),
          _outputUids(other._outputUids) {
        indexTensors();
    }

    GraphWrapper& operator=(const GraphWrapper& other) {
        if (this != &other) {
            *this = GraphWrapper(other);
        }
        return *this;
    }

    // Moving a std::vector keeps its storage, so the cached pointers stay valid.
    GraphWrapper(GraphWrapper&&) noexcept = default;
    GraphWrapper& operator=(GraphWrapper&&) noexcept = default;
    ~GraphWrapper() = default;

    // Like the constructor, but reports a GraphError through `error` instead of throwing.
    static std::optional<GraphWrapper> tryCreate(const void* data, size_t size, std::string& error) {
        try {
            return GraphWrapper(data, size);
        } catch (const GraphError& e) {
            error = e.what();
            return std::nullopt;
        }
    }

    const data_objects::Graph& graph() const { return *_graph; }
    const uint8_t* data() const { return _buffer.data(); }
    size_t size() const { return _buffer.size(); }

    bool hasTensor(int64_t uid) const { return _tensorsByUid.contains(uid); }

    const data_objects::TensorAttributes& tensor(int64_t uid) const {
        auto it = _tensorsByUid.find(uid);
        if (it == _tensorsByUid.end()) {
            throw GraphError("tensor uid " + std::to_string(uid) + " is not in the graph");
        }
        return *it->second;
    }

    size_t tensorCount() const { return _tensorsByUid.size(); }
    size_t nodeCount() const { return _graph->nodes() != nullptr ? _graph->nodes()->size() : 0; }

    NodeWrapper node(size_t index) const {
        if (index >= nodeCount()) {
            throw GraphError("node index " + std::to_string(index) + " is out of range (graph has " +
                             std::to_string(nodeCount()) + " nodes)");
        }
        return NodeWrapper(*_graph->nodes()->Get(static_cast<flatbuffers::uoffset_t>(index)), index);
    }

    // Non-virtual tensors that some node reads and no node writes (pass-by-value scalars
    // included), in tensor-table order: the buffers the caller provides. Every non-virtual
    // tensor is an input or an output: a graph with a tensor no node uses is rejected.
    const std::vector<int64_t>& inputUids() const { return _inputUids; }

    // Non-virtual tensors written by a node, in tensor-table order.
    const std::vector<int64_t>& outputUids() const { return _outputUids; }

private:
    using Tensor = data_objects::TensorAttributes;

    struct Writer {
        size_t nodeIndex;
        std::string port;
    };

    const flatbuffers::Vector<flatbuffers::Offset<Tensor>>* tensors() const { return _graph->tensors(); }

    static std::string label(const Tensor& tensor) {
        return "tensor uid " + std::to_string(tensor.uid()) + " '" +
               (tensor.name() != nullptr ? tensor.name()->str() : std::string()) + "'";
    }

    static std::string portLabel(const NodeWrapper& node, const NodePort& port) {
        return node.describe() + " port " + port.name;
    }

    // Names must be valid UTF-8 so that every accepted graph can be printed as JSON.
    static bool isValidUtf8(const flatbuffers::String* text) {
        if (text == nullptr) {
            return true;
        }
        // The verifier guarantees the terminating NUL, which stops a truncated sequence.
        const char* cursor = text->c_str();
        const char* end = cursor + text->size();
        while (cursor < end) {
            if (flatbuffers::FromUTF8(&cursor) < 0) {
                return false;
            }
        }
        return true;
    }

    void indexTensors() {
        _tensorsByUid.clear();
        if (tensors() == nullptr) {
            return;
        }
        _tensorsByUid.reserve(tensors()->size());
        for (const Tensor* tensor : *tensors()) {
            auto [it, inserted] = _tensorsByUid.emplace(tensor->uid(), tensor);
            if (!inserted) {
                throw GraphError("duplicate tensor uid " + std::to_string(tensor->uid()) + " ('" +
                                 (it->second->name() != nullptr ? it->second->name()->str() : "") +
                                 "' and '" + (tensor->name() != nullptr ? tensor->name()->str() : "") + "')");
            }
        }
    }

    void validateTensors() const {
        if (!isValidUtf8(_graph->name())) {
            throw GraphError("graph name is not valid UTF-8");
        }
        if (tensors() == nullptr) {
            return;
        }
        for (const Tensor* tensor : *tensors()) {
            validateTensor(*tensor);
            // A tensor without a type takes the graph's (intermediate for virtual tensors, io
            // otherwise), which defaults to UNSET too.
            const auto fallback =
                tensor->virtual_() ? _graph->intermediate_data_type() : _graph->io_data_type();
            if (tensor->data_type() == data_objects::DataType::UNSET &&
                fallback == data_objects::DataType::UNSET) {
                throw GraphError(label(*tensor) + " has data type UNSET and the graph's " +
                                 (tensor->virtual_() ? "intermediate_data_type" : "io_data_type") +
                                 " is UNSET too: give the tensor or the graph a data type");
            }
        }
    }

    static void validateTensor(const Tensor& tensor) {
        if (!isValidUtf8(tensor.name())) {
            throw GraphError("tensor uid " + std::to_string(tensor.uid()) +
                             " has a name that is not valid UTF-8");
        }
        if (!isKnownEnumValue(tensor.data_type())) {
            throw GraphError(label(tensor) + " has unknown data type " +
                             std::to_string(static_cast<int>(tensor.data_type())));
        }
        const auto* dims = tensor.dims();
        if (dims == nullptr || dims->size() == 0) {
            throw GraphError(label(tensor) + " has no dims");
        }
        const auto* strides = tensor.strides();
        if (!hasAlignedElements(dims) || !hasAlignedElements(strides)) {
            throw GraphError(label(tensor) + " has misaligned dims or strides (corrupted buffer)");
        }
        const size_t strideCount = strides != nullptr ? strides->size() : 0;
        if (strideCount != dims->size()) {
            throw GraphError(label(tensor) + " has " + std::to_string(strideCount) + " strides for " +
                             std::to_string(dims->size()) + " dims");
        }
        // Every element must be addressable in bytes (8 bytes per element at most) in int64.
        constexpr int64_t kMaxElements = std::numeric_limits<int64_t>::max() / 8;
        int64_t elements = 1;
        int64_t maxOffset = 0;
        for (flatbuffers::uoffset_t d = 0; d < dims->size(); ++d) {
            const int64_t dim = dims->Get(d);
            const int64_t stride = strides->Get(d);
            if (dim <= 0) {
                throw GraphError(label(tensor) + " has dims[" + std::to_string(d) +
                                 "] = " + std::to_string(dim) + "; dims must be > 0");
            }
            if (stride < 0) {
                throw GraphError(label(tensor) + " has strides[" + std::to_string(d) +
                                 "] = " + std::to_string(stride) + "; strides must be >= 0");
            }
            int64_t extent = 0;
            if (__builtin_mul_overflow(elements, dim, &elements) ||
                __builtin_mul_overflow(dim - 1, stride, &extent) ||
                __builtin_add_overflow(maxOffset, extent, &maxOffset) || elements > kMaxElements ||
                maxOffset >= kMaxElements) {
                throw GraphError(label(tensor) + " is too large: its size in bytes overflows int64");
            }
        }
        const auto valueType = tensor.value_type();
        if (!isKnownEnumValue(valueType)) {
            throw GraphError(label(tensor) + " has unknown value type " +
                             std::to_string(static_cast<int>(valueType)));
        }
        if ((valueType == data_objects::TensorValue::NONE) != (tensor.value() == nullptr)) {
            throw GraphError(label(tensor) + " has value type " +
                             data_objects::EnumNameTensorValue(valueType) +
                             (tensor.value() == nullptr ? " but no value" : " and a value"));
        }
        if (valueType != data_objects::TensorValue::NONE && tensor.virtual_()) {
            throw GraphError(label(tensor) + " is a pass-by-value scalar and cannot be virtual");
        }
        // Format fields of upstream's that no engine of this version implements: refused rather
        // than ignored, since ignoring them would compute something else.
        if (tensor.is_runtime_pass_by_value()) {
            throw GraphError(
                label(tensor) +
                " sets is_runtime_pass_by_value (a scalar given at execution), which is not supported; "
                "give the value in the graph instead");
        }
        if (tensor.ragged_offset_tensor_uid().has_value()) {
            throw GraphError(label(tensor) + " sets ragged_offset_tensor_uid " +
                             std::to_string(*tensor.ragged_offset_tensor_uid()) +
                             "; ragged (packed variable-length) tensors are not supported");
        }
        if (tensor.alignment() <= 0 || (tensor.alignment() & (tensor.alignment() - 1)) != 0) {
            throw GraphError(label(tensor) + " has alignment " + std::to_string(tensor.alignment()) +
                             "; it must be a power of two");
        }
    }

    static std::string listOf(const flatbuffers::Vector<int64_t>& values) {
        std::string text = "[";
        for (flatbuffers::uoffset_t i = 0; i < values.size(); ++i) {
            text += (i == 0 ? "" : ", ") + std::to_string(values.Get(i));
        }
        return text + "]";
    }

    // A non-virtual output must give every index its own element, or engines would race on (or
    // silently merge) the elements two indices share; inputs may broadcast with stride 0. Sorted
    // by stride, the dims of extent > 1 need each stride to exceed the largest offset the dims of
    // smaller stride reach: then every offset has one index (the usual dense, permuted and padded
    // layouts all pass). The check is sufficient, not necessary: an interleaving that happens not
    // to collide (dims [2, 3] strides [3, 2]) is rejected too.
    static void requireDistinctElements(const Tensor& tensor) {
        const auto& dims = *tensor.dims();
        const auto& strides = *tensor.strides();
        std::vector<flatbuffers::uoffset_t> axes;
        for (flatbuffers::uoffset_t d = 0; d < dims.size(); ++d) {
            if (dims.Get(d) > 1) {
                axes.push_back(d);
            }
        }
        std::stable_sort(axes.begin(), axes.end(), [&](flatbuffers::uoffset_t l, flatbuffers::uoffset_t r) {
            return strides.Get(l) < strides.Get(r);
        });
        // validateTensor bounded the largest offset, so `reach` cannot overflow.
        int64_t reach = 0;
        for (const flatbuffers::uoffset_t d : axes) {
            if (strides.Get(d) <= reach) {
                throw GraphError("output " + label(tensor) + " has dims " + listOf(dims) + " strides " +
                                 listOf(strides) + ", whose elements overlap: strides[" + std::to_string(d) +
                                 "] = " + std::to_string(strides.Get(d)) + " is not larger than " +
                                 std::to_string(reach) +
                                 ", the largest offset the dims of smaller stride reach; every index of an "
                                 "output needs an element of its own");
            }
            reach += strides.Get(d) * (dims.Get(d) - 1);
        }
    }

    void validateNodes() {
        const size_t count = nodeCount();
        if (count == 0) {
            throw GraphError("graph '" + (_graph->name() != nullptr ? _graph->name()->str() : std::string()) +
                             "' has no nodes; a graph needs at least one operation");
        }
        std::vector<std::vector<NodePort>> portsPerNode;
        portsPerNode.reserve(count);
        for (size_t i = 0; i < count; ++i) {
            const NodeWrapper current = node(i);
            if (!isValidUtf8(current.node().name())) {
                throw GraphError("node " + std::to_string(i) + " has a name that is not valid UTF-8");
            }
            if (!isKnownEnumValue(current.node().compute_data_type())) {
                throw GraphError(current.describe() + " has unknown compute data type " +
                                 std::to_string(static_cast<int>(current.node().compute_data_type())));
            }
            portsPerNode.push_back(current.ports());
            for (const auto& port : portsPerNode.back()) {
                if (!hasTensor(port.uid)) {
                    throw GraphError(portLabel(current, port) + " names tensor uid " +
                                     std::to_string(port.uid) + ", which is not in the graph");
                }
            }
        }

        std::unordered_map<int64_t, Writer> writers;
        for (size_t i = 0; i < count; ++i) {
            for (const auto& port : portsPerNode[i]) {
                if (!port.isOutput) {
                    continue;
                }
                const Tensor& written = tensor(port.uid);
                if (written.value_type() != data_objects::TensorValue::NONE) {
                    throw GraphError(portLabel(node(i), port) + " writes " + label(written) +
                                     ", a pass-by-value scalar");
                }
                auto [it, inserted] = writers.emplace(port.uid, Writer{i, port.name});
                if (!inserted) {
                    throw GraphError(label(written) + " is written twice: by " +
                                     node(it->second.nodeIndex).describe() + " port " + it->second.port +
                                     " and by " + portLabel(node(i), port));
                }
            }
        }

        std::unordered_set<int64_t> readFromOutside;
        for (size_t i = 0; i < count; ++i) {
            const NodeWrapper current = node(i);
            for (const auto& port : portsPerNode[i]) {
                if (port.isOutput) {
                    continue;
                }
                auto writer = writers.find(port.uid);
                if (writer == writers.end()) {
                    if (tensor(port.uid).virtual_()) {
                        throw GraphError(portLabel(current, port) + " reads virtual " +
                                         label(tensor(port.uid)) + ", which no node writes");
                    }
                    readFromOutside.insert(port.uid);
                } else if (writer->second.nodeIndex >= i) {
                    throw GraphError(portLabel(current, port) + " reads tensor uid " +
                                     std::to_string(port.uid) + " written by " +
                                     node(writer->second.nodeIndex).describe() + " port " +
                                     writer->second.port + ": nodes are not in topological order or cyclic");
                }
            }
            validateAttributes(current);
        }

        _inputUids.clear();
        _outputUids.clear();
        if (tensors() == nullptr) {
            return;
        }
        for (const Tensor* t : *tensors()) {
            const bool written = writers.contains(t->uid());
            if (t->virtual_()) {
                if (!written) {
                    throw GraphError("virtual " + label(*t) + " is never written by any node");
                }
            } else if (written) {
                requireDistinctElements(*t);
                _outputUids.push_back(t->uid());
            } else if (readFromOutside.contains(t->uid())) {
                _inputUids.push_back(t->uid());
            } else {
                // Neither an input nor an output: no variant pack could say what it is for.
                throw GraphError(label(*t) +
                                 " is not used by any node; every tensor of a graph must be read " +
                                 "or written by one of its nodes");
            }
        }
    }

    // The operation's contract (Operations.hpp): rules between its tensors and attributes that
    // the schema cannot state.
    void validateAttributes(const NodeWrapper& node) const {
        operations::visitOperation(node.type(), [&]<class Attributes>(std::type_identity<Attributes>) {
            operations::OperationTraits<Attributes>::check(operations::Contract<Attributes>(
                *node.attributesAs<Attributes>(), _tensorsByUid, node.describe()));
        });
    }

    std::vector<uint8_t> _buffer;
    const data_objects::Graph* _graph;
    std::unordered_map<int64_t, const Tensor*> _tensorsByUid;
    std::vector<int64_t> _inputUids;
    std::vector<int64_t> _outputUids;
};

}  // namespace hipdnn_flatbuffers_sdk
