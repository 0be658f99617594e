// CUDA_GRAPH_ENGINE without a GPU: the segmentation of graphs into anchors (convolution, matmul)
// and fused pointwise kernels, which virtual tensors live in the workspace and in which type, the
// anchors' programs, and every decline with its reason. The support table's conv + bias + add +
// relu (NCHW and NHWC) and matmul + bias + erf gelu rows are among the accepted graphs.
#include "GraphGraphs.hpp"
#include "PointwiseGraphs.hpp"

#include <graph/GraphProgram.hpp>

#include <gtest/gtest.h>

#include <algorithm>

namespace cuda_kernels_test {
namespace {

using hipdnn_cuda_kernels::analyzeGraphProgram;
using hipdnn_cuda_kernels::AnchorKind;
using hipdnn_cuda_kernels::ConvolutionDirection;
using hipdnn_cuda_kernels::ElementType;
using hipdnn_cuda_kernels::GraphProgram;
using hipdnn_cuda_kernels::MemoryOperand;
using hipdnn_cuda_kernels::MemoryVirtuals;
using hipdnn_cuda_kernels::PointwiseProgram;
using hipdnn_cuda_kernels::WorkspaceTensor;

GraphProgram analyzed(const hipdnn_test_sdk::GraphBuilder& graph, const MemoryVirtuals& overrides = {}) {
    std::string reason;
    auto program = analyzeGraphProgram(wrap(graph), overrides, reason);
    EXPECT_TRUE(program) << reason;
    return program.value_or(GraphProgram{});
}

std::string declineReason(const hipdnn_test_sdk::GraphBuilder& graph) {
    std::string reason;
    EXPECT_FALSE(analyzeGraphProgram(wrap(graph), {}, reason).has_value());
    return reason;
}

std::vector<int64_t> operandUids(const PointwiseProgram& program, bool outputs) {
    std::vector<int64_t> uids;
    for (const MemoryOperand& operand : program.operands) {
        if (operand.isOutput == outputs) {
            uids.push_back(operand.uid);
        }
    }
    return uids;
}

ElementType elementOf(fb::DataType type) {
    return type == fb::DataType::HALF       ? ElementType::Half
           : type == fb::DataType::BFLOAT16 ? ElementType::BFloat16
                                            : ElementType::Float;
}

class SupportTableResidualConv : public testing::TestWithParam<std::tuple<fb::DataType, bool>> {};

TEST_P(SupportTableResidualConv, IsOneConvolutionThenOneFusedKernel) {
    const auto [type, channelsLast] = GetParam();
    const ConvChainCase conv = supportTableResidualConv(type, channelsLast);
    const GraphProgram program = analyzed(convChainGraph(conv));
    ASSERT_EQ(program.segments.size(), 1U);
    const auto& segment = program.segments[0];
    EXPECT_EQ(segment.anchorKind, AnchorKind::Convolution);
    EXPECT_EQ(segment.anchor, 0U);
    EXPECT_EQ(segment.pointwise, (std::vector<size_t>{1, 2, 3}));
    // Only the convolution's output leaves registers: FLOAT, as declared, 1 x 8 x 8 x 8.
    ASSERT_EQ(program.workspaceTensors.size(), 1U);
    EXPECT_EQ(program.workspaceTensors[0].uid, 3);
    EXPECT_EQ(program.workspaceTensors[0].type, ElementType::Float);
    EXPECT_EQ(program.workspaceTensors[0].span, 512);

    ASSERT_TRUE(segment.convolution);
    const auto& convolution = *segment.convolution;
    EXPECT_EQ(convolution.direction, ConvolutionDirection::Forward);
    EXPECT_EQ(convolution.x.uid, 1);
    EXPECT_EQ(convolution.w.uid, 2);
    EXPECT_EQ(convolution.y.uid, 3);
    EXPECT_EQ(convolution.x.type, elementOf(type));
    EXPECT_EQ(convolution.w.type, elementOf(type));
    EXPECT_EQ(convolution.y.type, ElementType::Float);
    EXPECT_EQ(convolution.padding, (std::vector<int64_t>{1, 1}));
    EXPECT_EQ(convolution.stride, (std::vector<int64_t>{1, 1}));
    EXPECT_EQ(convolution.y.strides, convStrides({1, 8, 8, 8}, channelsLast));

    ASSERT_TRUE(segment.kernel);
    EXPECT_EQ(operandUids(*segment.kernel, false), (std::vector<int64_t>{3, 10, 11}));
    EXPECT_EQ(operandUids(*segment.kernel, true), (std::vector<int64_t>{22}));
    EXPECT_EQ(segment.kernel->operands[0].type, ElementType::Float);
    EXPECT_EQ(segment.kernel->operands[3].type, elementOf(type));
    ASSERT_EQ(segment.kernel->steps.size(), 3U);
    EXPECT_EQ(segment.kernel->steps[0].mode, fb::PointwiseMode::ADD);
    EXPECT_EQ(segment.kernel->steps[2].mode, fb::PointwiseMode::RELU_FWD);
}

INSTANTIATE_TEST_SUITE_P(GraphProgram, SupportTableResidualConv,
                         testing::Combine(testing::Values(fb::DataType::FLOAT, fb::DataType::HALF,
                                                          fb::DataType::BFLOAT16),
                                          testing::Bool()));

TEST(GraphProgram, SupportTableMatmulBiasErfGeluIsAPlainMatmulThenAKernel) {
    for (const fb::DataType type : {fb::DataType::FLOAT, fb::DataType::HALF, fb::DataType::BFLOAT16}) {
        const GraphProgram program = analyzed(matmulChainGraph(supportTableMatmulBiasGelu(type)));
        ASSERT_EQ(program.segments.size(), 1U);
        const auto& segment = program.segments[0];
        EXPECT_EQ(segment.anchorKind, AnchorKind::Matmul);
        ASSERT_TRUE(segment.matmul);
        EXPECT_FALSE(segment.matmul->bias.has_value());
        EXPECT_EQ(segment.matmul->activation, hipdnn_cuda_kernels::MatmulActivation::None);
        EXPECT_EQ(segment.matmul->d.uid, 3);
        EXPECT_EQ(segment.matmul->d.type, ElementType::Float);
        EXPECT_EQ(segment.matmul->a.type, elementOf(type));
        ASSERT_TRUE(segment.kernel);
        ASSERT_EQ(segment.kernel->steps.size(), 2U);
        EXPECT_EQ(segment.kernel->steps[1].mode, fb::PointwiseMode::GELU_FWD);
        EXPECT_EQ(operandUids(*segment.kernel, false), (std::vector<int64_t>{3, 10}));
        EXPECT_EQ(operandUids(*segment.kernel, true), (std::vector<int64_t>{21}));
        ASSERT_EQ(program.workspaceTensors.size(), 1U);
        EXPECT_EQ(program.workspaceTensors[0].uid, 3);
        EXPECT_EQ(program.workspaceTensors[0].span, 256);
    }
}

TEST(GraphProgram, ConvolutionWithoutAChainWritesTheGraphOutput) {
    for (const ConvDirection direction : {ConvDirection::Fprop, ConvDirection::Dgrad, ConvDirection::Wgrad}) {
        ConvChainCase conv;
        conv.direction = direction;
        const GraphProgram program = analyzed(convChainGraph(conv));
        ASSERT_EQ(program.segments.size(), 1U);
        EXPECT_FALSE(program.segments[0].kernel.has_value());
        EXPECT_TRUE(program.workspaceTensors.empty());
        ASSERT_TRUE(program.segments[0].convolution);
        EXPECT_EQ(program.segments[0].convolution->output().uid, 3);
    }
}

TEST(GraphProgram, DgradAndWgradTakeCudnnRoles) {
    ConvChainCase conv{.direction = ConvDirection::Dgrad, .c = 4, .k = 6, .chain = {ChainOp::Residual}};
    auto program = analyzed(convChainGraph(conv));
    ASSERT_TRUE(program.segments.at(0).convolution);
    EXPECT_EQ(program.segments[0].convolution->direction, ConvolutionDirection::BackwardData);
    EXPECT_EQ(program.segments[0].convolution->y.uid, 1);  // dy
    EXPECT_EQ(program.segments[0].convolution->x.uid, 3);  // dx, in the workspace
    EXPECT_EQ(program.segments[0].convolution->x.dims, (std::vector<int64_t>{1, 4, 8, 8}));
    conv.direction = ConvDirection::Wgrad;
    program = analyzed(convChainGraph(conv));
    ASSERT_TRUE(program.segments.at(0).convolution);
    EXPECT_EQ(program.segments[0].convolution->direction, ConvolutionDirection::BackwardFilter);
    EXPECT_EQ(program.segments[0].convolution->x.uid, 1);
    EXPECT_EQ(program.segments[0].convolution->y.uid, 2);  // dy
    EXPECT_EQ(program.segments[0].convolution->w.uid, 3);  // dw
    EXPECT_EQ(program.workspaceTensors.at(0).span, 6 * 4 * 3 * 3);
}

TEST(GraphProgram, StorageOverrideChangesTheWorkspaceTypeForTheConvolutionAndTheKernel) {
    const ConvChainCase conv = supportTableResidualConv(fb::DataType::HALF, false);
    const GraphProgram program = analyzed(convChainGraph(conv), {{3, ElementType::Half}});
    ASSERT_EQ(program.workspaceTensors.size(), 1U);
    EXPECT_EQ(program.workspaceTensors[0].type, ElementType::Half);
    EXPECT_EQ(program.segments.at(0).convolution->y.type, ElementType::Half);
    EXPECT_EQ(program.segments[0].kernel->operands.at(0).type, ElementType::Half);
}

TEST(GraphProgram, UnitDimsTakeTheStridesOfTheChannelOrder) {
    // 1 x 8 x 8 x 8 NHWC with N's stride written as if NCHW; dim 0 has extent 1, so only its stride
    // changes (to H * W * C of the channels-last order).
    ConvChainCase conv{.channelsLast = true};
    hipdnn_test_sdk::GraphBuilder graph("unit dims");
    graph.addTensor(1, "x", fb::DataType::FLOAT, {1, 8, 8, 8}, {7, 1, 64, 8})
        .addTensor(2, "w", fb::DataType::FLOAT, {8, 8, 3, 3}, convStrides({8, 8, 3, 3}, true))
        .addTensor(3, "y", fb::DataType::FLOAT, {1, 8, 8, 8}, convStrides({1, 8, 8, 8}, true))
        .addConvFprop("conv", 1, 2, 3,
                      {.prePadding = {1, 1}, .postPadding = {1, 1}, .stride = {1, 1}, .dilation = {1, 1}});
    const GraphProgram program = analyzed(graph);
    EXPECT_EQ(program.segments.at(0).convolution->x.strides, (std::vector<int64_t>{512, 1, 64, 8}));
}

TEST(GraphProgram, MatmulChainOfManyModes) {
    const MatmulChainCase matmul{
        .type = fb::DataType::HALF,
        .batch = {2},
        .m = 5,
        .k = 7,
        .n = 9,
        .columnMajorB = true,
        .chain = {ChainOp::Scale, ChainOp::Bias, ChainOp::Tanh, ChainOp::Residual, ChainOp::Sigmoid}};
    const GraphProgram program = analyzed(matmulChainGraph(matmul));
    ASSERT_EQ(program.segments.size(), 1U);
    const auto& kernel = *program.segments[0].kernel;
    EXPECT_EQ(kernel.steps.size(), 5U);
    EXPECT_EQ(kernel.dims, (std::vector<int64_t>{2, 5, 9}));
    EXPECT_EQ(operandUids(kernel, false), (std::vector<int64_t>{3, 11, 13}));  // the scalar is a constant
    EXPECT_TRUE(program.segments[0].matmul->b.transposed != program.segments[0].matmul->a.transposed ||
                program.segments[0].matmul->swapped);
    EXPECT_EQ(program.workspaceTensors.at(0).span, 2 * 5 * 9);
}

TEST(GraphProgram, VirtualsReadAcrossSegmentsLiveInTheWorkspace) {
    // x -> 2x (virtual, half) -> conv -> relu -> out: the scaled x and the convolution's output are
    // each written by one segment and read by the next.
    const std::vector<int64_t> dims{1, 4, 6, 6};
    hipdnn_test_sdk::GraphBuilder graph("pre-scaled conv");
    graph.setIntermediateDataType(fb::DataType::FLOAT)
        .addTensor(1, "x", fb::DataType::HALF, dims)
        .addScalar(4, "two", fb::DataType::FLOAT, 2.0)
        .addTensor(5, "scaled", fb::DataType::HALF, dims, {}, true)
        .addPointwise("scale", fb::PointwiseMode::MUL, 1, 5, 4)
        .addTensor(2, "w", fb::DataType::HALF, {4, 4, 3, 3})
        .addTensor(3, "y", fb::DataType::FLOAT, {1, 4, 4, 4}, {}, true)
        .addConvFprop("conv", 5, 2, 3,
                      {.prePadding = {0, 0}, .postPadding = {0, 0}, .stride = {1, 1}, .dilation = {1, 1}})
        .addTensor(6, "out", fb::DataType::HALF, {1, 4, 4, 4})
        .addPointwise("relu", fb::PointwiseMode::RELU_FWD, 3, 6);
    const GraphProgram program = analyzed(graph);
    ASSERT_EQ(program.segments.size(), 2U);
    EXPECT_EQ(program.segments[0].anchorKind, AnchorKind::None);
    EXPECT_EQ(program.segments[0].pointwise, (std::vector<size_t>{0}));
    EXPECT_EQ(operandUids(*program.segments[0].kernel, true), (std::vector<int64_t>{5}));
    EXPECT_EQ(program.segments[1].anchorKind, AnchorKind::Convolution);
    ASSERT_EQ(program.workspaceTensors.size(), 2U);
    EXPECT_EQ(program.workspaceTensors[0].uid, 3);
    EXPECT_EQ(program.workspaceTensors[1].uid, 5);
    EXPECT_EQ(program.workspaceTensors[1].type, ElementType::Half);
    EXPECT_EQ(program.workspaceTensors[1].span, 144);
}

TEST(GraphProgram, TwoMatmulsWithAnActivationBetween) {
    hipdnn_test_sdk::GraphBuilder graph("mlp");
    graph.addTensor(1, "a", fb::DataType::FLOAT, {4, 8})
        .addTensor(2, "w1", fb::DataType::FLOAT, {8, 16})
        .addTensor(3, "h", fb::DataType::FLOAT, {4, 16}, {}, true)
        .addMatmul("fc1", 1, 2, 3)
        .addTensor(4, "act", fb::DataType::FLOAT, {4, 16}, {}, true)
        .addPointwise("gelu", fb::PointwiseMode::GELU_FWD, 3, 4)
        .addTensor(5, "w2", fb::DataType::FLOAT, {16, 2})
        .addTensor(6, "out", fb::DataType::FLOAT, {4, 2})
        .addMatmul("fc2", 4, 5, 6);
    const GraphProgram program = analyzed(graph);
    ASSERT_EQ(program.segments.size(), 2U);
    EXPECT_EQ(program.segments[0].pointwise, (std::vector<size_t>{1}));
    EXPECT_FALSE(program.segments[1].kernel.has_value());
    ASSERT_EQ(program.workspaceTensors.size(), 2U);
    EXPECT_EQ(program.workspaceTensors[0].uid, 3);
    EXPECT_EQ(program.workspaceTensors[1].uid, 4);
}

TEST(GraphProgram, PointwiseNodesOfAnotherShapeStartAnotherKernel) {
    ConvChainCase conv{.chain = {ChainOp::Relu}};
    hipdnn_test_sdk::GraphBuilder graph = convChainGraph(conv);
    graph.addTensor(30, "b", fb::DataType::FLOAT, {1, 8, 1, 1})
        .addTensor(31, "b2", fb::DataType::FLOAT, {1, 8, 1, 1})
        .addPointwise("double b", fb::PointwiseMode::ADD, 30, 31, 30);
    const GraphProgram program = analyzed(graph);
    ASSERT_EQ(program.segments.size(), 2U);
    EXPECT_EQ(program.segments[0].pointwise, (std::vector<size_t>{1}));
    EXPECT_EQ(program.segments[1].anchorKind, AnchorKind::None);
    EXPECT_EQ(program.segments[1].pointwise, (std::vector<size_t>{2}));
}

TEST(GraphProgram, RandomCasesAreAccepted) {
    std::mt19937 random(7);
    for (int i = 0; i < 100; ++i) {
        const ConvChainCase conv = randomConvChain(random);
        SCOPED_TRACE(convChainName(conv));
        analyzed(convChainGraph(conv));
        const MatmulChainCase matmul = randomMatmulChain(random);
        SCOPED_TRACE(matmulChainName(matmul));
        analyzed(matmulChainGraph(matmul));
    }
}

TEST(GraphProgram, DeclinesOtherNodes) {
    hipdnn_test_sdk::GraphBuilder graph("reduction");
    graph.addTensor(1, "x", fb::DataType::FLOAT, {4, 8})
        .addTensor(2, "y", fb::DataType::FLOAT, {4, 1})
        .addReduction("sum", fb::ReductionMode::ADD, 1, 2);
    const std::string reason = declineReason(graph);
    EXPECT_NE(reason.find("'sum'"), std::string::npos) << reason;
    EXPECT_NE(reason.find("is not run node by node"), std::string::npos) << reason;
}

TEST(GraphProgram, DeclinesAsymmetricPadding) {
    hipdnn_test_sdk::GraphBuilder graph("asymmetric");
    graph.addTensor(1, "x", fb::DataType::FLOAT, {1, 4, 8, 8})
        .addTensor(2, "w", fb::DataType::FLOAT, {4, 4, 3, 3})
        .addTensor(3, "y", fb::DataType::FLOAT, {1, 4, 7, 7})
        .addConvFprop("conv", 1, 2, 3,
                      {.prePadding = {0, 0}, .postPadding = {1, 1}, .stride = {1, 1}, .dilation = {1, 1}});
    const std::string reason = declineReason(graph);
    EXPECT_NE(reason.find("asymmetric padding (pre [0, 0], post [1, 1])"), std::string::npos) << reason;
    EXPECT_NE(reason.find("'conv'"), std::string::npos) << reason;
}

TEST(GraphProgram, DeclinesMixedChannelOrders) {
    hipdnn_test_sdk::GraphBuilder graph("mixed");
    graph.addTensor(1, "x", fb::DataType::FLOAT, {1, 4, 8, 8})
        .addTensor(2, "w", fb::DataType::FLOAT, {4, 4, 3, 3}, convStrides({4, 4, 3, 3}, true))
        .addTensor(3, "y", fb::DataType::FLOAT, {1, 4, 8, 8})
        .addConvFprop("conv", 1, 2, 3,
                      {.prePadding = {1, 1}, .postPadding = {1, 1}, .stride = {1, 1}, .dilation = {1, 1}});
    const std::string reason = declineReason(graph);
    EXPECT_NE(reason.find("x is channels-first but w is channels-last"), std::string::npos) << reason;
}

TEST(GraphProgram, DeclinesOperandsOfTwoTypes) {
    hipdnn_test_sdk::GraphBuilder graph("two types");
    graph.addTensor(1, "x", fb::DataType::HALF, {1, 4, 8, 8})
        .addTensor(2, "w", fb::DataType::FLOAT, {4, 4, 3, 3})
        .addTensor(3, "y", fb::DataType::FLOAT, {1, 4, 8, 8})
        .addConvFprop("conv", 1, 2, 3,
                      {.prePadding = {1, 1}, .postPadding = {1, 1}, .stride = {1, 1}, .dilation = {1, 1}});
    const std::string reason = declineReason(graph);
    EXPECT_NE(reason.find("is HALF but"), std::string::npos) << reason;
    EXPECT_NE(reason.find("one type"), std::string::npos) << reason;
}

TEST(GraphProgram, DeclinesDoubleCompute) {
    ConvChainCase conv;
    hipdnn_test_sdk::GraphBuilder graph = convChainGraph(conv);
    graph.setComputeDataType(fb::DataType::DOUBLE);
    const std::string reason = declineReason(graph);
    EXPECT_NE(reason.find("compute data type DOUBLE"), std::string::npos) << reason;
}

TEST(GraphProgram, DeclinesADoubleVirtualInTheWorkspace) {
    hipdnn_test_sdk::GraphBuilder graph("double virtual");
    graph.addTensor(1, "a", fb::DataType::FLOAT, {4, 8})
        .addTensor(2, "b", fb::DataType::FLOAT, {8, 4})
        .addTensor(3, "c", fb::DataType::DOUBLE, {4, 4}, {}, true)
        .addMatmul("matmul", 1, 2, 3)
        .addTensor(4, "y", fb::DataType::FLOAT, {4, 4})
        .addPointwise("relu", fb::PointwiseMode::RELU_FWD, 3, 4);
    const std::string reason = declineReason(graph);
    EXPECT_NE(reason.find("tensor uid 3 'c' has data type DOUBLE"), std::string::npos) << reason;
}

TEST(GraphProgram, DeclinesAMatmulThatCublasLtCannotLayOut) {
    hipdnn_test_sdk::GraphBuilder graph("strided");
    graph.addTensor(1, "a", fb::DataType::FLOAT, {4, 8}, {16, 2})
        .addTensor(2, "b", fb::DataType::FLOAT, {8, 4})
        .addTensor(3, "c", fb::DataType::FLOAT, {4, 4})
        .addMatmul("matmul", 1, 2, 3);
    const std::string reason = declineReason(graph);
    EXPECT_NE(reason.find("tensor uid 1 'a' has strides [16, 2]"), std::string::npos) << reason;
}

}  // namespace
}  // namespace cuda_kernels_test
