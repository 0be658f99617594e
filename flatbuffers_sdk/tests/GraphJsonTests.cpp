#include "TestGraphs.hpp"
#include "hipdnn_flatbuffers_sdk/Builders.hpp"
#include "hipdnn_flatbuffers_sdk/EngineConfigWrapper.hpp"
#include "hipdnn_flatbuffers_sdk/GraphJson.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace hipdnn_flatbuffers_sdk::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

TEST(GraphJson, RoundTripIsStable) {
    const auto bytes = convAddReluGraph().build();
    const std::string json = graphToJson(bytes.data(), bytes.size());
    const auto reparsed = graphFromJson(json);
    EXPECT_EQ(graphToJson(reparsed.data(), reparsed.size()), json);

    const GraphWrapper graph(reparsed.data(), reparsed.size());
    EXPECT_EQ(graph.nodeCount(), 3u);
    EXPECT_EQ(graph.node(1).attributesAs<fb::PointwiseAttributes>()->operation(), fb::PointwiseMode::ADD);
}

TEST(GraphJson, OutputIsStrictJsonWithEnumNames) {
    const auto bytes = convAddReluGraph().build();
    const std::string json = graphToJson(bytes.data(), bytes.size());
    EXPECT_THAT(json, AllOf(HasSubstr("\"name\": \"test_graph\""),
                            HasSubstr("\"attributes_type\": \"ConvolutionFwdAttributes\""),
                            HasSubstr("\"operation\": \"RELU_FWD\""), HasSubstr("\"virtual\": true"),
                            HasSubstr("\"conv_mode\": \"CROSS_CORRELATION\"")));
}

TEST(GraphJson, OnlyASingleTrailingNulTerminatorMayFollowTheDocument) {
    const auto bytes = convAddReluGraph().build();
    const std::string json = graphToJson(bytes.data(), bytes.size());
    EXPECT_EQ(graphFromJson(json + std::string(1, '\0')), graphFromJson(json));
    const std::string garbage = json + std::string(1, '\0') + "garbage";
    EXPECT_THAT([&] { graphFromJson(garbage); },
                ThrowsMessage<GraphError>(HasSubstr("byte " + std::to_string(json.size()) + " of " +
                                                    std::to_string(garbage.size()) + " is a NUL")));
    std::string inner = json;
    inner[1] = '\0';
    EXPECT_THAT(
        [&] { graphFromJson(inner); },
        ThrowsMessage<GraphError>(HasSubstr("byte 1 of " + std::to_string(inner.size()) + " is a NUL")));
}

TEST(GraphJson, MalformedJsonNamesTheParserError) {
    EXPECT_THAT([] { graphFromJson("{ \"name\": \"g\", "); },
                ThrowsMessage<GraphError>(HasSubstr("invalid Graph JSON")));
    EXPECT_THAT(
        [] { graphFromJson("{ \"no_such_field\": 1 }"); },
        ThrowsMessage<GraphError>(AllOf(HasSubstr("invalid Graph JSON"), HasSubstr("no_such_field"))));
    EXPECT_THAT([] { graphFromJson(""); }, ThrowsMessage<GraphError>(HasSubstr("invalid Graph JSON")));
}

TEST(GraphJson, JsonThatBreaksTheGraphContractIsRejected) {
    const std::string json = R"({
      "io_data_type": "FLOAT",
      "tensors": [ { "uid": 1, "name": "x", "dims": [4], "strides": [1] },
                   { "uid": 2, "name": "y", "dims": [4], "strides": [1] } ],
      "nodes": [ { "name": "neg", "attributes_type": "PointwiseAttributes",
                   "attributes": { "operation": "NEG", "in_0_tensor_uid": 7, "out_0_tensor_uid": 2 } } ]
    })";
    EXPECT_THAT([&] { graphFromJson(json); },
                ThrowsMessage<GraphError>(
                    HasSubstr("node 0 'neg' (PointwiseAttributes) port in_0 names tensor uid 7")));
}

TEST(GraphJson, HandWrittenGraphParses) {
    const std::string json = R"({
      "name": "hand",
      "tensors": [ { "uid": 1, "name": "x", "data_type": "HALF", "dims": [2, 3], "strides": [3, 1] },
                   { "uid": 2, "name": "y", "data_type": "HALF", "dims": [2, 3], "strides": [3, 1] } ],
      "nodes": [ { "name": "sig", "attributes_type": "PointwiseAttributes",
                   "attributes": { "operation": "SIGMOID_FWD", "in_0_tensor_uid": 1, "out_0_tensor_uid": 2 } } ]
    })";
    const auto bytes = graphFromJson(json);
    const GraphWrapper graph(bytes.data(), bytes.size());
    EXPECT_EQ(graph.tensor(1).data_type(), fb::DataType::HALF);
    EXPECT_EQ(graph.graph().name()->str(), "hand");
}

