#pragma once

#include "hipdnn_flatbuffers_sdk/FlatbufferError.hpp"
#include "hipdnn_flatbuffers_sdk/Operations.hpp"
#include "hipdnn_flatbuffers_sdk/data_objects/graph_generated.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace hipdnn_flatbuffers_sdk {

// One tensor connection of a node: the schema field it comes from without the
// "_tensor_uid" suffix ("x", "in_1", "peer_stats[2]"), the tensor uid, and its direction.
struct NodePort {
    std::string name;
    int64_t uid = 0;
    bool isOutput = false;

    bool operator==(const NodePort&) const = default;
};

// A read-only view of one node of a verified graph. It does not own the buffer: it is valid
// as long as the GraphWrapper (or buffer) it came from.
class NodeWrapper {
public:
    NodeWrapper(const data_objects::Node& node, size_t index) : _node(&node), _index(index) {}

    const data_objects::Node& node() const { return *_node; }
    size_t index() const { return _index; }
    data_objects::NodeAttributes type() const { return _node->attributes_type(); }

    // The union member name, e.g. "ConvolutionFwdAttributes"; empty for an unknown type.
    std::string_view typeName() const { return data_objects::EnumNameNodeAttributes(type()); }

    std::string_view name() const {
        return _node->name() != nullptr ? _node->name()->string_view() : std::string_view();
    }

    // The attributes table when the node is of type T, else nullptr.
    template <class T>
    const T* attributesAs() const {
        return _node->attributes_as<T>();
    }

    // "node 2 'relu' (PointwiseAttributes)": how error messages name a node.
    std::string describe() const {
        return "node " + std::to_string(_index) + " '" + std::string(name()) + "' (" +
               (typeName().empty() ? "type " + std::to_string(static_cast<int>(type()))
                                   : std::string(typeName())) +
               ")";
    }

    // Every tensor the node reads or writes, in schema field order. Optional ports appear only
    // when set; list ports (peer_stats) appear once per element. Throws GraphError when the
    // node has no attributes or an unknown attributes type.
    std::vector<NodePort> ports() const {
        if (_node->attributes() == nullptr || type() == data_objects::NodeAttributes::NONE) {
            throw GraphError(describe() + " has no attributes (NONE)");
        }
        std::vector<NodePort> ports;
        const bool known = operations::visitOperation(type(), [&]<class Attributes>(
                                                                  std::type_identity<Attributes>) {
            const auto& attributes = *attributesAs<Attributes>();
            operations::forEachPort(operations::OperationTraits<Attributes>::ports, [&](const auto& port) {
                if constexpr (std::decay_t<decltype(port)>::presence == operations::PortPresence::List) {
                    if (!hasAlignedElements((attributes.*port.uidOf)())) {
                        throw GraphError(describe() + " has a misaligned " + std::string(port.name) +
                                         " vector (corrupted buffer)");
                    }
                }
                operations::forEachUid(port, attributes, [&](const auto&, int64_t uid, int element) {
                    ports.push_back({element < 0
                                         ? std::string(port.name)
                                         : std::string(port.name) + "[" + std::to_string(element) + "]",
                                     uid, port.isOutput()});
                });
            });
        });
        if (!known && operations::isFormatOnly(type())) {
            throw GraphError(describe() + " is a " + data_objects::EnumNameNodeAttributes(type()) +
                             " node (type " + std::to_string(static_cast<int>(type())) +
                             "): part of the graph format, but no engine of this version runs it");
        }
        if (!known) {
            throw GraphError(describe() + " has an unknown attributes type " +
                             std::to_string(static_cast<int>(type())));
        }
        return ports;
    }

    std::vector<int64_t> inputUids() const { return uidsOf(false); }
    std::vector<int64_t> outputUids() const { return uidsOf(true); }

private:
    std::vector<int64_t> uidsOf(bool outputs) const {
        std::vector<int64_t> uids;
        for (const auto& port : ports()) {
            if (port.isOutput == outputs) {
                uids.push_back(port.uid);
            }
        }
        return uids;
    }

    const data_objects::Node* _node;
    size_t _index;
};

}  // namespace hipdnn_flatbuffers_sdk
