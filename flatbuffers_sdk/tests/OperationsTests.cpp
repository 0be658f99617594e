// The operation catalogue against the schema: every tensor field of every attributes table is a
// port of its traits block, in schema order, and nothing else is; every union member has a block.
#include "TestGraphs.hpp"

#include "hipdnn_flatbuffers_sdk/GraphWrapper.hpp"
#include "hipdnn_flatbuffers_sdk/Operations.hpp"
#include "hipdnn_flatbuffers_sdk/PassByValue.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;
namespace ops = hipdnn_flatbuffers_sdk::operations;
using hipdnn_flatbuffers_sdk::GraphError;
using hipdnn_flatbuffers_sdk::GraphWrapper;
using hipdnn_flatbuffers_sdk::test::TestGraph;

constexpr std::string_view kUidSuffix = "_tensor_uid";
// Upstream's name for GEN_INDEX's axis, an index rather than a tensor uid.
constexpr std::string_view kNotATensor = "axis_tensor_uid";

// The schema's tensor fields of a table, from the mini-reflection type table flatc generates.
template <class Attributes>
std::vector<std::string> schemaTensorFields() {
    const flatbuffers::TypeTable* table = Attributes::MiniReflectTypeTable();
    std::vector<std::string> fields;
    for (size_t i = 0; i < table->num_elems; ++i) {
        const std::string_view name = table->names[i];
        if (name.size() > kUidSuffix.size() && name.ends_with(kUidSuffix) && name != kNotATensor) {
            fields.emplace_back(name.substr(0, name.size() - kUidSuffix.size()));
        }
    }
    return fields;
}

template <class Attributes>
std::vector<std::string> catalogueTensorPorts() {
    std::vector<std::string> ports;
    ops::forEachPort(ops::OperationTraits<Attributes>::ports,
                     [&](const auto& port) { ports.emplace_back(port.name); });
    return ports;
}

template <class... Attributes>
void expectPortsMatchSchema(ops::OperationList<Attributes...>) {
    (
        [] {
            EXPECT_EQ(catalogueTensorPorts<Attributes>(), schemaTensorFields<Attributes>())
                << fb::EnumNameNodeAttributes(fb::NodeAttributesTraits<Attributes>::enum_value);
            EXPECT_FALSE(ops::OperationTraits<Attributes>::name.empty());
        }(),
        ...);
}

TEST(OperationCatalogue, PortsAreTheSchemaTensorFieldsInOrder) {
    expectPortsMatchSchema(ops::Operations{});
}

TEST(OperationCatalogue, EveryUnionMemberHasOneOperation) {
    std::set<fb::NodeAttributes> visited;
    for (auto type : fb::EnumValuesNodeAttributes()) {
        int calls = 0;
        const bool known = ops::visitOperation(type, [&]<class Attributes>(std::type_identity<Attributes>) {
            ++calls;
            // A copy: the generated `static const` member has no out-of-class definition to bind to.
            const fb::NodeAttributes visitedType = fb::NodeAttributesTraits<Attributes>::enum_value;
            EXPECT_EQ(visitedType, type);
            visited.insert(type);
        });
        EXPECT_EQ(known, type != fb::NodeAttributes::NONE && !ops::isFormatOnly(type))
            << fb::EnumNameNodeAttributes(type);
        EXPECT_EQ(calls, known ? 1 : 0);
    }
    EXPECT_EQ(visited.size() + ops::operationCount(ops::FormatOnlyOperations{}),
              static_cast<size_t>(fb::NodeAttributes::MAX));
    EXPECT_TRUE(ops::isFormatOnly(fb::NodeAttributes::CustomOpAttributes));
    EXPECT_FALSE(ops::isFormatOnly(fb::NodeAttributes::SdpaAttributes));
    EXPECT_FALSE(ops::isFormatOnly(fb::NodeAttributes::SdpaBackwardAttributes));
    EXPECT_FALSE(ops::isFormatOnly(fb::NodeAttributes::MatmulAttributes));
    EXPECT_FALSE(ops::visitOperation(static_cast<fb::NodeAttributes>(200), [](auto) {}));
}

TEST(OperationCatalogue, PresenceFollowsTheFieldType) {
    using Batchnorm = ops::OperationTraits<fb::BatchnormAttributes>;
    EXPECT_EQ(std::get<0>(Batchnorm::ports).presence, ops::PortPresence::Required);  // x
    EXPECT_EQ(std::get<4>(Batchnorm::ports).presence, ops::PortPresence::List);      // peer_stats
    EXPECT_EQ(std::get<5>(Batchnorm::ports).presence, ops::PortPresence::Optional);  // prev_running_mean
    EXPECT_EQ(std::get<3>(Batchnorm::ports).role, ops::PortRole::Scalar);            // epsilon
    EXPECT_TRUE(std::get<8>(Batchnorm::ports).isOutput());                           // y
}