TEST(GraphJson, CorruptedBinaryIsRejected) {
    const std::vector<uint8_t> garbage(64, 0xFF);
    EXPECT_THAT([&] { graphToJson(garbage.data(), garbage.size()); },
                ThrowsMessage<GraphError>(HasSubstr("failed FlatBuffers verification")));
    EXPECT_THROW(graphToJson(nullptr, 10), GraphError);
}

TEST(GraphJson, UnionsThePrinterCannotHandleAreRejected) {
    // A union value without its type makes FlatBuffers' printer abort; it must be refused first.
    TestGraph untyped;
    untyped.tensor(1, "x", {4}).node("untyped", fb::NodeAttributes::NONE, [](Builder& b) {
        return fb::CreateMatmulAttributes(b, 1, 1, 1).Union();
    });
    const auto untypedBytes = untyped.build();
    EXPECT_THAT([&] { graphToJson(untypedBytes.data(), untypedBytes.size()); },
                ThrowsMessage<GraphError>(HasSubstr("union value without a type")));

    TestGraph unknown;
    unknown.tensor(1, "x", {4}).node("future", static_cast<fb::NodeAttributes>(99), [](Builder& b) {
        return fb::CreateMatmulAttributes(b, 1, 1, 1).Union();
    });
    const auto unknownBytes = unknown.build();
    EXPECT_THAT([&] { graphToJson(unknownBytes.data(), unknownBytes.size()); },
                ThrowsMessage<GraphError>(HasSubstr("cannot be printed as JSON")));
}

// Upstream hipDNN's JSON form: attribute fields beside the node's "type", a scalar as a bare
// number beside "value_type", the graph id as a UUID string.
constexpr const char* kUpstreamFormScaleGraph = R"({
  "name": "upstream", "compute_data_type": "FLOAT", "io_data_type": "FLOAT", "intermediate_data_type": "FLOAT",
  "is_override_shape_enabled": false, "id": "0123abcd-4567-89ef-0123-456789abcdef",
  "tensors": [
    {"uid": 1, "name": "x", "data_type": "FLOAT", "dims": [2, 3], "strides": [3, 1], "virtual": false,
     "alignment": 16, "is_runtime_pass_by_value": false},
    {"uid": 2, "name": "half", "data_type": "FLOAT", "dims": [1, 1], "strides": [1, 1], "virtual": false,
     "alignment": 16, "is_runtime_pass_by_value": false, "value_type": "Float32Value", "value": 0.5},
    {"uid": 3, "name": "y", "data_type": "FLOAT", "dims": [2, 3], "strides": [3, 1], "virtual": false,
     "alignment": 16, "is_runtime_pass_by_value": false}],
  "nodes": [
    {"name": "scale", "type": "PointwiseAttributes", "compute_data_type": "FLOAT", "operation": "MUL",
     "in_0_tensor_uid": 1, "in_1_tensor_uid": 2, "out_0_tensor_uid": 3}]
})";

TEST(GraphJson, UpstreamFormLoadsWithTheSameMeaning) {
    const auto bytes = graphFromJson(kUpstreamFormScaleGraph);
    const GraphWrapper graph(bytes.data(), bytes.size());
    ASSERT_EQ(graph.nodeCount(), 1u);
    const auto* mul = graph.node(0).attributesAs<fb::PointwiseAttributes>();
    ASSERT_NE(mul, nullptr);
    EXPECT_EQ(mul->operation(), fb::PointwiseMode::MUL);
    EXPECT_EQ(mul->in_1_tensor_uid(), 2);
    ASSERT_NE(graph.tensor(2).value_as_Float32Value(), nullptr);
    EXPECT_EQ(graph.tensor(2).value_as_Float32Value()->value(), 0.5F);
    const fb::Uuid* id = graph.graph().id();
    ASSERT_NE(id, nullptr);
    EXPECT_EQ(id->bytes()->Get(0), 0x01);
    EXPECT_EQ(id->bytes()->Get(15), 0xef);

    // Printed in the parser's form and read back, it is the same buffer.
    const std::string json = graphToJson(bytes.data(), bytes.size());
    EXPECT_THAT(json, AllOf(HasSubstr("\"attributes_type\": \"PointwiseAttributes\""),
                            HasSubstr("\"value_type\": \"Float32Value\"")));
    const auto reparsed = graphFromJson(json);
    EXPECT_EQ(graphToJson(reparsed.data(), reparsed.size()), json);
}

