#include "TestGraphs.hpp"
#include "hipdnn_flatbuffers_sdk/GraphWrapper.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace hipdnn_flatbuffers_sdk::test {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

// The GraphError message of constructing a wrapper over `bytes`; fails the test if none.
std::string graphErrorOf(const std::vector<uint8_t>& bytes) {
    try {
        GraphWrapper graph(bytes.data(), bytes.size());
    } catch (const GraphError& e) {
        return e.what();
    }
    ADD_FAILURE() << "graph was accepted";
    return {};
}

TEST(GraphWrapper, AcceptsConvAddReluGraph) {
    const auto bytes = convAddReluGraph().build();
    const GraphWrapper graph(bytes.data(), bytes.size());

    EXPECT_EQ(graph.nodeCount(), 3u);
    EXPECT_EQ(graph.tensorCount(), 6u);
    EXPECT_THAT(graph.inputUids(), ElementsAre(1, 2, 4));
    EXPECT_THAT(graph.outputUids(), ElementsAre(6));
    EXPECT_TRUE(graph.hasTensor(3));
    EXPECT_FALSE(graph.hasTensor(7));
    EXPECT_TRUE(graph.tensor(3).virtual_());
    EXPECT_EQ(graph.tensor(4).name()->str(), "bias");
    EXPECT_EQ(graph.graph().name()->str(), "test_graph");
    EXPECT_EQ(graph.size(), bytes.size());
    EXPECT_EQ(std::vector<uint8_t>(graph.data(), graph.data() + graph.size()), bytes);
}

TEST(GraphWrapper, NodeWrapperReportsTypeNameAndPorts) {
    const auto bytes = convAddReluGraph().build();
    const GraphWrapper graph(bytes.data(), bytes.size());

    const NodeWrapper conv = graph.node(0);
    EXPECT_EQ(conv.type(), fb::NodeAttributes::ConvolutionFwdAttributes);
    EXPECT_EQ(conv.typeName(), "ConvolutionFwdAttributes");
    EXPECT_EQ(conv.name(), "conv");
    EXPECT_EQ(conv.index(), 0u);
    ASSERT_NE(conv.attributesAs<fb::ConvolutionFwdAttributes>(), nullptr);
    EXPECT_EQ(conv.attributesAs<fb::PointwiseAttributes>(), nullptr);
    EXPECT_THAT(conv.inputUids(), ElementsAre(1, 2));
    EXPECT_THAT(conv.outputUids(), ElementsAre(3));

    const NodeWrapper add = graph.node(1);
    EXPECT_THAT(add.ports(), ElementsAre(NodePort{"in_0", 3, false}, NodePort{"in_1", 4, false},
                                         NodePort{"out_0", 5, true}));

    // Optional ports that are not set are not listed.
    const NodeWrapper relu = graph.node(2);
    EXPECT_THAT(relu.ports(), ElementsAre(NodePort{"in_0", 5, false}, NodePort{"out_0", 6, true}));
    EXPECT_EQ(relu.describe(), "node 2 'relu' (PointwiseAttributes)");
}

TEST(GraphWrapper, UnknownTensorAndNodeIndexThrowNamingTheValue) {
    const auto bytes = convAddReluGraph().build();
    const GraphWrapper graph(bytes.data(), bytes.size());
    EXPECT_THAT([&] { graph.tensor(77); },
                ::testing::ThrowsMessage<GraphError>(HasSubstr("tensor uid 77 is not in the graph")));
    EXPECT_THAT([&] { graph.node(3); }, ::testing::ThrowsMessage<GraphError>(HasSubstr("node index 3")));
}

TEST(GraphWrapper, CopiesAndMovesStayValidAfterTheSourceIsGone) {
    const auto bytes = convAddReluGraph().build();
    std::optional<GraphWrapper> original(GraphWrapper(bytes.data(), bytes.size()));
    GraphWrapper copy(*original);
    GraphWrapper assigned = copy;
    assigned = *original;
    original.reset();
    EXPECT_EQ(copy.tensor(4).name()->str(), "bias");
    EXPECT_EQ(assigned.tensor(6).name()->str(), "out");
    GraphWrapper moved(std::move(copy));
    EXPECT_EQ(moved.tensor(1).name()->str(), "x");
    EXPECT_EQ(moved.node(2).name(), "relu");
}

TEST(GraphWrapper, TryCreateReportsTheErrorInsteadOfThrowing) {
    std::string error;
    const auto bytes = convAddReluGraph().build();
    const auto graph = GraphWrapper::tryCreate(bytes.data(), bytes.size(), error);
    ASSERT_TRUE(graph.has_value());
    EXPECT_TRUE(error.empty());

    const std::vector<uint8_t> garbage(40, 0xAB);
    EXPECT_FALSE(GraphWrapper::tryCreate(garbage.data(), garbage.size(), error).has_value());
    EXPECT_THAT(error, HasSubstr("failed FlatBuffers verification"));
}

