// CUDA_GRAPH_ENGINE against the CPU reference: convolutions (fprop, dgrad, wgrad) through cuDNN,
// 1x1 channels-last convolutions as cuBLASLt products (and through cuDNN with
// cuda_graph.convolution_gemm = 0), matmuls through cuBLASLt, each with a pointwise chain after it
// in one generated kernel; fp32, fp16 and bf16, NCHW and NHWC; the support table's conv + bias +
// add + relu and matmul + bias + erf gelu rows; random shapes and chains; plans rebuilt from their
// serialized bytes.
#include "../tests/GraphGraphs.hpp"
#include "EngineHarness.hpp"

#include <hipdnn_test_sdk/Seed.hpp>
#include <hipdnn_test_sdk/SkipIfNoDevice.hpp>

#include <gtest/gtest.h>

#include <random>

namespace cuda_kernels_integration {
namespace {

using cuda_kernels_test::ChainOp;
using cuda_kernels_test::ConvChainCase;
using cuda_kernels_test::ConvDirection;
using cuda_kernels_test::MatmulChainCase;

hipdnn_test_sdk::ToleranceOp convTolerance(ConvDirection direction) {
    switch (direction) {
        case ConvDirection::Dgrad:
            return hipdnn_test_sdk::ToleranceOp::ConvolutionBwd;
        case ConvDirection::Wgrad:
            return hipdnn_test_sdk::ToleranceOp::ConvolutionWrw;
        case ConvDirection::Fprop:
            break;
    }
    return hipdnn_test_sdk::ToleranceOp::ConvolutionFwd;
}

RunOptions convOptions(const ConvChainCase& conv) {
    RunOptions options;
    options.engineId = hipdnn_data_sdk::utilities::CUDA_GRAPH_ENGINE_ID;
    options.tolerance = convTolerance(conv.direction);
    options.reductionTerms = cuda_kernels_test::convReductionTerms(conv);
    return options;
}

RunOptions matmulOptions(const MatmulChainCase& matmul) {
    RunOptions options;
    options.engineId = hipdnn_data_sdk::utilities::CUDA_GRAPH_ENGINE_ID;
    options.tolerance = hipdnn_test_sdk::ToleranceOp::Matmul;
    options.reductionTerms = matmul.k;
    return options;
}

const fb::DataType kTypes[] = {fb::DataType::FLOAT, fb::DataType::HALF, fb::DataType::BFLOAT16};

// A 1x1 channels-last convolution with unit strides and no padding, which runs as a cuBLASLt
// product; fprop with a bias and relu after it.
ConvChainCase pointwiseConvolution(fb::DataType type, ConvDirection direction, int64_t n, int64_t c,
                                   int64_t k) {
    ConvChainCase conv{.type = type,
                       .channelsLast = true,
                       .direction = direction,
                       .n = n,
                       .c = c,
                       .h = 7,
                       .w = 5,
                       .k = k,
                       .r = 1,
                       .s = 1,
                       .padding = 0};
    if (direction == ConvDirection::Fprop) {
        conv.chain = {ChainOp::Bias, ChainOp::Relu};
    }
    return conv;
}

std::vector<ConvChainCase> convSmokeCases() {
    std::vector<ConvChainCase> cases;
    for (const fb::DataType type : kTypes) {
        for (const bool channelsLast : {false, true}) {
            cases.push_back(cuda_kernels_test::supportTableResidualConv(type, channelsLast));
            cases.push_back({.type = type,
                             .channelsLast = channelsLast,
                             .n = 2,
                             .c = 5,
                             .h = 9,
                             .w = 7,
                             .k = 6,
                             .stride = 2,
                             .chain = {ChainOp::Bias, ChainOp::Relu}});
            cases.push_back(
                {.type = type, .channelsLast = channelsLast, .n = 2, .c = 3, .h = 6, .w = 6, .k = 4});
            cases.push_back({.type = type,
                             .channelsLast = channelsLast,
                             .direction = ConvDirection::Dgrad,
                             .n = 2,
                             .c = 4,
                             .k = 6,
                             .chain = {ChainOp::Residual, ChainOp::Relu}});
            cases.push_back({.type = type,
                             .channelsLast = channelsLast,
                             .direction = ConvDirection::Wgrad,
                             .n = 2,
                             .c = 4,
                             .k = 6,
                             .chain = {ChainOp::Scale}});
            cases.push_back({.type = type,
                             .channelsLast = channelsLast,
                             .c = 8,
                             .h = 11,
                             .w = 11,
                             .k = 8,
                             .dilation = 2,
                             .chain = {ChainOp::Bias, ChainOp::Gelu, ChainOp::Residual, ChainOp::Sigmoid}});
        }
        for (const ConvDirection direction :
             {ConvDirection::Fprop, ConvDirection::Dgrad, ConvDirection::Wgrad}) {
            cases.push_back(pointwiseConvolution(type, direction, 2, 24, 40));
        }
    }
    return cases;
}

std::vector<ConvChainCase> convFullCases() {
    std::vector<ConvChainCase> cases;
    for (const fb::DataType type : kTypes) {
        for (const bool channelsLast : {false, true}) {
            cases.push_back({.type = type,
                             .channelsLast = channelsLast,
                             .n = 8,
                             .c = 64,
                             .h = 56,
                             .w = 56,
                             .k = 64,
                             .chain = {ChainOp::Bias, ChainOp::Residual, ChainOp::Relu}});
        }
        // A ResNet-50 layer-1 shape at batch 8: the wgrad sums 8 x 56 x 56 positions.
        for (const ConvDirection direction :
             {ConvDirection::Fprop, ConvDirection::Dgrad, ConvDirection::Wgrad}) {
            ConvChainCase conv = pointwiseConvolution(type, direction, 8, 64, 64);
            conv.h = 56;
            conv.w = 56;
            cases.push_back(conv);
        }
    }
    return cases;
}

std::vector<MatmulChainCase> matmulSmokeCases() {
    std::vector<MatmulChainCase> cases;
    for (const fb::DataType type : kTypes) {
        cases.push_back(cuda_kernels_test::supportTableMatmulBiasGelu(type));
        cases.push_back({.type = type, .m = 37, .k = 129, .n = 65, .chain = {ChainOp::Bias, ChainOp::Gelu}});
        cases.push_back(
            {.type = type,
             .batch = {2, 3},
             .m = 17,
             .k = 33,
             .n = 9,
             .columnMajorB = true,
             .chain = {ChainOp::Scale, ChainOp::Bias, ChainOp::Tanh, ChainOp::Residual, ChainOp::Sigmoid}});
        cases.push_back(
            {.type = type, .m = 8, .k = 300, .n = 24, .chain = {ChainOp::Residual, ChainOp::Relu}});
    }
    return cases;
}

class GraphConv : public testing::TestWithParam<ConvChainCase> {};

TEST_P(GraphConv, MatchesReference) {
    SKIP_IF_NO_DEVICE();
    expectMatchesReference(cuda_kernels_test::convChainGraph(GetParam()), convOptions(GetParam()));
}

std::string convName(const testing::TestParamInfo<ConvChainCase>& info) {
    return cuda_kernels_test::convChainName(info.param);
}

INSTANTIATE_TEST_SUITE_P(Smoke, GraphConv, testing::ValuesIn(convSmokeCases()), convName);
INSTANTIATE_TEST_SUITE_P(Full, GraphConv, testing::ValuesIn(convFullCases()), convName);

class GraphMatmul : public testing::TestWithParam<MatmulChainCase> {};

TEST_P(GraphMatmul, MatchesReference) {
    SKIP_IF_NO_DEVICE();
    expectMatchesReference(cuda_kernels_test::matmulChainGraph(GetParam()), matmulOptions(GetParam()));
}

TEST_P(GraphMatmul, MisalignedPointers) {
    SKIP_IF_NO_DEVICE();
    RunOptions options = matmulOptions(GetParam());
    options.misalign = true;
    expectMatchesReference(cuda_kernels_test::matmulChainGraph(GetParam()), options);
}

std::string matmulName(const testing::TestParamInfo<MatmulChainCase>& info) {
    return cuda_kernels_test::matmulChainName(info.param);
}

INSTANTIATE_TEST_SUITE_P(Smoke, GraphMatmul, testing::ValuesIn(matmulSmokeCases()), matmulName);

// Plans rebuilt from their serialized bytes plan cuDNN's convolution, cuBLASLt's matmul and the
// kernels again, under the configuration's workspace limit.
TEST(SmokeGraphSerialization, SerializedPlansReloadAndRunBitIdentically) {
    SKIP_IF_NO_DEVICE();
    const ConvChainCase conv = cuda_kernels_test::supportTableResidualConv(fb::DataType::HALF, true);
    RunOptions convRun = convOptions(conv);
    convRun.roundTripSerialization = true;
    expectMatchesReference(cuda_kernels_test::convChainGraph(conv), convRun);

    const MatmulChainCase matmul{
        .type = fb::DataType::BFLOAT16, .m = 37, .k = 129, .n = 65, .chain = {ChainOp::Bias, ChainOp::Gelu}};
    RunOptions matmulRun = matmulOptions(matmul);
    matmulRun.knobs["global.workspace_size_limit"] = int64_t{1} << 20;
    matmulRun.roundTripSerialization = true;
    expectMatchesReference(cuda_kernels_test::matmulChainGraph(matmul), matmulRun);
}

// The same 1x1 convolutions through cuDNN (cuda_graph.convolution_gemm = 0), and as a product
// rebuilt from a serialized plan, which keeps the knob.
TEST(SmokeGraphConvolutionGemm, TheKnobChoosesCudnnAndSerializedPlansKeepTheProduct) {
    SKIP_IF_NO_DEVICE();
    for (const ConvDirection direction : {ConvDirection::Fprop, ConvDirection::Dgrad, ConvDirection::Wgrad}) {
        const ConvChainCase conv = pointwiseConvolution(fb::DataType::FLOAT, direction, 2, 16, 24);
        SCOPED_TRACE(cuda_kernels_test::convChainName(conv));
        RunOptions throughCudnn = convOptions(conv);
        throughCudnn.knobs["cuda_graph.convolution_gemm"] = int64_t{0};
        expectMatchesReference(cuda_kernels_test::convChainGraph(conv), throughCudnn);
        RunOptions reloaded = convOptions(conv);
        reloaded.knobs["cuda_graph.convolution_gemm"] = int64_t{1};
        reloaded.roundTripSerialization = true;
        expectMatchesReference(cuda_kernels_test::convChainGraph(conv), reloaded);
    }
}

TEST(SmokeGraphRandom, ConvolutionsAndMatmulsWithRandomChains) {
    SKIP_IF_NO_DEVICE();
    std::mt19937 random(hipdnn_test_sdk::globalTestSeed());
    for (int i = 0; i < 16; ++i) {
        const ConvChainCase conv = cuda_kernels_test::randomConvChain(random);
        SCOPED_TRACE(cuda_kernels_test::convChainName(conv));
        expectMatchesReference(cuda_kernels_test::convChainGraph(conv), convOptions(conv));
        const MatmulChainCase matmul = cuda_kernels_test::randomMatmulChain(random);
        SCOPED_TRACE(cuda_kernels_test::matmulChainName(matmul));
        expectMatchesReference(cuda_kernels_test::matmulChainGraph(matmul), matmulOptions(matmul));
    }
}

}  // namespace
}  // namespace cuda_kernels_integration
