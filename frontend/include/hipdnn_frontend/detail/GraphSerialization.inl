// Graph <-> Graph FlatBuffer (binary and JSON) and the cache key. Included by Graph.hpp.
#pragma once

#include <set>
#include <string_view>
#include <type_traits>

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_flatbuffers_sdk/GraphJson.hpp>
#include <hipdnn_flatbuffers_sdk/Operations.hpp>

namespace hipdnn_frontend::detail {

using graph::TensorAttributes;

template <class... Nodes>
struct NodeList {};

// The node class of each operation of the catalogue (hipdnn_flatbuffers_sdk/Operations.hpp).
using SerializableNodes =
    NodeList<graph::BatchnormInferenceNode, graph::PointwiseNode, graph::BatchnormBackwardNode,
             graph::BatchnormNode, graph::ConvFpropNode, graph::ConvDgradNode, graph::ConvWgradNode,
             graph::BatchnormInferenceVarianceNode, graph::MatmulNode, graph::RmsnormNode,
             graph::LayernormNode, graph::SdpaNode, graph::SdpaBackwardNode, graph::RmsnormBackwardNode,
             graph::ReductionNode, graph::ResampleNode, graph::LayernormBackwardNode>;

template <class Attributes, class... Nodes>
constexpr bool hasNodeFor(NodeList<Nodes...>) {
    return (std::is_same_v<typename Nodes::Schema, Attributes> || ...);
}

template <class... Attributes>
constexpr bool everyOperationHasANode(hipdnn_flatbuffers_sdk::operations::OperationList<Attributes...>) {
    return (hasNodeFor<Attributes>(SerializableNodes{}) && ...);
}

static_assert(everyOperationHasANode(hipdnn_flatbuffers_sdk::operations::Operations{}),
              "every operation of the catalogue needs a frontend node in SerializableNodes");

// Calls visit(std::type_identity<Node>{}) for the node class whose schema table is `type`; false
// when there is none.
template <class Visitor>
bool visitNodeType(fbs::NodeAttributes type, Visitor&& visit) {
    return [&]<class... Nodes>(NodeList<Nodes...>) {
        return ((fbs::NodeAttributesTraits<typename Nodes::Schema>::enum_value == type
                     ? (visit(std::type_identity<Nodes>{}), true)
                     : false) ||
                ...);
    }(SerializableNodes{});
}

inline std::pair<fbs::TensorValue, flatbuffers::Offset<void>> packValue(
    flatbuffers::FlatBufferBuilder& builder, const TensorAttributes& tensor) {
    const auto& value = tensor.get_pass_by_value();
    if (!value) {
        return {fbs::TensorValue::NONE, 0};
    }
    if (const auto* real = std::get_if<float>(&*value)) {
        // Half and bfloat16 scalars are stored as float, tagged with their type.
        switch (tensor.get_data_type()) {
            case DataType::HALF:
                return {fbs::TensorValue::Float16Value,
                        builder.CreateStruct(fbs::Float16Value(*real)).Union()};
            case DataType::BFLOAT16:
                return {fbs::TensorValue::BFloat16Value,
                        builder.CreateStruct(fbs::BFloat16Value(*real)).Union()};
            default:
                return {fbs::TensorValue::Float32Value,
                        builder.CreateStruct(fbs::Float32Value(*real)).Union()};
        }
    }
    if (const auto* real = std::get_if<double>(&*value)) {
        return {fbs::TensorValue::Float64Value, builder.CreateStruct(fbs::Float64Value(*real)).Union()};
    }
    if (const auto* number = std::get_if<int32_t>(&*value)) {
        return {fbs::TensorValue::Int32Value, builder.CreateStruct(fbs::Int32Value(*number)).Union()};
    }
    return {fbs::TensorValue::Int64Value,
            builder.CreateStruct(fbs::Int64Value(std::get<int64_t>(*value))).Union()};
}

inline Error unpackValue(const fbs::TensorAttributes& source, TensorAttributes& tensor) {
    switch (source.value_type()) {
        case fbs::TensorValue::NONE:
            return {};
        case fbs::TensorValue::Float32Value:
            tensor.set_value(source.value_as_Float32Value()->value());
            return {};
        case fbs::TensorValue::Float16Value:
            tensor.set_value(source.value_as_Float16Value()->value());
            return {};
        case fbs::TensorValue::BFloat16Value:
            tensor.set_value(source.value_as_BFloat16Value()->value());
            return {};
        case fbs::TensorValue::Float64Value:
            tensor.set_value(source.value_as_Float64Value()->value());
            return {};
        case fbs::TensorValue::Int32Value:
            tensor.set_value(source.value_as_Int32Value()->value());
            return {};
        case fbs::TensorValue::Int64Value:
            tensor.set_value(source.value_as_Int64Value()->value());
            return {};
        default:
            break;
    }
    return {ErrorCode::INVALID_VALUE, "tensor uid " + std::to_string(source.uid()) + " has a pass-by-value " +
                                          fbs::EnumNameTensorValue(source.value_type()) +
                                          ", which the frontend does not represent"};
}

}  // namespace hipdnn_frontend::detail