TEST(GraphWrapper, RejectsNullAndEmptyBuffers) {
    EXPECT_THAT([] { GraphWrapper(nullptr, 16); },
                ::testing::ThrowsMessage<GraphError>(HasSubstr("null pointer (size 16)")));
    const uint8_t byte = 0;
    EXPECT_THAT([&] { GraphWrapper(&byte, 0); }, ::testing::ThrowsMessage<GraphError>(HasSubstr("empty")));
}

TEST(GraphWrapper, RejectsDuplicateUid) {
    auto graph = convAddReluGraph();
    graph.tensor(4, "bias_again", {1, 3, 1, 1});
    EXPECT_THAT(graphErrorOf(graph.build()), HasSubstr("duplicate tensor uid 4 ('bias' and 'bias_again')"));
}

TEST(GraphWrapper, RejectsUnknownUidNamingNodePortAndUid) {
    TestGraph graph;
    graph.tensor(1, "x", {4}).tensor(2, "y", {4}).pointwise("add", fb::PointwiseMode::ADD, 1, 42, 2);
    EXPECT_THAT(
        graphErrorOf(graph.build()),
        HasSubstr(
            "node 0 'add' (PointwiseAttributes) port in_1 names tensor uid 42, which is not in the graph"));
}

TEST(GraphWrapper, RejectsNodesOutOfTopologicalOrder) {
    TestGraph graph;
    graph.tensor(1, "x", {4})
        .tensor(2, "mid", {4}, true)
        .tensor(3, "y", {4})
        .pointwise("second", fb::PointwiseMode::EXP, 2, std::nullopt, 3)
        .pointwise("first", fb::PointwiseMode::EXP, 1, std::nullopt, 2);
    EXPECT_THAT(
        graphErrorOf(graph.build()),
        AllOf(HasSubstr("node 0 'second' (PointwiseAttributes) port in_0 reads tensor uid 2"),
              HasSubstr("written by node 1 'first'"), HasSubstr("not in topological order or cyclic")));
}

TEST(GraphWrapper, RejectsNonVirtualTensorReadBeforeItIsWritten) {
    TestGraph graph;
    graph.tensor(1, "x", {4})
        .tensor(2, "mid", {4})
        .tensor(3, "y", {4})
        .pointwise("second", fb::PointwiseMode::EXP, 2, std::nullopt, 3)
        .pointwise("first", fb::PointwiseMode::EXP, 1, std::nullopt, 2);
    EXPECT_THAT(graphErrorOf(graph.build()), HasSubstr("not in topological order or cyclic"));
}

TEST(GraphWrapper, RejectsNodeReadingItsOwnOutput) {
    TestGraph graph;
    graph.tensor(1, "x", {4}).tensor(2, "loop", {4}).pointwise("self", fb::PointwiseMode::ADD, 1, 2, 2);
    EXPECT_THAT(graphErrorOf(graph.build()),
                AllOf(HasSubstr("node 0 'self'"), HasSubstr("port in_1 reads tensor uid 2"),
                      HasSubstr("not in topological order or cyclic")));
}

TEST(GraphWrapper, RejectsTensorWrittenTwice) {
    auto graph = convAddReluGraph();
    graph.pointwise("again", fb::PointwiseMode::EXP, 1, std::nullopt, 6);
    EXPECT_THAT(graphErrorOf(graph.build()),
                AllOf(HasSubstr("tensor uid 6 'out' is written twice"), HasSubstr("node 2 'relu'"),
                      HasSubstr("node 3 'again' (PointwiseAttributes) port out_0")));
}

TEST(GraphWrapper, RejectsVirtualTensorThatNoNodeWrites) {
    auto unused = convAddReluGraph();
    unused.tensor(9, "dangling", {4}, true);
    EXPECT_THAT(graphErrorOf(unused.build()), HasSubstr("virtual tensor uid 9 'dangling' is never written"));

    TestGraph read;
    read.tensor(1, "v", {4}, true)
        .tensor(2, "y", {4})
        .pointwise("neg", fb::PointwiseMode::NEG, 1, std::nullopt, 2);
    EXPECT_THAT(graphErrorOf(read.build()), HasSubstr("node 0 'neg' (PointwiseAttributes) port in_0 reads "
                                                      "virtual tensor uid 1 'v', which no node writes"));
}

