// Binary and JSON round trips, deserialization errors (cycles, double writers, unknown uids) and
// the cache key. No backend involved (deserialize without a handle).
#include "FrontendTestUtils.hpp"

using namespace hipdnn_frontend_tests;
using fe::ErrorCode;
namespace fbs = hipdnn_flatbuffers_sdk::data_objects;

namespace {

// conv + bias + relu, the graph every sample starts from.
Graph convBiasRelu(const std::string& prefix = "", std::vector<int64_t> xDims = {2, 4, 8, 8}) {
    Graph graph = floatGraph(prefix + "conv_bias_relu");
    auto x = input(graph, prefix + "x", xDims);
    auto w = input(graph, prefix + "w", {6, xDims[1], 3, 3});
    auto bias = input(graph, prefix + "bias", {1, 6, 1, 1});
    auto y = graph.conv_fprop(x, w, conv3x3().set_name(prefix + "conv"));
    auto biased = graph.pointwise(y, bias, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::ADD));
    auto relu = graph.pointwise(biased, fe::graph::PointwiseAttributes()
                                            .set_mode(fe::PointwiseMode::RELU_FWD)
                                            .set_relu_lower_clip(0.0f)
                                            .set_name(prefix + "relu"));
    relu->set_output(true);
    return graph;
}

// A serialized graph of two ABS nodes: node0 reads `in0` and writes `out0`, node1 reads `in1`
// and writes `out1`, over tensors with uids 1, 2, 3.
std::vector<uint8_t> twoNodeGraph(int64_t in0, int64_t out0, int64_t in1, int64_t out1) {
    flatbuffers::FlatBufferBuilder builder;
    std::vector<flatbuffers::Offset<fbs::TensorAttributes>> tensors;
    for (int64_t uid : {1, 2, 3}) {
        tensors.push_back(fbs::CreateTensorAttributes(
            builder, uid, builder.CreateString("t" + std::to_string(uid)), fbs::DataType::FLOAT,
            builder.CreateVector<int64_t>({1}), builder.CreateVector<int64_t>({4}), uid != 1));
    }
    auto node = [&](const char* name, int64_t in, int64_t out) {
        auto attributes = fbs::CreatePointwiseAttributes(
            builder, fbs::PointwiseMode::ABS, flatbuffers::nullopt, flatbuffers::nullopt,
            flatbuffers::nullopt, flatbuffers::nullopt, in, flatbuffers::nullopt, flatbuffers::nullopt, out);
        return fbs::CreateNode(builder, builder.CreateString(name), fbs::DataType::FLOAT,
                               fbs::NodeAttributes::PointwiseAttributes, attributes.Union());
    };
    std::vector<flatbuffers::Offset<fbs::Node>> nodes{node("first", in0, out0), node("second", in1, out1)};
    builder.Finish(fbs::CreateGraph(builder, builder.CreateString("crafted"), fbs::DataType::FLOAT,
                                    fbs::DataType::FLOAT, fbs::DataType::FLOAT, builder.CreateVector(tensors),
                                    builder.CreateVector(nodes)));
    return {builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize()};
}

}  // namespace

TEST(FrontendSerialization, BinaryRoundTripKeepsEverything) {
    Graph graph = convBiasRelu();
    std::vector<uint8_t> bytes;
    ASSERT_FE_OK(graph.serialize(bytes));
    ASSERT_FALSE(bytes.empty());

    Graph restored;
    ASSERT_FE_OK(restored.deserialize(nullptr, bytes));
    EXPECT_EQ(restored.get_name(), "conv_bias_relu");
    EXPECT_EQ(restored.get_io_data_type(), fe::DataType::FLOAT);
    std::vector<uint8_t> again;
    ASSERT_FE_OK(restored.serialize(again));
    EXPECT_EQ(bytes, again);
    EXPECT_EQ(graph.key(), restored.key());
}

TEST(FrontendSerialization, JsonRoundTrip) {
    Graph graph = convBiasRelu();
    std::string json;
    ASSERT_FE_OK(graph.serialize(json));
    EXPECT_NE(json.find("ConvolutionFwdAttributes"), std::string::npos) << json;
    EXPECT_NE(json.find("RELU_FWD"), std::string::npos);

    Graph restored;
    ASSERT_FE_OK(restored.deserialize(nullptr, json));
    std::string again;
    ASSERT_FE_OK(restored.serialize(again));
    EXPECT_EQ(json, again);
}

