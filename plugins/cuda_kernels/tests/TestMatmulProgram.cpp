// CUBLASLT_ENGINE without a GPU: graph -> cuBLASLt problem (orientation, layouts and transposes,
// batch collapsing and broadcast, epilogues) and every decline with its reason.
#include "MatmulGraphs.hpp"
#include "PointwiseGraphs.hpp"

#include <matmul/CublasLtEngine.hpp>
#include <matmul/MatmulProgram.hpp>

#include <gtest/gtest.h>

namespace cuda_kernels_test {
namespace {

using hipdnn_cuda_kernels::analyzeMatmulGraph;
using hipdnn_cuda_kernels::ElementType;
using hipdnn_cuda_kernels::MatmulActivation;
using hipdnn_cuda_kernels::MatmulOperand;
using hipdnn_cuda_kernels::MatmulProgram;

MatmulProgram analyzed(const hipdnn_test_sdk::GraphBuilder& graph) {
    std::string reason;
    const auto program = analyzeMatmulGraph(wrap(graph), reason);
    EXPECT_TRUE(program) << reason;
    return program.value_or(MatmulProgram{});
}

std::string declineReason(const hipdnn_test_sdk::GraphBuilder& graph) {
    std::string reason;
    EXPECT_FALSE(analyzeMatmulGraph(wrap(graph), reason).has_value());
    return reason;
}

void expectOperand(const MatmulOperand& operand, int64_t uid, int64_t rows, int64_t columns, int64_t leading,
                   bool transposed, int64_t batchStride) {
    EXPECT_EQ(operand.uid, uid);
    EXPECT_EQ(operand.rows, rows);
    EXPECT_EQ(operand.columns, columns);
    EXPECT_EQ(operand.leadingDimension, leading);
    EXPECT_EQ(operand.transposed, transposed);
    EXPECT_EQ(operand.batchStride, batchStride);
}

constexpr int64_t kM = 37;
constexpr int64_t kK = 129;
constexpr int64_t kN = 65;

MatmulCase odd(fb::DataType type = fb::DataType::FLOAT) {
    return MatmulCase{.type = type, .m = kM, .k = kK, .n = kN};
}

// ---- Orientation and layouts ----

TEST(MatmulProgram, RowMajorProductIsTheColumnMajorProductOfTheTransposes) {
    const MatmulProgram program = analyzed(matmulGraph(odd()));
    // C = A B row-major is C^T = B^T A^T column-major: cuBLASLt's A is b, its B is a.
    EXPECT_TRUE(program.swapped);
    EXPECT_EQ(program.m, kN);
    EXPECT_EQ(program.n, kM);
    EXPECT_EQ(program.k, kK);
    EXPECT_EQ(program.batchCount, 1);
    expectOperand(program.a, 2, kN, kK, kN, false, 0);
    expectOperand(program.b, 1, kK, kM, kK, false, 0);
    expectOperand(program.d, 3, kN, kM, kN, false, 0);
    EXPECT_FALSE(program.bias.has_value());
    EXPECT_EQ(program.activation, MatmulActivation::None);
    EXPECT_EQ(program.a.type, ElementType::Float);
}

TEST(MatmulProgram, TransposedOperandsTakeOpT) {
    MatmulCase matmul = odd(fb::DataType::HALF);
    matmul.columnMajorA = true;
    matmul.columnMajorB = true;
    const MatmulProgram program = analyzed(matmulGraph(matmul));
    EXPECT_TRUE(program.swapped);
    // b stored column-major (stride 1 on K) is the K x N column-major matrix; op = T gives B^T.
    expectOperand(program.a, 2, kK, kN, kK, true, 0);
    expectOperand(program.b, 1, kM, kK, kM, true, 0);
    expectOperand(program.d, 3, kN, kM, kN, false, 0);
    EXPECT_EQ(program.a.type, ElementType::Half);
}

TEST(MatmulProgram, OneTransposedOperand) {
    MatmulCase matmul = odd();
    matmul.columnMajorB = true;
    const MatmulProgram program = analyzed(matmulGraph(matmul));
    expectOperand(program.a, 2, kK, kN, kK, true, 0);
    expectOperand(program.b, 1, kK, kM, kK, false, 0);
}

TEST(MatmulProgram, ColumnMajorOutputKeepsTheGraphsOrder) {
    MatmulCase matmul = odd(fb::DataType::BFLOAT16);
    matmul.columnMajorOutput = true;
    const MatmulProgram program = analyzed(matmulGraph(matmul));
    EXPECT_FALSE(program.swapped);
    EXPECT_EQ(program.m, kM);
    EXPECT_EQ(program.n, kN);
    // a row-major (stride 1 on K) is the column-major K x M matrix: op = T.
    expectOperand(program.a, 1, kK, kM, kK, true, 0);
    expectOperand(program.b, 2, kN, kK, kN, true, 0);
    expectOperand(program.d, 3, kM, kN, kM, false, 0);
}

TEST(MatmulProgram, PaddedLeadingDimensionsAreKept) {
    hipdnn_test_sdk::GraphBuilder graph("padded");
    graph.addTensor(1, "a", fb::DataType::FLOAT, {kM, kK}, {kK + 3, 1})
        .addTensor(2, "b", fb::DataType::FLOAT, {kK, kN}, {1, kK + 7})
        .addTensor(3, "c", fb::DataType::FLOAT, {kM, kN}, {kN + 1, 1})
        .addMatmul("matmul", 1, 2, 3);
    const MatmulProgram program = analyzed(graph);
    expectOperand(program.a, 2, kK, kN, kK + 7, true, 0);
    expectOperand(program.b, 1, kK, kM, kK + 3, false, 0);
    expectOperand(program.d, 3, kN, kM, kN + 1, false, 0);
}

TEST(MatmulProgram, ExtentOneDimsTakeAnyStride) {
    hipdnn_test_sdk::GraphBuilder graph("vector");
    graph.addTensor(1, "a", fb::DataType::FLOAT, {1, kK}, {1, 1})
        .addTensor(2, "b", fb::DataType::FLOAT, {kK, kN})
        .addTensor(3, "c", fb::DataType::FLOAT, {1, kN}, {kN, 1})
        .addMatmul("matmul", 1, 2, 3);
    const MatmulProgram program = analyzed(graph);
    EXPECT_EQ(program.n, 1);
    EXPECT_EQ(program.b.leadingDimension, kK);
}

// ---- Batches ----

TEST(MatmulProgram, BatchDimsCollapseIntoOneStridedBatch) {
    MatmulCase matmul = odd();
    matmul.batch = {2, 3};
    const MatmulProgram program = analyzed(matmulGraph(matmul));
    EXPECT_EQ(program.batchCount, 6);
    EXPECT_EQ(program.a.batchStride, kK * kN);  // cuBLASLt's A is b
    EXPECT_EQ(program.b.batchStride, kM * kK);
    EXPECT_EQ(program.d.batchStride, kM * kN);
}

TEST(MatmulProgram, BroadcastBatchHasStrideZero) {
    MatmulCase matmul = odd();
    matmul.batch = {2, 3};
    matmul.bBatch = {1, 1};
    const MatmulProgram program = analyzed(matmulGraph(matmul));
    EXPECT_EQ(program.batchCount, 6);
    EXPECT_EQ(program.a.batchStride, 0);
    EXPECT_EQ(program.b.batchStride, kM * kK);
}

TEST(MatmulProgram, ExplicitZeroBatchStrideBroadcasts) {
    hipdnn_test_sdk::GraphBuilder graph("zero_stride");
    graph.addTensor(1, "a", fb::DataType::HALF, {4, kM, kK})
        .addTensor(2, "b", fb::DataType::HALF, {4, kK, kN}, {0, kN, 1})
        .addTensor(3, "c", fb::DataType::HALF, {4, kM, kN})
        .addMatmul("matmul", 1, 2, 3);
    const MatmulProgram program = analyzed(graph);
    EXPECT_EQ(program.batchCount, 4);
    EXPECT_EQ(program.a.batchStride, 0);
    EXPECT_EQ(program.b.batchStride, kM * kK);
}

TEST(MatmulProgram, ExtentOneBatchDimsDoNotMove) {
    MatmulCase matmul = odd();
    matmul.batch = {1, 5, 1};
    const MatmulProgram program = analyzed(matmulGraph(matmul));
    EXPECT_EQ(program.batchCount, 5);
    EXPECT_EQ(program.d.batchStride, kM * kN);
}

TEST(MatmulProgram, BatchDimsThatDoNotCollapseAreDeclined) {
    MatmulCase matmul = odd();
    matmul.batch = {2, 3};
    matmul.aBatch = {2, 1};
    EXPECT_EQ(
        declineReason(matmulGraph(matmul)),
        "tensor uid 1 'a' has batch dims [2, 1] with strides [4773, 4773], which do not collapse into one "
        "strided batch over the output's batch dims [2, 3]");

    hipdnn_test_sdk::GraphBuilder gapped("gapped");
    gapped.addTensor(1, "a", fb::DataType::FLOAT, {2, 3, kM, kK}, {4 * kM * kK, kM * kK, kK, 1})
        .addTensor(2, "b", fb::DataType::FLOAT, {2, 3, kK, kN})
        .addTensor(3, "c", fb::DataType::FLOAT, {2, 3, kM, kN})
        .addMatmul("matmul", 1, 2, 3);
    EXPECT_NE(declineReason(gapped).find("tensor uid 1 'a' has batch dims [2, 3] with strides [19092, 4773]"),
              std::string::npos);
}

TEST(MatmulProgram, RepeatedBatchDimsAreDeclined) {
    MatmulCase matmul = odd();
    matmul.batch = {6};
    matmul.aBatch = {2};
    EXPECT_EQ(
        declineReason(matmulGraph(matmul)),
        "tensor uid 1 'a' has batch dim 0 = 2 against the output's 6; only an equal extent or 1 (broadcast) "
        "is supported");
}

// ---- Epilogues ----

TEST(MatmulProgram, BiasAlongMIsOneValuePerColumnOfTheRowMajorOutput) {
    MatmulCase matmul = odd();
    matmul.batch = {4};
    matmul.epilogue = MatmulEpilogue::Bias;
    const MatmulProgram program = analyzed(matmulGraph(matmul));
    EXPECT_TRUE(program.swapped);
    ASSERT_TRUE(program.bias.has_value());
    EXPECT_EQ(program.bias->uid, 4);
    EXPECT_EQ(program.bias->batchStride, 0);
    EXPECT_EQ(program.d.uid, 5);
    EXPECT_EQ(program.activation, MatmulActivation::None);
}

TEST(MatmulProgram, BiasReluAndBiasGeluAreFused) {
    MatmulCase matmul = odd(fb::DataType::HALF);
    matmul.epilogue = MatmulEpilogue::BiasRelu;
    const MatmulProgram relu = analyzed(matmulGraph(matmul));
    EXPECT_EQ(relu.activation, MatmulActivation::Relu);
    EXPECT_TRUE(relu.bias.has_value());
    EXPECT_EQ(relu.d.uid, 6);
    EXPECT_EQ(relu.bias->type, ElementType::Half);

    matmul.epilogue = MatmulEpilogue::BiasGelu;
    EXPECT_EQ(analyzed(matmulGraph(matmul)).activation, MatmulActivation::GeluTanh);

    matmul.epilogue = MatmulEpilogue::Relu;
    const MatmulProgram alone = analyzed(matmulGraph(matmul));
    EXPECT_EQ(alone.activation, MatmulActivation::Relu);
    EXPECT_FALSE(alone.bias.has_value());
}

TEST(MatmulProgram, BiasAlongNNeedsAColumnMajorOutput) {
    MatmulCase matmul = odd();
    matmul.epilogue = MatmulEpilogue::Bias;
    matmul.biasAlongN = true;
    EXPECT_EQ(
        declineReason(matmulGraph(matmul)),
        "tensor uid 4 'bias' broadcasts along N, which cuBLASLt adds only to a column-major output; tensor "
        "uid 5 'biased' has strides [65, 1] on its last two dims [37, 65]");
    matmul.columnMajorOutput = true;
    const MatmulProgram program = analyzed(matmulGraph(matmul));
    EXPECT_FALSE(program.swapped);
    EXPECT_EQ(program.m, kM);
    EXPECT_TRUE(program.bias.has_value());
}

TEST(MatmulProgram, BiasAlongMWithAColumnMajorOutputIsDeclined) {
    MatmulCase matmul = odd();
    matmul.epilogue = MatmulEpilogue::BiasRelu;
    matmul.columnMajorOutput = true;
    EXPECT_NE(
        declineReason(matmulGraph(matmul))
            .find("tensor uid 4 'bias' broadcasts along M, which cuBLASLt adds only to a row-major output"),
        std::string::npos);
}

TEST(MatmulProgram, PerBatchBiasHasABatchStride) {
    hipdnn_test_sdk::GraphBuilder graph("batched_bias");
    graph.addTensor(1, "a", fb::DataType::FLOAT, {3, kM, kK})
        .addTensor(2, "b", fb::DataType::FLOAT, {3, kK, kN})
        .addTensor(3, "c", fb::DataType::FLOAT, {3, kM, kN}, {}, true)
        .addTensor(4, "bias", fb::DataType::FLOAT, {3, 1, kN})
        .addTensor(5, "y", fb::DataType::FLOAT, {3, kM, kN})
        .addMatmul("matmul", 1, 2, 3)
        .addPointwise("bias", fb::PointwiseMode::ADD, 3, 5, 4);
    const MatmulProgram program = analyzed(graph);
    ASSERT_TRUE(program.bias.has_value());
    EXPECT_EQ(program.bias->batchStride, kN);
}

TEST(MatmulProgram, LowerRankBiasAlignsFromTheRightAndEitherAddOrderWorks) {
    hipdnn_test_sdk::GraphBuilder graph("vector_bias");
    graph.addTensor(1, "a", fb::DataType::FLOAT, {2, kM, kK})
        .addTensor(2, "b", fb::DataType::FLOAT, {2, kK, kN})
        .addTensor(3, "c", fb::DataType::FLOAT, {2, kM, kN}, {}, true)
        .addTensor(4, "bias", fb::DataType::FLOAT, {kN})
        .addTensor(5, "y", fb::DataType::FLOAT, {2, kM, kN})
        .addMatmul("matmul", 1, 2, 3)
        .addPointwise("bias", fb::PointwiseMode::ADD, 4, 5, 3);
    const MatmulProgram program = analyzed(graph);
    ASSERT_TRUE(program.bias.has_value());
    EXPECT_EQ(program.bias->uid, 4);
    EXPECT_EQ(program.bias->batchStride, 0);
}

hipdnn_test_sdk::GraphBuilder withEpilogueNode(fb::PointwiseMode mode,
                                               const hipdnn_test_sdk::PointwiseOptions& options = {}) {
    hipdnn_test_sdk::GraphBuilder graph("epilogue");
    graph.addTensor(1, "a", fb::DataType::FLOAT, {kM, kK})
        .addTensor(2, "b", fb::DataType::FLOAT, {kK, kN})
        .addTensor(3, "c", fb::DataType::FLOAT, {kM, kN}, {}, true)
        .addTensor(6, "y", fb::DataType::FLOAT, {kM, kN})
        .addMatmul("matmul", 1, 2, 3)
        .addPointwise("activation", mode, 3, 6, std::nullopt, std::nullopt, options);
    return graph;
}

TEST(MatmulProgram, ErfGeluIsDeclinedForCublasLtsTanhGelu) {
    EXPECT_EQ(declineReason(withEpilogueNode(fb::PointwiseMode::GELU_FWD)),
              "node 1 'activation' (PointwiseAttributes) is GELU_FWD (the erf form); cuBLASLt's gelu "
              "epilogue is the "
              "tanh approximation (GELU_APPROX_TANH_FWD)");
    EXPECT_EQ(analyzed(withEpilogueNode(fb::PointwiseMode::GELU_APPROX_TANH_FWD)).activation,
              MatmulActivation::GeluTanh);
}

TEST(MatmulProgram, ClippedReluAndOtherModesAreDeclined) {
    hipdnn_test_sdk::PointwiseOptions clipped;
    clipped.reluUpperClip = 6.0F;
    hipdnn_test_sdk::PointwiseOptions leaky;
    leaky.reluLowerClipSlope = 0.1F;
    EXPECT_NE(declineReason(withEpilogueNode(fb::PointwiseMode::RELU_FWD, clipped))
                  .find("is a clipped or leaky relu (relu_lower_clip 0.000000, relu_upper_clip 6.000000"),
              std::string::npos);
    EXPECT_NE(declineReason(withEpilogueNode(fb::PointwiseMode::RELU_FWD, leaky))
                  .find("relu_lower_clip_slope 0.100000"),
              std::string::npos);
    EXPECT_EQ(
        declineReason(withEpilogueNode(fb::PointwiseMode::SIGMOID_FWD)),
        "node 1 'activation' (PointwiseAttributes) has mode SIGMOID_FWD; the cuBLASLt epilogue fuses ADD (a "
        "bias), then RELU_FWD or GELU_APPROX_TANH_FWD");
}

TEST(MatmulProgram, EpilogueOrderAndShapeAreChecked) {
    hipdnn_test_sdk::GraphBuilder addAfterRelu("add_after_relu");
    addAfterRelu.addTensor(1, "a", fb::DataType::FLOAT, {kM, kK})
        .addTensor(2, "b", fb::DataType::FLOAT, {kK, kN})
        .addTensor(3, "c", fb::DataType::FLOAT, {kM, kN}, {}, true)
        .addTensor(4, "bias", fb::DataType::FLOAT, {1, kN})
        .addTensor(5, "r", fb::DataType::FLOAT, {kM, kN}, {}, true)
        .addTensor(6, "y", fb::DataType::FLOAT, {kM, kN})
        .addMatmul("matmul", 1, 2, 3)
        .addPointwise("relu", fb::PointwiseMode::RELU_FWD, 3, 5)
        .addPointwise("bias", fb::PointwiseMode::ADD, 5, 6, 4);
    EXPECT_EQ(
        declineReason(addAfterRelu),
        "node 2 'bias' (PointwiseAttributes) adds after the activation; cuBLASLt adds the bias before it");

    hipdnn_test_sdk::GraphBuilder full("full_residual");
    full.addTensor(1, "a", fb::DataType::FLOAT, {kM, kK})
        .addTensor(2, "b", fb::DataType::FLOAT, {kK, kN})
        .addTensor(3, "c", fb::DataType::FLOAT, {kM, kN}, {}, true)
        .addTensor(4, "residual", fb::DataType::FLOAT, {kM, kN})
        .addTensor(5, "y", fb::DataType::FLOAT, {kM, kN})
        .addMatmul("matmul", 1, 2, 3)
        .addPointwise("add", fb::PointwiseMode::ADD, 3, 5, 4);
    EXPECT_EQ(declineReason(full),
              "tensor uid 4 'residual' has dims [37, 65] and strides [65, 1]; cuBLASLt adds a packed vector "
              "broadcast "
              "along M ([..., 1, 65]) or along N ([..., 37, 1])");
}

TEST(MatmulProgram, IntermediatesInMemoryAndScalarBiasesAreDeclined) {
    hipdnn_test_sdk::GraphBuilder written("written");
    written.addTensor(1, "a", fb::DataType::FLOAT, {kM, kK})
        .addTensor(2, "b", fb::DataType::FLOAT, {kK, kN})
        .addTensor(3, "c", fb::DataType::FLOAT, {kM, kN})
        .addTensor(4, "bias", fb::DataType::FLOAT, {1, kN})
        .addTensor(5, "y", fb::DataType::FLOAT, {kM, kN})
        .addMatmul("matmul", 1, 2, 3)
        .addPointwise("bias", fb::PointwiseMode::ADD, 3, 5, 4);
    EXPECT_EQ(declineReason(written),
              "tensor uid 3 'c' is written to memory before node 1 'bias' (PointwiseAttributes); cuBLASLt "
              "writes only "
              "the epilogue's final output");

    hipdnn_test_sdk::GraphBuilder scalar("scalar");
    scalar.addTensor(1, "a", fb::DataType::FLOAT, {kM, kK})
        .addTensor(2, "b", fb::DataType::FLOAT, {kK, kN})
        .addTensor(3, "c", fb::DataType::FLOAT, {kM, kN}, {}, true)
        .addScalar(4, "shift", fb::DataType::FLOAT, 0.5)
        .addTensor(5, "y", fb::DataType::FLOAT, {kM, kN})
        .addMatmul("matmul", 1, 2, 3)
        .addPointwise("bias", fb::PointwiseMode::ADD, 3, 5, 4);
    EXPECT_EQ(declineReason(scalar),
              "tensor uid 4 'shift' is a pass-by-value scalar; cuBLASLt's bias is a vector in device memory");
}

// ---- Nodes, types, strides ----

TEST(MatmulProgram, OtherNodesAreDeclinedByKind) {
    hipdnn_test_sdk::GraphBuilder reduction("reduction");
    reduction.addTensor(1, "x", fb::DataType::FLOAT, {kM, kK})
        .addTensor(2, "y", fb::DataType::FLOAT, {kM, 1})
        .addReduction("sum", fb::ReductionMode::ADD, 1, 2);
    EXPECT_EQ(declineReason(reduction),
              "node 0 'sum' (ReductionAttributes) is not a matmul or a pointwise epilogue node");

    EXPECT_EQ(declineReason(scaleAddReluGraph(fb::DataType::FLOAT, {2, 3, 4, 5})),
              "node 0 'scale' (PointwiseAttributes) comes before the matmul; only a bias add and an "
              "activation after "
              "it are fused");

    hipdnn_test_sdk::GraphBuilder two("two_matmuls");
    two.addTensor(1, "a", fb::DataType::FLOAT, {kM, kK})
        .addTensor(2, "b", fb::DataType::FLOAT, {kK, kN})
        .addTensor(3, "c", fb::DataType::FLOAT, {kM, kN}, {}, true)
        .addTensor(4, "d", fb::DataType::FLOAT, {kN, kM})
        .addTensor(5, "e", fb::DataType::FLOAT, {kM, kM})
        .addMatmul("first", 1, 2, 3)
        .addMatmul("second", 3, 4, 5);
    EXPECT_EQ(declineReason(two),
              "the graph has two matmul nodes (node 0 'first' (MatmulAttributes), node 1 'second' "
              "(MatmulAttributes)); the engine runs one");
}

TEST(MatmulProgram, DataAndComputeTypesAreChecked) {
    hipdnn_test_sdk::GraphBuilder mixed("mixed");
    mixed.addTensor(1, "a", fb::DataType::HALF, {kM, kK})
        .addTensor(2, "b", fb::DataType::FLOAT, {kK, kN})
        .addTensor(3, "c", fb::DataType::FLOAT, {kM, kN})
        .addMatmul("matmul", 1, 2, 3);
    EXPECT_EQ(declineReason(mixed),
              "tensor uid 1 'a' is HALF and tensor uid 2 'b' is FLOAT; cuBLASLt takes A and B of one type");

    MatmulCase narrowing = odd();
    narrowing.outputType = fb::DataType::HALF;
    EXPECT_EQ(declineReason(matmulGraph(narrowing)),
              "tensor uid 3 'c' is HALF with FLOAT inputs; the output must be FLOAT or the inputs' type");

    MatmulCase widening = odd(fb::DataType::BFLOAT16);
    widening.outputType = fb::DataType::FLOAT;
    widening.epilogue = MatmulEpilogue::BiasGelu;
    EXPECT_EQ(analyzed(matmulGraph(widening)).d.type, ElementType::Float);

    hipdnn_test_sdk::GraphBuilder integer("integer");
    integer.addTensor(1, "a", fb::DataType::INT32, {kM, kK})
        .addTensor(2, "b", fb::DataType::INT32, {kK, kN})
        .addTensor(3, "c", fb::DataType::INT32, {kM, kN})
        .addMatmul("matmul", 1, 2, 3);
    EXPECT_EQ(declineReason(integer),
              "tensor uid 1 'a' has data type INT32; supported: FLOAT, HALF, BFLOAT16");

    hipdnn_test_sdk::GraphBuilder halfCompute = matmulGraph(odd(fb::DataType::HALF));
    halfCompute.setNodeComputeDataType(fb::DataType::HALF);
    EXPECT_EQ(
        declineReason(halfCompute),
        "node 0 'matmul' (MatmulAttributes) has compute data type HALF; cuBLASLt computes in FLOAT (fp32 "
        "accumulation and scale)");

    hipdnn_test_sdk::GraphBuilder biasType("bias_type");
    biasType.addTensor(1, "a", fb::DataType::HALF, {kM, kK})
        .addTensor(2, "b", fb::DataType::HALF, {kK, kN})
        .addTensor(3, "c", fb::DataType::FLOAT, {kM, kN}, {}, true)
        .addTensor(4, "bias", fb::DataType::FLOAT, {1, kN})
        .addTensor(5, "y", fb::DataType::HALF, {kM, kN})
        .addMatmul("matmul", 1, 2, 3)
        .addPointwise("bias", fb::PointwiseMode::ADD, 3, 5, 4);
    EXPECT_EQ(declineReason(biasType),
              "tensor uid 4 'bias' is FLOAT; cuBLASLt's bias has the output's type, HALF");
}

TEST(MatmulProgram, MatricesWithoutAUnitStrideAreDeclined) {
    hipdnn_test_sdk::GraphBuilder strided("strided");
    strided.addTensor(1, "a", fb::DataType::FLOAT, {kM, kK}, {2 * kK, 2})
        .addTensor(2, "b", fb::DataType::FLOAT, {kK, kN})
        .addTensor(3, "c", fb::DataType::FLOAT, {kM, kN})
        .addMatmul("matmul", 1, 2, 3);
    EXPECT_EQ(
        declineReason(strided),
        "tensor uid 1 'a' has strides [258, 2] on its last two dims [37, 129]; cuBLASLt reads a row- or "
        "column-major matrix (stride 1 on one of them, the other at least its extent)");

    hipdnn_test_sdk::GraphBuilder gapped("gapped");
    gapped.addTensor(1, "a", fb::DataType::FLOAT, {kM, kK})
        .addTensor(2, "b", fb::DataType::FLOAT, {kK, kN})
        .addTensor(3, "c", fb::DataType::FLOAT, {kM, kN}, {2 * kN, 2})
        .addMatmul("matmul", 1, 2, 3);
    EXPECT_EQ(
        declineReason(gapped),
        "tensor uid 3 'c' has strides [130, 2] on its last two dims [37, 65]; cuBLASLt writes a row- or "
        "column-major matrix (stride 1 on one of them, the other at least its extent)");
}

TEST(MatmulProgram, DescribeNamesTheProblem) {
    MatmulCase matmul = odd(fb::DataType::HALF);
    matmul.batch = {4};
    matmul.columnMajorB = true;
    matmul.epilogue = MatmulEpilogue::BiasRelu;
    EXPECT_EQ(hipdnn_cuda_kernels::describeMatmul(analyzed(matmulGraph(matmul))),
              "m 65, n 37, k 129, batch 4, A HALF (T), B HALF, D HALF, bias, relu");
}

TEST(MatmulProgram, Bfloat16NeedsSm80) {
    const auto graph = matmulGraph(odd(fb::DataType::BFLOAT16));
    std::string reason;
    EXPECT_FALSE(hipdnn_cuda_kernels::planMatmul(wrap(graph), {.computeCapability = 75}, reason).has_value());
    EXPECT_EQ(reason, "cuBLASLt runs BFLOAT16 matmuls on sm_80 and later; the device is sm_75");
    EXPECT_TRUE(hipdnn_cuda_kernels::planMatmul(wrap(graph), {.computeCapability = 90}, reason).has_value());
}

}  // namespace
}  // namespace cuda_kernels_test