TEST(GraphWrapper, RejectsBadDimsAndStrides) {
    const auto withTensor = [](TensorSpec spec) {
        TestGraph graph;
        graph.tensor(1, "x", {4})
            .tensor(std::move(spec))
            .pointwise("neg", fb::PointwiseMode::NEG, 1, std::nullopt, 2);
        return graph.build();
    };
    EXPECT_THAT(graphErrorOf(withTensor(stridedTensor(2, "y", {}, {}))),
                HasSubstr("tensor uid 2 'y' has no dims"));
    EXPECT_THAT(graphErrorOf(withTensor(stridedTensor(2, "y", {4, 0}, {1, 1}))),
                HasSubstr("tensor uid 2 'y' has dims[1] = 0; dims must be > 0"));
    EXPECT_THAT(graphErrorOf(withTensor(stridedTensor(2, "y", {4, -3}, {1, 1}))), HasSubstr("dims[1] = -3"));
    EXPECT_THAT(graphErrorOf(withTensor(stridedTensor(2, "y", {4, 4}, {4}))),
                HasSubstr("tensor uid 2 'y' has 1 strides for 2 dims"));
    EXPECT_THAT(graphErrorOf(withTensor(stridedTensor(2, "y", {4, 4}, {4, -1}))),
                HasSubstr("tensor uid 2 'y' has strides[1] = -1; strides must be >= 0"));
    EXPECT_THAT(graphErrorOf(withTensor(stridedTensor(2, "y", {1LL << 40, 1LL << 40}, {1LL << 40, 1}))),
                HasSubstr("tensor uid 2 'y' is too large"));
    EXPECT_THAT(
        graphErrorOf(withTensor({2, "y", {4}, {1}, false, static_cast<fb::DataType>(99), std::nullopt})),
        HasSubstr("tensor uid 2 'y' has unknown data type 99"));
}

TEST(GraphWrapper, AcceptsBroadcastStridesOfZero) {
    TestGraph graph;
    graph.tensor(1, "x", {4, 4}).tensor(stridedTensor(2, "row", {4, 4}, {0, 1})).tensor(3, "y", {4, 4});
    graph.pointwise("add", fb::PointwiseMode::ADD, 1, 2, 3);
    const auto bytes = graph.build();
    EXPECT_NO_THROW(GraphWrapper(bytes.data(), bytes.size()));
}

TEST(GraphWrapper, RejectsNodeWithoutAttributes) {
    TestGraph graph;
    graph.tensor(1, "x", {4}).node("empty", fb::NodeAttributes::NONE, nullptr);
    EXPECT_THAT(graphErrorOf(graph.build()), HasSubstr("node 0 'empty'"));
    EXPECT_THAT(graphErrorOf(graph.build()), HasSubstr("has no attributes (NONE)"));
}

TEST(GraphWrapper, RejectsUnknownAttributesType) {
    // The FlatBuffers verifier accepts unknown union types; the wrapper must not.
    TestGraph graph;
    graph.tensor(1, "x", {4}).node("future", static_cast<fb::NodeAttributes>(99), [](Builder& b) {
        return fb::CreateMatmulAttributes(b, 1, 1, 1).Union();
    });
    EXPECT_THAT(graphErrorOf(graph.build()),
                HasSubstr("node 0 'future' (type 99) has an unknown attributes type 99"));
}

TEST(GraphWrapper, RejectsConvolutionVectorsThatDoNotMatchTheSpatialRank) {
    const auto convGraph = [](std::vector<int64_t> padding, std::vector<int64_t> stride,
                              std::vector<int64_t> dilation) {
        TestGraph graph;
        graph.tensor(1, "x", {1, 2, 5, 5}).tensor(2, "w", {3, 2, 3, 3}).tensor(3, "y", {1, 3, 5, 5});
        graph.conv("conv", 1, 2, 3, std::move(padding), std::move(stride), std::move(dilation));
        return graph.build();
    };
    EXPECT_THAT(
        graphErrorOf(convGraph({1}, {1, 1}, {1, 1})),
        HasSubstr("node 0 'conv' (ConvolutionFwdAttributes) has 1 pre_padding values for 2 spatial dims"));
    EXPECT_THAT(graphErrorOf(convGraph({1, 1}, {1, 1}, {})),
                HasSubstr("has 0 dilation values for 2 spatial dims"));
    EXPECT_THAT(graphErrorOf(convGraph({1, 1}, {1, 0}, {1, 1})), HasSubstr("stride[1] = 0; it must be >= 1"));
    EXPECT_THAT(graphErrorOf(convGraph({-1, 1}, {1, 1}, {1, 1})),
                HasSubstr("pre_padding[0] = -1; it must be >= 0"));

    TestGraph mixedRanks;
    mixedRanks.tensor(1, "x", {1, 2, 5, 5}).tensor(2, "w", {3, 2, 3}).tensor(3, "y", {1, 3, 5, 5});
    mixedRanks.conv("conv", 1, 2, 3);
    EXPECT_THAT(graphErrorOf(mixedRanks.build()), HasSubstr("port w: tensor uid 2 'w' has rank 3"));
}

TEST(GraphWrapper, RejectsPointwiseWithoutItsInputsOrMode) {
    TestGraph missingInput;
    missingInput.tensor(1, "x", {4}).tensor(2, "y", {4});
    missingInput.pointwise("add", fb::PointwiseMode::ADD, 1, std::nullopt, 2);
    EXPECT_THAT(graphErrorOf(missingInput.build()),
                HasSubstr("node 0 'add' (PointwiseAttributes): pointwise mode ADD needs in_1"));

    TestGraph unset;
    unset.tensor(1, "x", {4}).tensor(2, "y", {4});
    unset.pointwise("nothing", fb::PointwiseMode::UNSET, 1, std::nullopt, 2);
    EXPECT_THAT(graphErrorOf(unset.build()),
                HasSubstr("has pointwise operation UNSET; a valid value is required"));

    TestGraph unknown;
    unknown.tensor(1, "x", {4}).tensor(2, "y", {4});
    unknown.pointwise("future", static_cast<fb::PointwiseMode>(100), 1, std::nullopt, 2);
    EXPECT_THAT(graphErrorOf(unknown.build()), HasSubstr("has pointwise operation 100"));
}

