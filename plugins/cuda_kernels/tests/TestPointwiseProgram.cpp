// Graph analysis: iteration space, operands and their strides, steps, the contiguous fast path,
// and the reasons the engine declines a graph.
#include "PointwiseGraphs.hpp"

#include <pointwise/PointwiseProgram.hpp>

#include <gtest/gtest.h>

#include <limits>

namespace cuda_kernels_test {
namespace {

using hipdnn_cuda_kernels::analyzePointwiseGraph;
using hipdnn_cuda_kernels::ElementType;
using hipdnn_cuda_kernels::StepInput;

std::vector<int64_t> nhwc(const std::vector<int64_t>& dims) {
    return {dims[1] * dims[2] * dims[3], 1, dims[3] * dims[1], dims[1]};
}

TEST(PointwiseProgram, ScaleAddReluChainKeepsIntermediatesInRegisters) {
    std::string reason;
    const auto program =
        analyzePointwiseGraph(wrap(scaleAddReluGraph(fb::DataType::BFLOAT16, {2, 3, 4, 5})), reason);
    ASSERT_TRUE(program) << reason;
    EXPECT_EQ(program->dims, (std::vector<int64_t>{2, 3, 4, 5}));
    ASSERT_EQ(program->operands.size(), 3U);  // x, b in; y out; the scalar is a constant
    EXPECT_EQ(program->operands[0].uid, 1);
    EXPECT_EQ(program->operands[1].uid, 4);
    EXPECT_EQ(program->operands[2].uid, 6);
    EXPECT_TRUE(program->operands[2].isOutput);
    EXPECT_EQ(program->operands[0].type, ElementType::BFloat16);
    EXPECT_TRUE(program->contiguous);
    ASSERT_EQ(program->steps.size(), 3U);
    EXPECT_EQ(program->steps[0].inputs[1].kind, StepInput::Kind::Constant);
    EXPECT_EQ(program->steps[0].inputs[1].constant, 1.5);
    EXPECT_EQ(program->steps[1].inputs[0].kind, StepInput::Kind::Step);
    EXPECT_EQ(program->steps[1].inputs[0].index, 0U);
    EXPECT_FALSE(program->steps[1].storeOperand.has_value());
    EXPECT_EQ(program->steps[2].storeOperand, std::optional<size_t>(2));
    EXPECT_EQ(program->steps[2].reluLowerClip, 0.0);
    EXPECT_EQ(program->steps[2].reluUpperClip, std::numeric_limits<double>::infinity());
}

TEST(PointwiseProgram, SharedChannelsLastLayoutIsContiguous) {
    const std::vector<int64_t> dims = {2, 8, 3, 3};
    std::string reason;
    const auto program =
        analyzePointwiseGraph(wrap(scaleAddReluGraph(fb::DataType::HALF, dims, nhwc(dims))), reason);
    ASSERT_TRUE(program) << reason;
    EXPECT_TRUE(program->contiguous);
    EXPECT_EQ(program->operands[0].strides, nhwc(dims));
}

TEST(PointwiseProgram, MixedLayoutsAndBroadcastsTakeTheIndexedPath) {
    const std::vector<int64_t> dims = {2, 8, 3, 3};
    hipdnn_test_sdk::GraphBuilder mixed("mixed");
    mixed.addTensor(1, "x", fb::DataType::FLOAT, dims, nhwc(dims))
        .addTensor(2, "b", fb::DataType::FLOAT, dims)
        .addTensor(3, "y", fb::DataType::FLOAT, dims)
        .addPointwise("add", fb::PointwiseMode::ADD, 1, 3, 2);
    std::string reason;
    const auto mixedProgram = analyzePointwiseGraph(wrap(mixed), reason);
    ASSERT_TRUE(mixedProgram) << reason;
    EXPECT_FALSE(mixedProgram->contiguous);

    hipdnn_test_sdk::GraphBuilder bias("bias");
    bias.addTensor(1, "x", fb::DataType::HALF, dims)
        .addTensor(2, "bias", fb::DataType::HALF, {1, 8, 1, 1})
        .addTensor(3, "y", fb::DataType::HALF, dims)
        .addPointwise("add", fb::PointwiseMode::ADD, 1, 3, 2);
    const auto biasProgram = analyzePointwiseGraph(wrap(bias), reason);
    ASSERT_TRUE(biasProgram) << reason;
    EXPECT_FALSE(biasProgram->contiguous);
    EXPECT_EQ(biasProgram->operands[1].strides, (std::vector<int64_t>{0, 1, 0, 0}));
}

TEST(PointwiseProgram, LowerRankInputsAlignFromTheRight) {
    hipdnn_test_sdk::GraphBuilder builder("rank");
    builder.addTensor(1, "x", fb::DataType::FLOAT, {2, 3, 4})
        .addTensor(2, "row", fb::DataType::FLOAT, {4})
        .addTensor(3, "y", fb::DataType::FLOAT, {2, 3, 4})
        .addPointwise("mul", fb::PointwiseMode::MUL, 1, 3, 2);
    std::string reason;
    const auto program = analyzePointwiseGraph(wrap(builder), reason);
    ASSERT_TRUE(program) << reason;
    EXPECT_EQ(program->operands[1].strides, (std::vector<int64_t>{0, 0, 1}));
}

TEST(PointwiseProgram, SingleElementInputsStayOnTheFastPath) {
    hipdnn_test_sdk::GraphBuilder builder("scalar_buffer");
    builder.addTensor(1, "x", fb::DataType::FLOAT, {2, 3, 4})
        .addTensor(2, "s", fb::DataType::FLOAT, {1, 1, 1})
        .addTensor(3, "y", fb::DataType::FLOAT, {2, 3, 4})
        .addPointwise("mul", fb::PointwiseMode::MUL, 1, 3, 2);
    std::string reason;
    const auto program = analyzePointwiseGraph(wrap(builder), reason);
    ASSERT_TRUE(program) << reason;
    EXPECT_TRUE(program->operands[1].isSingleElement);
    EXPECT_TRUE(program->contiguous);
}

TEST(PointwiseProgram, VirtualHalfIntermediatesAreRounded) {
    hipdnn_test_sdk::GraphBuilder builder("half_virtual");
    builder.addTensor(1, "x", fb::DataType::FLOAT, {8})
        .addTensor(2, "e", fb::DataType::HALF, {8}, {}, true)
        .addTensor(3, "y", fb::DataType::FLOAT, {8})
        .addPointwise("exp", fb::PointwiseMode::EXP, 1, 2)
        .addPointwise("neg", fb::PointwiseMode::NEG, 2, 3);
    std::string reason;
    const auto program = analyzePointwiseGraph(wrap(builder), reason);
    ASSERT_TRUE(program) << reason;
    EXPECT_EQ(program->steps[0].roundTo, std::optional<ElementType>(ElementType::Half));
    EXPECT_FALSE(program->steps[1].roundTo.has_value());
}

TEST(PointwiseProgram, FloatIntermediatesOfDoubleStepsAreRounded) {
    auto builder = scaleAddReluGraph(fb::DataType::FLOAT, {4});
    builder.setComputeDataType(fb::DataType::DOUBLE);
    std::string reason;
    const auto program = analyzePointwiseGraph(wrap(builder), reason);
    ASSERT_TRUE(program) << reason;
    EXPECT_EQ(program->steps[0].roundTo, std::optional<ElementType>(ElementType::Float));
    EXPECT_FALSE(program->steps[2].roundTo.has_value());  // written to memory, not virtual
    EXPECT_FALSE(analyzePointwiseGraph(wrap(scaleAddReluGraph(fb::DataType::FLOAT, {4})), reason)
                     ->steps[0]
                     .roundTo.has_value());
}

TEST(PointwiseProgram, NodeComputeTypeOverridesTheGraphs) {
    auto builder = scaleAddReluGraph(fb::DataType::FLOAT, {4});
    builder.setNodeComputeDataType(fb::DataType::DOUBLE);
    std::string reason;
    const auto program = analyzePointwiseGraph(wrap(builder), reason);
    ASSERT_TRUE(program) << reason;
    EXPECT_EQ(program->steps[0].compute, hipdnn_cuda_kernels::ComputeType::Float);
    EXPECT_EQ(program->steps[2].compute, hipdnn_cuda_kernels::ComputeType::Double);
}

TEST(PointwiseProgram, DeclinesOtherOperations) {
    hipdnn_test_sdk::GraphBuilder builder("matmul");
    builder.addTensor(1, "a", fb::DataType::FLOAT, {1, 4, 4})
        .addTensor(2, "b", fb::DataType::FLOAT, {1, 4, 4})
        .addTensor(3, "c", fb::DataType::FLOAT, {1, 4, 4})
        .addMatmul("mm", 1, 2, 3);
    std::string reason;
    EXPECT_FALSE(analyzePointwiseGraph(wrap(builder), reason));
    EXPECT_EQ(reason, "node 0 'mm' (MatmulAttributes) is not a pointwise operation");
}

TEST(PointwiseProgram, DeclinesUnsupportedDataTypes) {
    hipdnn_test_sdk::GraphBuilder builder("int8");
    builder.addTensor(1, "x", fb::DataType::INT8, {4})
        .addTensor(2, "y", fb::DataType::FLOAT, {4})
        .addPointwise("id", fb::PointwiseMode::IDENTITY, 1, 2);
    std::string reason;
    EXPECT_FALSE(analyzePointwiseGraph(wrap(builder), reason));
    EXPECT_EQ(reason, "tensor uid 1 'x' has data type INT8; supported: FLOAT, HALF, BFLOAT16");
}

TEST(PointwiseProgram, DeclinesOutputsOfDifferentShapes) {
    hipdnn_test_sdk::GraphBuilder builder("shapes");
    builder.addTensor(1, "x", fb::DataType::FLOAT, {1, 4})
        .addTensor(2, "row", fb::DataType::FLOAT, {1, 4})
        .addTensor(3, "full", fb::DataType::FLOAT, {3, 4})
        .addTensor(4, "y", fb::DataType::FLOAT, {3, 4})
        .addPointwise("neg", fb::PointwiseMode::NEG, 1, 2)
        .addPointwise("add", fb::PointwiseMode::ADD, 3, 4, 2);
    std::string reason;
    EXPECT_FALSE(analyzePointwiseGraph(wrap(builder), reason));
    EXPECT_NE(reason.find("outputs have different dims"), std::string::npos) << reason;
}

TEST(PointwiseProgram, DeclinesReducedPrecisionComputeTypes) {
    auto builder = scaleAddReluGraph(fb::DataType::FLOAT, {4});
    builder.setComputeDataType(fb::DataType::HALF);
    std::string reason;
    EXPECT_FALSE(analyzePointwiseGraph(wrap(builder), reason));
    EXPECT_EQ(reason,
              "node 0 'scale' (PointwiseAttributes) has compute data type HALF; supported: FLOAT, DOUBLE");
}

}  // namespace
}  // namespace cuda_kernels_test
