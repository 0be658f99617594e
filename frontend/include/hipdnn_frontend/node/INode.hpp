// The node interface the graph walks. A node checks its attributes, infers its outputs and writes
// itself into the serialized graph; NodeBase supplies the plumbing shared by every operation.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <flatbuffers/flatbuffers.h>

#include "../Error.hpp"
#include "../Types.hpp"
#include "../attributes/TensorAttributes.hpp"
#include "../detail/Validation.hpp"

namespace hipdnn_frontend::graph {

// The graph-wide data types nodes fall back on.
struct GraphContext {
    DataType ioDataType = DataType::NOT_SET;
    DataType intermediateDataType = DataType::NOT_SET;
    DataType computeDataType = DataType::NOT_SET;
};

// Serialization-time uid of each tensor (user-given or assigned by the graph).
using UidMap = std::unordered_map<const TensorAttributes*, int64_t>;

struct TensorPort {
    std::string_view port;
    std::shared_ptr<TensorAttributes> tensor;
};

class INode {
public:
    virtual ~INode() = default;

    [[nodiscard]] virtual NodeType type() const = 0;
    [[nodiscard]] virtual const std::string& name() const = 0;
    virtual void setName(std::string name) = 0;
    // Connected ports only, in port order.
    [[nodiscard]] virtual std::vector<TensorPort> inputs() const = 0;
    [[nodiscard]] virtual std::vector<TensorPort> outputs() const = 0;
    // Checks the attributes and inputs, then fills in output dims, strides and data types.
    virtual Error inferAndValidate(const GraphContext& context) = 0;
    // withName false leaves the node name out (for Graph::key).
    [[nodiscard]] virtual flatbuffers::Offset<fbs::Node> pack(flatbuffers::FlatBufferBuilder& builder,
                                                              const UidMap& uids, bool withName) const = 0;
};

}  // namespace hipdnn_frontend::graph

namespace hipdnn_frontend::detail {

using graph::UidMap;

inline int64_t uidOf(const UidMap& uids, const std::shared_ptr<TensorAttributes>& tensor) {
    return uids.at(tensor.get());
}

inline flatbuffers::Optional<int64_t> optionalUidOf(const UidMap& uids,
                                                    const std::shared_ptr<TensorAttributes>& tensor) {
    if (!tensor) {
        return flatbuffers::nullopt;
    }
    return uids.at(tensor.get());
}

inline flatbuffers::Offset<flatbuffers::Vector<int64_t>> uidVector(
    flatbuffers::FlatBufferBuilder& builder, const UidMap& uids,
    const std::vector<std::shared_ptr<TensorAttributes>>& tensors) {
    // No tensors: the field stays absent rather than an empty vector.
    if (tensors.empty()) {
        return 0;
    }
    std::vector<int64_t> values;
    values.reserve(tensors.size());
    for (const auto& tensor : tensors) {
        values.push_back(uids.at(tensor.get()));
    }
    return builder.CreateVector(values);
}

}  // namespace hipdnn_frontend::detail

namespace hipdnn_frontend::graph {

// Derived provides: static constexpr NodeType kType, `using Schema = fbs::<attributes table>` (the
// operation's key in the catalogue of hipdnn_flatbuffers_sdk/Operations.hpp), static
// std::string_view portName(InputNames) and portName(OutputNames), Error
// inferAndValidateNode(const GraphContext&), flatbuffers::Offset<Schema> packAttributes(builder,
// uids) const and static Attributes unpack(const Schema&, const detail::TensorLookup&).
template <typename Derived, typename Attributes>
class NodeBase : public INode {
public:
    explicit NodeBase(Attributes attributesIn) : attributes(std::move(attributesIn)) {}

    Attributes attributes;

    [[nodiscard]] NodeType type() const override { return Derived::kType; }
    [[nodiscard]] const std::string& name() const override { return attributes.get_name(); }
    void setName(std::string name) override { attributes.set_name(std::move(name)); }

    [[nodiscard]] std::vector<TensorPort> inputs() const override {
        std::vector<TensorPort> ports;
        for (const auto& [port, tensor] : attributes.inputs) {
            if (tensor) {
                ports.push_back({Derived::portName(port), tensor});
            }
        }
        return ports;
    }
    [[nodiscard]] std::vector<TensorPort> outputs() const override {
        std::vector<TensorPort> ports;
        for (const auto& [port, tensor] : attributes.outputs) {
            if (tensor) {
                ports.push_back({Derived::portName(port), tensor});
            }
        }
        return ports;
    }

    Error inferAndValidate(const GraphContext& context) override {
        if (attributes.get_compute_data_type() == DataType::NOT_SET) {
            attributes.set_compute_data_type(context.computeDataType);
        }
        HIPDNN_CHECK_FRONTEND_ERROR(static_cast<Derived*>(this)->inferAndValidateNode());
        // Outputs nobody typed take the intermediate type when virtual, the io type otherwise.
        for (const auto& [port, tensor] : attributes.outputs) {
            if (tensor && tensor->get_data_type() == DataType::NOT_SET) {
                tensor->set_data_type(tensor->get_is_virtual() ? context.intermediateDataType
                                                               : context.ioDataType);
            }
        }
        return {};
    }

    [[nodiscard]] flatbuffers::Offset<fbs::Node> pack(flatbuffers::FlatBufferBuilder& builder,
                                                      const UidMap& uids, bool withName) const override {
        using Schema = typename Derived::Schema;
        const auto attributeOffset = static_cast<const Derived*>(this)->packAttributes(builder, uids);
        return fbs::CreateNode(builder,
                               builder.CreateString(withName ? attributes.get_name() : std::string()),
                               hipdnn_frontend::detail::toFbs(attributes.get_compute_data_type()),
                               fbs::NodeAttributesTraits<Schema>::enum_value, attributeOffset.Union());
    }

protected:
    using InputNames = typename Attributes::InputNames;
    using OutputNames = typename Attributes::OutputNames;

    [[nodiscard]] std::shared_ptr<TensorAttributes> in(InputNames port) const {
        return attributes.input(port);
    }
    [[nodiscard]] std::shared_ptr<TensorAttributes> out(OutputNames port) const {
        return attributes.output(port);
    }

    Error requireInput(InputNames port) const {
        return hipdnn_frontend::detail::requireDims(name(), Derived::portName(port), in(port));
    }
    Error requireOutput(OutputNames port) const {
        return hipdnn_frontend::detail::requireTensor(name(), Derived::portName(port), out(port));
    }
    // Infers (or checks) the dims of an output and gives it strides in the order of `like`.
    Error inferOutput(OutputNames port, const std::vector<int64_t>& dims, InputNames like) const {
        auto tensor = out(port);
        HIPDNN_CHECK_FRONTEND_ERROR(
            hipdnn_frontend::detail::requireTensor(name(), Derived::portName(port), tensor));
        HIPDNN_CHECK_FRONTEND_ERROR(
            hipdnn_frontend::detail::inferOrCheckDims(name(), Derived::portName(port), *tensor, dims));
        hipdnn_frontend::detail::inferStrides(*tensor, in(like).get());
        return {};
    }
};

}  // namespace hipdnn_frontend::graph