TEST(GraphWrapper, BatchnormPortsIncludePeerStatsAndOptionalOutputs) {
    TestGraph graph;
    graph.tensor(1, "x", {2, 3, 4, 4})
        .tensor(2, "scale", {1, 3, 1, 1})
        .tensor(3, "bias", {1, 3, 1, 1})
        .tensor(scalarTensor(4, "epsilon", 1e-5f))
        .tensor(5, "peer0", {1, 3, 1, 1})
        .tensor(6, "peer1", {1, 3, 1, 1})
        .tensor(7, "y", {2, 3, 4, 4})
        .tensor(8, "mean", {1, 3, 1, 1});
    graph.node("bn", fb::NodeAttributes::BatchnormAttributes, [](Builder& b) {
        const std::vector<int64_t> peers{5, 6};
        const auto peerVector = b.CreateVector(peers);
        fb::BatchnormAttributesBuilder attributes(b);
        attributes.add_x_tensor_uid(1);
        attributes.add_scale_tensor_uid(2);
        attributes.add_bias_tensor_uid(3);
        attributes.add_epsilon_tensor_uid(4);
        attributes.add_peer_stats_tensor_uid(peerVector);
        attributes.add_y_tensor_uid(7);
        attributes.add_mean_tensor_uid(8);
        return attributes.Finish().Union();
    });
    const auto bytes = graph.build();
    const GraphWrapper wrapper(bytes.data(), bytes.size());
    EXPECT_THAT(
        wrapper.node(0).ports(),
        ElementsAre(NodePort{"x", 1, false}, NodePort{"scale", 2, false}, NodePort{"bias", 3, false},
                    NodePort{"epsilon", 4, false}, NodePort{"peer_stats[0]", 5, false},
                    NodePort{"peer_stats[1]", 6, false}, NodePort{"y", 7, true}, NodePort{"mean", 8, true}));
    // The pass-by-value epsilon is a graph input too.
    EXPECT_THAT(wrapper.inputUids(), ElementsAre(1, 2, 3, 4, 5, 6));
    EXPECT_THAT(wrapper.outputUids(), ElementsAre(7, 8));
}

TEST(GraphWrapper, RejectsBatchnormBackwardWithoutStatisticsOrEpsilon) {
    TestGraph graph;
    graph.tensor(1, "dy", {2, 3, 4, 4})
        .tensor(2, "x", {2, 3, 4, 4})
        .tensor(3, "scale", {1, 3, 1, 1})
        .tensor(4, "dx", {2, 3, 4, 4})
        .tensor(5, "dscale", {1, 3, 1, 1})
        .tensor(6, "dbias", {1, 3, 1, 1});
    graph.node("bn_bwd", fb::NodeAttributes::BatchnormBackwardAttributes, [](Builder& b) {
        fb::BatchnormBackwardAttributesBuilder attributes(b);
        attributes.add_dy_tensor_uid(1);
        attributes.add_x_tensor_uid(2);
        attributes.add_scale_tensor_uid(3);
        attributes.add_dx_tensor_uid(4);
        attributes.add_dscale_tensor_uid(5);
        attributes.add_dbias_tensor_uid(6);
        return attributes.Finish().Union();
    });
    EXPECT_THAT(
        graphErrorOf(graph.build()),
        HasSubstr("node 0 'bn_bwd' (BatchnormBackwardAttributes): without saved mean and inv_variance"));
}

TEST(GraphWrapper, RejectsNodeWritingPassByValueTensor) {
    TestGraph graph;
    graph.tensor(1, "x", {1}).tensor(scalarTensor(2, "alpha", 2.0f));
    graph.pointwise("neg", fb::PointwiseMode::NEG, 1, std::nullopt, 2);
    EXPECT_THAT(graphErrorOf(graph.build()), HasSubstr("node 0 'neg' (PointwiseAttributes) port out_0 writes "
                                                       "tensor uid 2 'alpha', a pass-by-value scalar"));
}