TEST(OperationCatalogue, NodePortsListEachPeerStatisticAndOnlySetOptionals) {
    const auto bytes = TestGraph()
                           .tensor(1, "x", {2, 3, 4, 4})
                           .tensor(2, "scale", {1, 3, 1, 1})
                           .tensor(3, "bias", {1, 3, 1, 1})
                           .tensor(hipdnn_flatbuffers_sdk::test::scalarTensor(4, "eps", 1e-5F))
                           .tensor(5, "peer0", {1, 3, 1, 1})
                           .tensor(6, "peer1", {1, 3, 1, 1})
                           .tensor(7, "y", {2, 3, 4, 4})
                           .tensor(8, "mean", {1, 3, 1, 1})
                           .tensor(9, "inv_variance", {1, 3, 1, 1})
                           .node("bn", fb::NodeAttributes::BatchnormAttributes,
                                 [](auto& b) {
                                     const std::vector<int64_t> peers{5, 6};
                                     return fb::CreateBatchnormAttributesDirect(
                                                b, 1, 2, 3, 4, &peers, flatbuffers::nullopt,
                                                flatbuffers::nullopt, flatbuffers::nullopt, 7, 8, 9)
                                         .Union();
                                 })
                           .build();
    const GraphWrapper graph(bytes.data(), bytes.size());
    using Port = hipdnn_flatbuffers_sdk::NodePort;
    const std::vector<Port> expected{
        {"x", 1, false},       {"scale", 2, false},         {"bias", 3, false},
        {"epsilon", 4, false}, {"peer_stats[0]", 5, false}, {"peer_stats[1]", 6, false},
        {"y", 7, true},        {"mean", 8, true},           {"inv_variance", 9, true}};
    EXPECT_EQ(graph.node(0).ports(), expected);
    EXPECT_EQ(graph.inputUids(), (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(graph.outputUids(), (std::vector<int64_t>{7, 8, 9}));
}

// A contract violation is reported by GraphWrapper, so the backend, every plugin and the test
// SDK refuse the same graphs with the same message.
TEST(OperationCatalogue, ContractViolationsNameNodePortAndValues) {
    const auto badStatistic = TestGraph()
                                  .tensor(1, "x", {2, 3, 4, 4})
                                  .tensor(2, "scale", {1, 4, 1, 1})
                                  .tensor(3, "bias", {1, 3, 1, 1})
                                  .tensor(hipdnn_flatbuffers_sdk::test::scalarTensor(4, "eps", 1e-5F))
                                  .tensor(7, "y", {2, 3, 4, 4})
                                  .node("bn", fb::NodeAttributes::BatchnormAttributes,
                                        [](auto& b) {
                                            return fb::CreateBatchnormAttributesDirect(
                                                       b, 1, 2, 3, 4, nullptr, flatbuffers::nullopt,
                                                       flatbuffers::nullopt, flatbuffers::nullopt, 7)
                                                .Union();
                                        })
                                  .build();
    try {
        const GraphWrapper graph(badStatistic.data(), badStatistic.size());
        FAIL() << "a batch norm scale of the wrong channel count was accepted";
    } catch (const GraphError& error) {
        EXPECT_STREQ(
            error.what(),
            "node 0 'bn' (BatchnormAttributes): port scale (tensor uid 2 'scale') has dims [1, 4, 1, 1]; "
            "a per-channel tensor needs (1, 3, 1, ...)");
    }

    const auto badMatmul = TestGraph()
                               .tensor(1, "a", {2, 4, 5})
                               .tensor(2, "b", {2, 6, 3})
                               .tensor(3, "c", {2, 4, 3})
                               .node("mm", fb::NodeAttributes::MatmulAttributes,
                                     [](auto& b) { return fb::CreateMatmulAttributes(b, 1, 2, 3).Union(); })
                               .build();
    try {
        const GraphWrapper graph(badMatmul.data(), badMatmul.size());
        FAIL() << "a matmul with mismatched K was accepted";
    } catch (const GraphError& error) {
        EXPECT_STREQ(
            error.what(),
            "node 0 'mm' (MatmulAttributes): port b (tensor uid 2 'b') has K = dims[1] = 6 but a has K = 5");
    }
}

}  // namespace

namespace {

template <class Create>
std::optional<double> numberOf(fb::TensorValue type, Create create) {
    flatbuffers::FlatBufferBuilder b;
    const std::vector<int64_t> one{1};
    b.Finish(fb::CreateTensorAttributesDirect(b, 1, "s", fb::DataType::FLOAT, &one, &one, false, type,
                                              type == fb::TensorValue::NONE ? 0 : create(b)));
    return hipdnn_flatbuffers_sdk::passByValueNumber(
        *flatbuffers::GetRoot<fb::TensorAttributes>(b.GetBufferPointer()));
}

TEST(PassByValue, EveryNumericKindReadsAsANumber) {
    using V = fb::TensorValue;
    using B = flatbuffers::FlatBufferBuilder;
    EXPECT_EQ(numberOf(V::Float32Value, [](B& b) { return b.CreateStruct(fb::Float32Value(1.5F)).Union(); }),
              1.5);
    EXPECT_EQ(numberOf(V::Float16Value, [](B& b) { return b.CreateStruct(fb::Float16Value(-2.0F)).Union(); }),
              -2.0);
    EXPECT_EQ(
        numberOf(V::BFloat16Value, [](B& b) { return b.CreateStruct(fb::BFloat16Value(0.25F)).Union(); }),
        0.25);
    EXPECT_EQ(
        numberOf(V::Float64Value, [](B& b) { return b.CreateStruct(fb::Float64Value(1e-300)).Union(); }),
        1e-300);
    EXPECT_EQ(numberOf(V::Int32Value, [](B& b) { return b.CreateStruct(fb::Int32Value(-7)).Union(); }), -7.0);
    EXPECT_EQ(numberOf(V::Int64Value,
                       [](B& b) { return b.CreateStruct(fb::Int64Value(int64_t{1} << 40)).Union(); }),
              static_cast<double>(int64_t{1} << 40));
    EXPECT_EQ(numberOf(V::BoolValue, [](B& b) { return b.CreateStruct(fb::BoolValue(true)).Union(); }), 1.0);
    EXPECT_EQ(numberOf(V::Float8Value, [](B& b) { return b.CreateStruct(fb::Float8Value(0x38)).Union(); }),
              std::nullopt);
    EXPECT_EQ(numberOf(V::NONE, [](B&) { return flatbuffers::Offset<void>(); }), std::nullopt);
}

}  // namespace