namespace hipdnn_frontend::graph {

inline UidMap Graph::assignUids(bool commit) const {
    const auto tensors = collectTensors();
    std::set<int64_t> used;
    for (const auto& tensor : tensors) {
        if (tensor->has_uid() && !tensor->uid_assigned_by_graph()) {
            used.insert(tensor->get_uid());
        }
    }
    UidMap uids;
    int64_t next = 0;
    for (const auto& tensor : tensors) {
        if (tensor->has_uid() && !tensor->uid_assigned_by_graph()) {
            uids[tensor.get()] = tensor->get_uid();
            continue;
        }
        while (used.count(next) != 0) {
            ++next;
        }
        used.insert(next);
        uids[tensor.get()] = next;
        if (commit) {
            tensor->assign_uid_from_graph(next);
        }
    }
    return uids;
}

inline std::vector<uint8_t> Graph::toFlatbuffer(const UidMap& uids, bool withNames) const {
    flatbuffers::FlatBufferBuilder builder;
    std::vector<flatbuffers::Offset<fbs::TensorAttributes>> tensors;
    for (const auto& tensor : collectTensors()) {
        const auto name = builder.CreateString(withNames ? tensor->get_name() : std::string());
        const auto strides = builder.CreateVector(tensor->get_stride());
        const auto dims = builder.CreateVector(tensor->get_dim());
        const auto [valueType, value] = detail::packValue(builder, *tensor);
        tensors.push_back(fbs::CreateTensorAttributes(
            builder, uids.at(tensor.get()), name, hipdnn_frontend::detail::toFbs(tensor->get_data_type()),
            strides, dims, tensor->get_is_virtual(), valueType, value));
    }
    std::vector<flatbuffers::Offset<fbs::Node>> nodes;
    for (const auto& node : nodes_) {
        nodes.push_back(node->pack(builder, uids, withNames));
    }
    const auto tensorVector = builder.CreateVector(tensors);
    const auto nodeVector = builder.CreateVector(nodes);
    const auto name = builder.CreateString(withNames ? name_ : std::string());
    builder.Finish(fbs::CreateGraph(
        builder, name, hipdnn_frontend::detail::toFbs(context_.computeDataType),
        hipdnn_frontend::detail::toFbs(context_.intermediateDataType),
        hipdnn_frontend::detail::toFbs(context_.ioDataType), tensorVector, nodeVector,
        preferredEngineId_ ? flatbuffers::Optional<int64_t>(*preferredEngineId_) : flatbuffers::nullopt,
        overrideShapeEnabled_));
    return {builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize()};
}

inline Error Graph::fromFlatbuffer(const std::vector<uint8_t>& data) {
    flatbuffers::Verifier verifier(data.data(), data.size());
    HIPDNN_RETURN_FRONTEND_ERROR_IF(
        !fbs::VerifyGraphBuffer(verifier), ErrorCode::INVALID_VALUE,
        "the " + std::to_string(data.size()) + " bytes are not a valid Graph FlatBuffer (verifier failed)");
    const fbs::Graph& source = *fbs::GetGraph(data.data());

    name_ = source.name() ? source.name()->str() : std::string();
    context_.computeDataType = hipdnn_frontend::detail::fromFbs(source.compute_data_type());
    context_.intermediateDataType = hipdnn_frontend::detail::fromFbs(source.intermediate_data_type());
    context_.ioDataType = hipdnn_frontend::detail::fromFbs(source.io_data_type());
    preferredEngineId_ =
        source.preferred_engine_id() ? std::optional<int64_t>(*source.preferred_engine_id()) : std::nullopt;
    preferredEngineName_.reset();
    overrideShapeEnabled_ = source.is_override_shape_enabled();
    nodes_.clear();
    resetPlans();

    detail::TensorLookup lookup;
    if (source.tensors()) {
        for (const auto* sourceTensor : *source.tensors()) {
            auto tensor = std::make_shared<TensorAttributes>();
            tensor->set_uid(sourceTensor->uid())
                .set_name(sourceTensor->name() ? sourceTensor->name()->str() : std::string())
                .set_data_type(hipdnn_frontend::detail::fromFbs(sourceTensor->data_type()))
                .set_dim(detail::toVector(sourceTensor->dims()))
                .set_stride(detail::toVector(sourceTensor->strides()))
                .set_is_virtual(sourceTensor->virtual_());
            HIPDNN_CHECK_FRONTEND_ERROR(detail::unpackValue(*sourceTensor, *tensor));
            lookup.add(sourceTensor->uid(), tensor);
        }
    }
    if (source.nodes()) {
        for (const auto* node : *source.nodes()) {
            const std::string nodeName = node->name() ? node->name()->str() : std::string();
            const DataType compute = hipdnn_frontend::detail::fromFbs(node->compute_data_type());
            const bool known =
                detail::visitNodeType(node->attributes_type(), [&]<class NodeT>(std::type_identity<NodeT>) {
                    auto attributes = NodeT::unpack(*node->attributes_as<typename NodeT::Schema>(), lookup);
                    attributes.set_name(nodeName).set_compute_data_type(compute);
                    addNode<NodeT>(std::move(attributes), "node");
                });
            HIPDNN_RETURN_FRONTEND_ERROR_IF(!known, ErrorCode::INVALID_VALUE,
                                            "node '" + nodeName + "' has attributes of type " +
                                                fbs::EnumNameNodeAttributes(node->attributes_type()) +
                                                ", which the frontend does not know");
            HIPDNN_RETURN_FRONTEND_ERROR_IF(!lookup.missing().empty(), ErrorCode::INVALID_VALUE,
                                            "node '" + nodeName + "' names tensor uid " +
                                                std::to_string(lookup.missing().front()) +
                                                ", which the graph does not have");
        }
    }
    return {};
}

inline Error Graph::serialize(std::vector<uint8_t>& data) {
    HIPDNN_CHECK_FRONTEND_ERROR(validate());
    data = toFlatbuffer(assignUids(/*commit=*/true), /*withNames=*/true);
    return {};
}

inline Error Graph::serialize(std::vector<uint8_t>& data) const {
    // Without validate() the output tensors may lack dims and strides; build_operation_graph
    // validated the graph and committed its uids, so a built graph serializes as it stands.
    HIPDNN_RETURN_FRONTEND_ERROR_IF(
        operationGraph_ == nullptr, ErrorCode::INVALID_STATE,
        "serialize on a const graph ('" + name_ + "') needs build_operation_graph (or build) first");
    data = toFlatbuffer(assignUids(/*commit=*/false), /*withNames=*/true);
    return {};
}

inline Error Graph::serialize(std::string& json) {
    std::vector<uint8_t> data;
    HIPDNN_CHECK_FRONTEND_ERROR(serialize(data));
    return bytesToJson(data, json);
}

inline Error Graph::serialize(std::string& json) const {
    std::vector<uint8_t> data;
    HIPDNN_CHECK_FRONTEND_ERROR(serialize(data));
    return bytesToJson(data, json);
}

inline Error Graph::bytesToJson(const std::vector<uint8_t>& data, std::string& json) {
    try {
        json = hipdnn_flatbuffers_sdk::graphToJson(data.data(), data.size());
    } catch (const std::exception& error) {
        return {ErrorCode::INVALID_VALUE, std::string("graph to JSON failed: ") + error.what()};
    }
    return {};
}

inline Error Graph::deserialize(hipdnnHandle_t handle, const std::vector<uint8_t>& data) {
    HIPDNN_CHECK_FRONTEND_ERROR(fromFlatbuffer(data));
    HIPDNN_CHECK_FRONTEND_ERROR(validate());
    return handle == nullptr ? Error{} : build_operation_graph(handle);
}

inline Error Graph::deserialize(hipdnnHandle_t handle, const std::string& json) {
    std::vector<uint8_t> data;
    try {
        data = hipdnn_flatbuffers_sdk::graphFromJson(json);
    } catch (const std::exception& error) {
        return {ErrorCode::INVALID_VALUE, std::string("graph from JSON failed: ") + error.what()};
    }
    return deserialize(handle, data);
}

inline int64_t Graph::key() {
    // Inference fills in dims and strides, so a graph hashes the same before and after validate;
    // an invalid graph still gets a deterministic key of what it holds.
    static_cast<void>(validate());
    const auto bytes = toFlatbuffer(assignUids(/*commit=*/false), /*withNames=*/false);
    return static_cast<int64_t>(hipdnn_data_sdk::utilities::fnv1aHash(
        std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size())));
}

}  // namespace hipdnn_frontend::graph