TEST(GraphWrapper, RejectsUpstreamFieldsThisVersionDoesNotImplement) {
    auto graphWithTensor = [](auto setFields) {
        Builder b;
        const std::vector<int64_t> dims{4};
        const std::vector<int64_t> strides{1};
        std::vector<flatbuffers::Offset<fb::TensorAttributes>> tensors{
            fb::CreateTensorAttributesDirect(b, 1, "x", fb::DataType::FLOAT, &strides, &dims),
        };
        // Strings and vectors first: FlatBuffers builds no object while a table is open.
        const auto name = b.CreateString("y");
        const auto yDims = b.CreateVector(dims);
        const auto yStrides = b.CreateVector(strides);
        fb::TensorAttributesBuilder y(b);
        y.add_uid(2);
        y.add_name(name);
        y.add_data_type(fb::DataType::FLOAT);
        y.add_dims(yDims);
        y.add_strides(yStrides);
        setFields(y);
        tensors.push_back(y.Finish());
        std::vector<flatbuffers::Offset<fb::Node>> nodes{fb::CreateNodeDirect(
            b, "relu", fb::DataType::FLOAT, fb::NodeAttributes::PointwiseAttributes,
            fb::CreatePointwiseAttributes(b, fb::PointwiseMode::RELU_FWD, flatbuffers::nullopt,
                                          flatbuffers::nullopt, flatbuffers::nullopt, flatbuffers::nullopt, 1,
                                          flatbuffers::nullopt, flatbuffers::nullopt, 2)
                .Union())};
        b.Finish(fb::CreateGraphDirect(b, "g", fb::DataType::FLOAT, fb::DataType::FLOAT, fb::DataType::FLOAT,
                                       &tensors, &nodes));
        return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
    };
    const auto plain = graphWithTensor([](fb::TensorAttributesBuilder&) {});
    EXPECT_NO_THROW(GraphWrapper(plain.data(), plain.size()));
    const auto runtime =
        graphWithTensor([](fb::TensorAttributesBuilder& t) { t.add_is_runtime_pass_by_value(true); });
    EXPECT_THAT([&] { GraphWrapper(runtime.data(), runtime.size()); },
                ThrowsMessage<GraphError>(
                    AllOf(HasSubstr("tensor uid 2 'y'"), HasSubstr("is_runtime_pass_by_value"))));
    const auto ragged =
        graphWithTensor([](fb::TensorAttributesBuilder& t) { t.add_ragged_offset_tensor_uid(9); });
    EXPECT_THAT([&] { GraphWrapper(ragged.data(), ragged.size()); },
                ThrowsMessage<GraphError>(
                    AllOf(HasSubstr("ragged_offset_tensor_uid 9"), HasSubstr("not supported"))));
    const auto misaligned = graphWithTensor([](fb::TensorAttributesBuilder& t) { t.add_alignment(12); });
    EXPECT_THAT([&] { GraphWrapper(misaligned.data(), misaligned.size()); },
                ThrowsMessage<GraphError>(AllOf(HasSubstr("alignment 12"), HasSubstr("power of two"))));
    const auto untyped =
        graphWithTensor([](fb::TensorAttributesBuilder& t) { t.add_data_type(fb::DataType::UNSET); });
    EXPECT_NO_THROW(GraphWrapper(untyped.data(), untyped.size()));  // takes the graph's io_data_type
}

TEST(GraphWrapper, RejectsATensorWithoutADataTypeWhenTheGraphHasNone) {
    Builder b;
    const std::vector<int64_t> dims{4};
    std::vector<flatbuffers::Offset<fb::TensorAttributes>> tensors{
        fb::CreateTensorAttributesDirect(b, 1, "x", fb::DataType::UNSET, &dims, &dims),
        fb::CreateTensorAttributesDirect(b, 2, "y", fb::DataType::FLOAT, &dims, &dims)};
    std::vector<flatbuffers::Offset<fb::Node>> nodes{fb::CreateNodeDirect(
        b, "abs", fb::DataType::FLOAT, fb::NodeAttributes::PointwiseAttributes,
        fb::CreatePointwiseAttributes(b, fb::PointwiseMode::ABS, flatbuffers::nullopt, flatbuffers::nullopt,
                                      flatbuffers::nullopt, flatbuffers::nullopt, 1, flatbuffers::nullopt,
                                      flatbuffers::nullopt, 2)
            .Union())};
    b.Finish(fb::CreateGraphDirect(b, "g", fb::DataType::UNSET, fb::DataType::UNSET, fb::DataType::UNSET,
                                   &tensors, &nodes));
    EXPECT_THAT([&] { GraphWrapper(b.GetBufferPointer(), b.GetSize()); },
                ThrowsMessage<GraphError>(AllOf(HasSubstr("tensor uid 1 'x' has data type UNSET"),
                                                HasSubstr("io_data_type is UNSET too"))));
}

TEST(GraphWrapper, RejectsOperationsOfTheFormatThatNoEngineRuns) {
    TestGraph graph;
    graph.tensor(1, "x", {1, 1, 4, 32}).tensor(2, "y", {1, 1, 4, 32}).tensor(3, "scale", {1, 1, 4, 1});
    graph.node("quantize", fb::NodeAttributes::BlockScaleQuantizeAttributes,
               [](Builder& b) { return fb::CreateBlockScaleQuantizeAttributes(b, 1, 2, 3, 32).Union(); });
    const auto bytes = graph.build();
    EXPECT_THAT([&] { GraphWrapper(bytes.data(), bytes.size()); },
                ThrowsMessage<GraphError>(AllOf(HasSubstr("BlockScaleQuantizeAttributes node (type 14)"),
                                                HasSubstr("no engine of this version runs it"))));
}