TEST(GraphJson, UpstreamFormWithGroupedPortsLoads) {
    const std::string json = R"({
      "name": "grouped", "compute_data_type": "FLOAT", "io_data_type": "FLOAT", "intermediate_data_type": "FLOAT",
      "tensors": [
        {"uid": 1, "name": "x", "data_type": "FLOAT", "dims": [4], "strides": [1], "virtual": false},
        {"uid": 2, "name": "y", "data_type": "FLOAT", "dims": [4], "strides": [1], "virtual": false}],
      "nodes": [{"name": "relu", "type": "PointwiseAttributes", "compute_data_type": "FLOAT",
                 "inputs": {"operation": "RELU_FWD", "in_0_tensor_uid": 1},
                 "outputs": {"out_0_tensor_uid": 2}}]
    })";
    const auto bytes = graphFromJson(json);
    const GraphWrapper graph(bytes.data(), bytes.size());
    EXPECT_EQ(graph.node(0).attributesAs<fb::PointwiseAttributes>()->operation(),
              fb::PointwiseMode::RELU_FWD);
    EXPECT_EQ(graph.node(0).attributesAs<fb::PointwiseAttributes>()->out_0_tensor_uid(), 2);
}

TEST(GraphJson, UpstreamFormErrorsNameTheValue) {
    std::string badId = kUpstreamFormScaleGraph;
    badId.replace(badId.find("0123abcd-4567"), 13, "not-a-uuid-at");
    EXPECT_THAT(
        [&] { graphFromJson(badId); },
        ThrowsMessage<GraphError>(AllOf(HasSubstr("graph id 'not-a-uuid-at"), HasSubstr("is not a UUID"))));

    std::string unknownField = kUpstreamFormScaleGraph;
    unknownField.replace(unknownField.find("\"operation\""), 11, "\"opration\"");
    EXPECT_THAT([&] { graphFromJson(unknownField); },
                ThrowsMessage<GraphError>(AllOf(HasSubstr("invalid Graph JSON"), HasSubstr("opration"))));

    std::string unknownType = kUpstreamFormScaleGraph;
    unknownType.replace(unknownType.find("\"PointwiseAttributes\""), 21, "\"PointwiseAttribute\"");
    EXPECT_THAT(
        [&] { graphFromJson(unknownType); },
        ThrowsMessage<GraphError>(AllOf(HasSubstr("invalid Graph JSON"), HasSubstr("PointwiseAttribute"))));
}

TEST(TableJson, EngineConfigAndDetailsPrintAndParse) {
    const auto config =
        makeEngineConfig(1234, {{"plugin.tile", int64_t{64}}, {"plugin.algo", std::string("fast")}});
    const std::string configJson = tableToJson(config.data(), config.size(), "EngineConfig");
    EXPECT_THAT(configJson, AllOf(HasSubstr("\"engine_id\": 1234"), HasSubstr("\"knob_id\": \"plugin.tile\""),
                                  HasSubstr("\"value_type\": \"IntValue\"")));
    const auto reparsed = tableFromJson(configJson, "EngineConfig");
    const EngineConfigWrapper wrapper(reparsed.data(), reparsed.size());
    EXPECT_EQ(wrapper.intKnob("plugin.tile"), 64);
    EXPECT_EQ(wrapper.stringKnob("plugin.algo"), "fast");

    const auto details = makeEngineDetails(
        7, "MY_ENGINE",
        {KnobDescription::intKnob("plugin.tile", "tile size", 64, IntKnobConstraint::range(16, 256, 16))},
        {fb::BehaviorNote::DETERMINISTIC});
    EXPECT_THAT(tableToJson(details.data(), details.size(), "EngineDetails"),
                AllOf(HasSubstr("\"name\": \"MY_ENGINE\""), HasSubstr("\"DETERMINISTIC\""),
                      HasSubstr("\"step\": 16")));
}

TEST(TableJson, UnknownRootTypeAndWrongBufferAreRejected) {
    const auto config = makeEngineConfig(1, {});
    EXPECT_THAT([&] { tableToJson(config.data(), config.size(), "Nope"); },
                ThrowsMessage<FlatbufferError>(
                    AllOf(HasSubstr("unknown JSON root type 'Nope'"), HasSubstr("EngineConfig"))));
    EXPECT_THAT([] { tableFromJson("{}", "Nope"); }, ThrowsMessage<FlatbufferError>(HasSubstr("'Nope'")));
}

}  // namespace
}  // namespace hipdnn_flatbuffers_sdk::test