TEST(FrontendSerialization, PassByValueScalarsSurvive) {
    Graph graph = floatGraph();
    auto x = input(graph, "x", {2, 3});
    auto y = graph.pointwise(x, graph.tensor(TensorAttributes(int64_t{3})),
                             fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::MUL));
    y->set_output(true);
    std::vector<uint8_t> bytes;
    ASSERT_FE_OK(graph.serialize(bytes));
    Graph restored;
    ASSERT_FE_OK(restored.deserialize(nullptr, bytes));
    std::vector<uint8_t> again;
    ASSERT_FE_OK(restored.serialize(again));
    EXPECT_EQ(bytes, again);
}

TEST(FrontendSerialization, MalformedInputIsRejected) {
    Graph graph;
    EXPECT_FE_ERROR(graph.deserialize(nullptr, std::vector<uint8_t>{1, 2, 3}), ErrorCode::INVALID_VALUE,
                    "not a valid Graph FlatBuffer");
    EXPECT_FE_ERROR(graph.deserialize(nullptr, std::string("{ not json")), ErrorCode::INVALID_VALUE, "JSON");
}

TEST(FrontendSerialization, CyclesAndDoubleWritersAreRejected) {
    Graph cycle;
    // first: 2 -> 3, second: 3 -> 2.
    EXPECT_FE_ERROR(cycle.deserialize(nullptr, twoNodeGraph(2, 3, 3, 2)), ErrorCode::INVALID_VALUE, "cycle",
                    "'first'", "'second'");

    Graph twice;
    // Both nodes write uid 3.
    EXPECT_FE_ERROR(twice.deserialize(nullptr, twoNodeGraph(1, 3, 1, 3)), ErrorCode::INVALID_VALUE, "'t3'",
                    "written by node 'first' and by node 'second'");

    Graph unknown;
    EXPECT_FE_ERROR(unknown.deserialize(nullptr, twoNodeGraph(1, 2, 2, 9)), ErrorCode::INVALID_VALUE,
                    "'second'", "uid 9");

    Graph ordered;
    // Nodes stored out of order are sorted by validate.
    ASSERT_FE_OK(ordered.deserialize(nullptr, twoNodeGraph(2, 3, 1, 2)));
}

TEST(FrontendKey, IgnoresNamesAndAssignedUids) {
    Graph a = convBiasRelu("a_");
    Graph b = convBiasRelu("b_");
    const int64_t keyA = a.key();
    EXPECT_EQ(keyA, b.key());
    // Stable across validation and uid assignment.
    std::vector<uint8_t> bytes;
    ASSERT_FE_OK(a.serialize(bytes));
    EXPECT_EQ(keyA, a.key());
}

TEST(FrontendKey, ChangesWithShapesTypesAttributesAndUserUids) {
    const int64_t base = convBiasRelu().key();
    EXPECT_NE(base, convBiasRelu("", {2, 4, 8, 9}).key());

    Graph half = convBiasRelu();
    half.set_io_data_type(fe::DataType::HALF);
    EXPECT_NE(base, half.key());

    Graph strided = floatGraph("conv_bias_relu");
    auto x = input(strided, "x", {2, 4, 8, 8});
    strided.conv_fprop(x, input(strided, "w", {6, 4, 3, 3}), conv3x3().set_stride({2, 2}));
    Graph plain = floatGraph("conv_bias_relu");
    plain.conv_fprop(input(plain, "x", {2, 4, 8, 8}), input(plain, "w", {6, 4, 3, 3}), conv3x3());
    EXPECT_NE(strided.key(), plain.key());

    const int64_t plainKey = plain.key();
    Graph withUid = floatGraph("conv_bias_relu");
    auto xu = input(withUid, "x", {2, 4, 8, 8});
    xu->set_uid(100);
    withUid.conv_fprop(xu, input(withUid, "w", {6, 4, 3, 3}), conv3x3());
    EXPECT_NE(plainKey, withUid.key());
}