TEST(GraphWrapper, RejectsNamesThatAreNotUtf8) {
    // Accepted graphs must always print as JSON.
    TestGraph graph;
    graph.tensor(1, "x", {4}).tensor(2, "bad\xff", {4});
    graph.pointwise("neg", fb::PointwiseMode::NEG, 1, std::nullopt, 2);
    EXPECT_THAT(graphErrorOf(graph.build()), HasSubstr("tensor uid 2 has a name that is not valid UTF-8"));
}

TEST(GraphWrapper, RejectsGraphWithoutNodes) {
    EXPECT_THAT(graphErrorOf(TestGraph().build()), HasSubstr("graph 'test_graph' has no nodes"));
    TestGraph tensorsOnly;
    tensorsOnly.tensor(1, "x", {4});
    EXPECT_THAT(graphErrorOf(tensorsOnly.build()), HasSubstr("graph 'test_graph' has no nodes"));
}

TEST(GraphWrapper, RejectsTensorThatNoNodeUses) {
    auto unused = convAddReluGraph();
    unused.tensor(9, "spare", {4});
    EXPECT_THAT(graphErrorOf(unused.build()), HasSubstr("tensor uid 9 'spare' is not used by any node"));
    auto unusedScalar = convAddReluGraph();
    unusedScalar.tensor(scalarTensor(10, "alpha", 2.0f));
    EXPECT_THAT(graphErrorOf(unusedScalar.build()),
                HasSubstr("tensor uid 10 'alpha' is not used by any node"));
}

// x -> neg -> y, with y's layout given.
std::vector<uint8_t> negInto(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides) {
    TestGraph graph;
    graph.tensor(1, "x", dims).tensor(stridedTensor(2, "y", dims, strides));
    graph.pointwise("neg", fb::PointwiseMode::NEG, 1, std::nullopt, 2);
    return graph.build();
}

TEST(GraphWrapper, RejectsOutputsWhoseElementsOverlap) {
    EXPECT_THAT(graphErrorOf(negInto({2, 2}, {0, 0})),
                AllOf(HasSubstr("output tensor uid 2 'y'"), HasSubstr("dims [2, 2] strides [0, 0]"),
                      HasSubstr("overlap")));
    EXPECT_THAT(graphErrorOf(negInto({4, 3}, {1, 2})),
                AllOf(HasSubstr("output tensor uid 2 'y'"), HasSubstr("dims [4, 3] strides [1, 2]")));
    // Pairwise the strides look fine (3 >= 1*2+1, 4 >= 3*1+1), but (2,1,0) and (0,0,1) share offset 5.
    EXPECT_THAT(graphErrorOf(negInto({3, 2, 2}, {1, 3, 4})),
                AllOf(HasSubstr("output tensor uid 2 'y'"), HasSubstr("dims [3, 2, 2] strides [1, 3, 4]")));
}

TEST(GraphWrapper, AcceptsOutputsInPermutedPaddedAndUnitDimLayouts) {
    for (const auto& [dims, strides] : std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>>{
             {{2, 3, 4, 5}, {60, 1, 15, 3}},  // NHWC
             {{2, 3, 4, 5}, {80, 20, 5, 1}},  // padded batch stride
             {{2, 3}, {1, 2}},                // column-major
             {{2, 3}, {16, 4}},               // gaps between elements
             {{1, 4, 1}, {0, 1, 0}},          // unit dims may have any stride
             {{3, 1}, {1, 1}}}) {
        const auto bytes = negInto(dims, strides);
        EXPECT_NO_THROW(GraphWrapper(bytes.data(), bytes.size()));
    }
}

// Batch norm training with pass-by-value epsilon and momentum (running statistics on).
std::vector<uint8_t> batchnormTraining(float epsilon, float momentum) {
    TestGraph graph;
    graph.tensor(1, "x", {2, 3, 4, 4})
        .tensor(2, "scale", {1, 3, 1, 1})
        .tensor(3, "bias", {1, 3, 1, 1})
        .tensor(scalarTensor(4, "epsilon", epsilon))
        .tensor(5, "prev_mean", {1, 3, 1, 1})
        .tensor(6, "prev_variance", {1, 3, 1, 1})
        .tensor(scalarTensor(7, "momentum", momentum))
        .tensor(8, "y", {2, 3, 4, 4})
        .tensor(9, "next_mean", {1, 3, 1, 1})
        .tensor(10, "next_variance", {1, 3, 1, 1});
    graph.node("bn", fb::NodeAttributes::BatchnormAttributes, [](Builder& b) {
        fb::BatchnormAttributesBuilder attributes(b);
        attributes.add_x_tensor_uid(1);
        attributes.add_scale_tensor_uid(2);
        attributes.add_bias_tensor_uid(3);
        attributes.add_epsilon_tensor_uid(4);
        attributes.add_prev_running_mean_tensor_uid(5);
        attributes.add_prev_running_variance_tensor_uid(6);
        attributes.add_momentum_tensor_uid(7);
        attributes.add_y_tensor_uid(8);
        attributes.add_next_running_mean_tensor_uid(9);
        attributes.add_next_running_variance_tensor_uid(10);
        return attributes.Finish().Union();
    });
    return graph.build();
}

TEST(GraphWrapper, RejectsNonFiniteEpsilonAndMomentum) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const auto accepted = batchnormTraining(1e-5f, 0.1f);
    EXPECT_NO_THROW(GraphWrapper(accepted.data(), accepted.size()));
    EXPECT_THAT(graphErrorOf(batchnormTraining(nan, 0.1f)),
                AllOf(HasSubstr("node 0 'bn' (BatchnormAttributes) port epsilon"),
                      HasSubstr("tensor uid 4 'epsilon' has value nan; it must be finite")));
    EXPECT_THAT(graphErrorOf(batchnormTraining(inf, 0.1f)),
                HasSubstr("tensor uid 4 'epsilon' has value inf; it must be finite"));
    EXPECT_THAT(graphErrorOf(batchnormTraining(1e-5f, nan)),
                AllOf(HasSubstr("port momentum"), HasSubstr("tensor uid 7 'momentum' has value nan")));
    EXPECT_THAT(graphErrorOf(batchnormTraining(1e-5f, -inf)),
                HasSubstr("tensor uid 7 'momentum' has value -inf; it must be finite"));
}

// Inference layer norm of x (dims `xDims`) with scale and bias of x's dims but N = 1.
std::vector<uint8_t> layernormGraph(std::vector<int64_t> xDims, float epsilon,
                                    int64_t normalizedDimCount = 0) {
    std::vector<int64_t> parameterDims = xDims;
    parameterDims[0] = 1;
    TestGraph layernorm;
    layernorm.tensor(1, "x", xDims)
        .tensor(2, "scale", parameterDims)
        .tensor(3, "bias", parameterDims)
        .tensor(scalarTensor(4, "eps", epsilon))
        .tensor(5, "y", xDims);
    layernorm.node("ln", fb::NodeAttributes::LayernormAttributes, [=](Builder& b) {
        fb::LayernormAttributesBuilder attributes(b);
        attributes.add_forward_phase(fb::NormFwdPhase::INFERENCE);
        attributes.add_x_tensor_uid(1);
        attributes.add_scale_tensor_uid(2);
        attributes.add_bias_tensor_uid(3);
        attributes.add_epsilon_tensor_uid(4);
        attributes.add_y_tensor_uid(5);
        attributes.add_normalized_dim_count(normalizedDimCount);
        return attributes.Finish().Union();
    });
    return layernorm.build();
}

TEST(GraphWrapper, RejectsNonFiniteEpsilonOfNorms) {
    EXPECT_THAT(
        graphErrorOf(layernormGraph({2, 8}, std::numeric_limits<float>::quiet_NaN())),
        HasSubstr("node 0 'ln' (LayernormAttributes) port epsilon: tensor uid 4 'eps' has value nan"));
}

TEST(GraphWrapper, LayernormNormalizesEveryDimButTheFirstOnly) {
    for (const int64_t accepted : {0, 2}) {
        const auto bytes = layernormGraph({2, 3, 8}, 1e-5F, accepted);
        EXPECT_NO_THROW(GraphWrapper(bytes.data(), bytes.size())) << accepted;
    }
    EXPECT_THAT(
        graphErrorOf(layernormGraph({2, 3, 8}, 1e-5F, 1)),
        AllOf(HasSubstr("normalized_dim_count 1 is not supported"), HasSubstr("(2 for x of rank 3)")));
}

TEST(GraphWrapper, RejectsRmsnormBackwardWithoutInvRms) {
    TestGraph backward;
    backward.tensor(1, "dy", {2, 8})
        .tensor(2, "x", {2, 8})
        .tensor(3, "scale", {1, 8})
        .tensor(4, "dx", {2, 8})
        .tensor(5, "dscale", {1, 8});
    backward.node("rms_bwd", fb::NodeAttributes::RMSNormBackwardAttributes, [](Builder& b) {
        fb::RMSNormBackwardAttributesBuilder attributes(b);
        attributes.add_dy_tensor_uid(1);
        attributes.add_x_tensor_uid(2);
        attributes.add_scale_tensor_uid(3);
        attributes.add_dx_tensor_uid(4);
        attributes.add_dscale_tensor_uid(5);
        return attributes.Finish().Union();
    });
    EXPECT_THAT(graphErrorOf(backward.build()), HasSubstr("rmsnorm backward needs inv_rms"));
}

// dy, x, scale, mean, inv_variance -> layer norm backward -> dx, dscale, dbias; `dscaleDims`
// and `withStatistics` break one rule each.
std::vector<uint8_t> layernormBackwardGraph(bool withStatistics,
                                            const std::vector<int64_t>& dscaleDims = {1, 8},
                                            int64_t normalizedDimCount = 0) {
    TestGraph backward;
    backward.tensor(1, "dy", {2, 8})
        .tensor(2, "x", {2, 8})
        .tensor(3, "scale", {1, 8})
        .tensor(4, "mean", {2, 1})
        .tensor(5, "inv_var", {2, 1})
        .tensor(6, "dx", {2, 8})
        .tensor(7, "dscale", dscaleDims)
        .tensor(8, "dbias", {1, 8});
    backward.node("ln_bwd", fb::NodeAttributes::LayernormBackwardAttributes, [=](Builder& b) {
        fb::LayernormBackwardAttributesBuilder attributes(b);
        attributes.add_dy_tensor_uid(1);
        attributes.add_x_tensor_uid(2);
        attributes.add_scale_tensor_uid(3);
        if (withStatistics) {
            attributes.add_mean_tensor_uid(4);
            attributes.add_inv_variance_tensor_uid(5);
        }
        attributes.add_dx_tensor_uid(6);
        attributes.add_dscale_tensor_uid(7);
        attributes.add_dbias_tensor_uid(8);
        attributes.add_normalized_dim_count(normalizedDimCount);
        return attributes.Finish().Union();
    });
    return backward.build();
}

TEST(GraphWrapper, AcceptsLayernormBackward) {
    const auto bytes = layernormBackwardGraph(true);
    EXPECT_NO_THROW(GraphWrapper(bytes.data(), bytes.size()));
}

TEST(GraphWrapper, RejectsLayernormBackwardWithoutStatistics) {
    EXPECT_THAT(graphErrorOf(layernormBackwardGraph(false)),
                HasSubstr("layernorm backward needs mean and inv_variance"));
}

TEST(GraphWrapper, RejectsLayernormBackwardShapesNamingTheTensor) {
    EXPECT_THAT(graphErrorOf(layernormBackwardGraph(true, {1, 4})),
                AllOf(HasSubstr("port dscale"), HasSubstr("'dscale'"), HasSubstr("[1, 4]")));
    EXPECT_THAT(graphErrorOf(layernormBackwardGraph(true, {1, 8}, 3)),
                HasSubstr("normalized_dim_count 3 is not supported"));
}

// x -> one pointwise node with the options `set` adds -> y.
std::vector<uint8_t> pointwiseWith(fb::PointwiseMode mode,
                                   const std::function<void(fb::PointwiseAttributesBuilder&)>& set) {
    TestGraph graph;
    graph.tensor(1, "x", {4}).tensor(2, "y", {4});
    graph.node("act", fb::NodeAttributes::PointwiseAttributes, [=](Builder& b) {
        fb::PointwiseAttributesBuilder attributes(b);
        attributes.add_operation(mode);
        attributes.add_in_0_tensor_uid(1);
        attributes.add_out_0_tensor_uid(2);
        set(attributes);
        return attributes.Finish().Union();
    });
    return graph.build();
}

TEST(GraphWrapper, RejectsNonFinitePointwiseParameters) {
    using Attributes = fb::PointwiseAttributesBuilder;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    EXPECT_THAT(graphErrorOf(pointwiseWith(fb::PointwiseMode::SWISH_FWD,
                                           [&](Attributes& a) { a.add_swish_beta(nan); })),
                HasSubstr("node 0 'act' (PointwiseAttributes) has swish_beta nan; it must be finite"));
    EXPECT_THAT(
        graphErrorOf(pointwiseWith(fb::PointwiseMode::ELU_FWD, [&](Attributes& a) { a.add_elu_alpha(inf); })),
        HasSubstr("has elu_alpha inf; it must be finite"));
    EXPECT_THAT(graphErrorOf(pointwiseWith(fb::PointwiseMode::SOFTPLUS_FWD,
                                           [&](Attributes& a) { a.add_softplus_beta(-inf); })),
                HasSubstr("has softplus_beta -inf; it must be finite"));
    EXPECT_THAT(graphErrorOf(pointwiseWith(fb::PointwiseMode::RELU_FWD,
                                           [&](Attributes& a) { a.add_relu_lower_clip_slope(nan); })),
                HasSubstr("has relu_lower_clip_slope nan; it must be finite"));
    EXPECT_THAT(graphErrorOf(pointwiseWith(fb::PointwiseMode::RELU_FWD,
                                           [&](Attributes& a) { a.add_relu_upper_clip(nan); })),
                HasSubstr("has relu_upper_clip nan; it must be a number"));
    // An infinite clip is no clip at all.
    const auto unclipped = pointwiseWith(fb::PointwiseMode::RELU_FWD, [&](Attributes& a) {
        a.add_relu_lower_clip(-inf);
        a.add_relu_upper_clip(inf);
    });
    EXPECT_NO_THROW(GraphWrapper(unclipped.data(), unclipped.size()));
}

}  // namespace
}  // namespace hipdnn_flatbuffers_sdk::test
