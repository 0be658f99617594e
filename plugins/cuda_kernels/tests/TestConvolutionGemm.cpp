// CUDA_GRAPH_ENGINE's 1x1 convolutions as cuBLASLt products, checked by arithmetic without a GPU:
// the program of every direction, run on the host with cuBLASLt's column-major semantics, writes
// the convolution's result into the output's memory (random shapes, packed and row-padded
// channels-last tensors); every convolution that is no plain product is declined with its reason.
#include "CublasLtSemantics.hpp"
#include "GraphGraphs.hpp"
#include "PointwiseGraphs.hpp"

#include <graph/ConvolutionGemm.hpp>
#include <graph/GraphProgram.hpp>

#include <hipdnn_test_sdk/Seed.hpp>

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace cuda_kernels_test {
namespace {

using hipdnn_cuda_kernels::analyzeGraphProgram;
using hipdnn_cuda_kernels::convolutionAsMatmul;
using hipdnn_cuda_kernels::ConvolutionDirection;
using hipdnn_cuda_kernels::ConvolutionProgram;
using hipdnn_cuda_kernels::ConvolutionTensor;
using hipdnn_cuda_kernels::ElementType;
using hipdnn_cuda_kernels::MatmulProgram;

ConvolutionProgram convolutionOf(const hipdnn_test_sdk::GraphBuilder& graph) {
    std::string reason;
    const auto program = analyzeGraphProgram(wrap(graph), {}, reason);
    EXPECT_TRUE(program) << reason;
    if (!program || !program->segments.at(0).convolution) {
        return {};
    }
    return *program->segments[0].convolution;
}

// A tensor's storage filled with small integers (exact in float), addressed through its strides.
struct Stored {
    const ConvolutionTensor* tensor = nullptr;
    std::vector<float> values;

    Stored(const ConvolutionTensor& t, std::mt19937& random) : tensor(&t) {
        int64_t span = 1;
        for (size_t d = 0; d < t.dims.size(); ++d) {
            span += (t.dims[d] - 1) * t.strides[d];
        }
        std::uniform_int_distribution<int> digit(-3, 3);
        values.resize(static_cast<size_t>(span));
        for (float& value : values) {
            value = static_cast<float>(digit(random));
        }
    }

    float& at(int64_t n, int64_t c, int64_t h, int64_t w) {
        const std::vector<int64_t>& s = tensor->strides;
        return values[static_cast<size_t>(n * s[0] + c * s[1] + h * s[2] + w * s[3])];
    }
};

// Runs the product with cuBLASLt's semantics and compares every output element with the
// convolution computed directly from the tensors' dims and strides.
void expectProductComputesTheConvolution(const ConvolutionProgram& convolution) {
    std::string reason;
    const auto program = convolutionAsMatmul(convolution, reason);
    ASSERT_TRUE(program) << reason;
    std::mt19937 random(hipdnn_test_sdk::globalTestSeed());
    Stored x(convolution.x, random);
    Stored w(convolution.w, random);
    Stored y(convolution.y, random);
    std::map<int64_t, Stored*> byUid{
        {convolution.x.uid, &x}, {convolution.w.uid, &w}, {convolution.y.uid, &y}};
    Stored& output = *byUid.at(program->d.uid);
    const std::vector<float> untouched = output.values;
    runAsCublasLt(*program, byUid.at(program->a.uid)->values, byUid.at(program->b.uid)->values, nullptr,
                  output.values);
    std::vector<float> written = output.values;
    output.values = untouched;  // the operands of the direct computation

    const std::vector<int64_t>& xd = convolution.x.dims;
    const int64_t features = convolution.y.dims[1];
    const auto expectAt = [&](float expected, int64_t n, int64_t c, int64_t h, int64_t wi) {
        const std::vector<int64_t>& s = output.tensor->strides;
        const auto offset = static_cast<size_t>(n * s[0] + c * s[1] + h * s[2] + wi * s[3]);
        EXPECT_EQ(written[offset], expected) << "at (" << n << ", " << c << ", " << h << ", " << wi << ")";
    };
    switch (convolution.direction) {
        case ConvolutionDirection::Forward:
            for (int64_t n = 0; n < xd[0]; ++n)
                for (int64_t k = 0; k < features; ++k)
                    for (int64_t h = 0; h < xd[2]; ++h)
                        for (int64_t p = 0; p < xd[3]; ++p) {
                            float sum = 0;
                            for (int64_t c = 0; c < xd[1]; ++c) {
                                sum += x.at(n, c, h, p) * w.at(k, c, 0, 0);
                            }
                            expectAt(sum, n, k, h, p);
                        }
            break;
        case ConvolutionDirection::BackwardData:
            for (int64_t n = 0; n < xd[0]; ++n)
                for (int64_t c = 0; c < xd[1]; ++c)
                    for (int64_t h = 0; h < xd[2]; ++h)
                        for (int64_t p = 0; p < xd[3]; ++p) {
                            float sum = 0;
                            for (int64_t k = 0; k < features; ++k) {
                                sum += y.at(n, k, h, p) * w.at(k, c, 0, 0);
                            }
                            expectAt(sum, n, c, h, p);
                        }
            break;
        case ConvolutionDirection::BackwardFilter:
            for (int64_t k = 0; k < features; ++k)
                for (int64_t c = 0; c < xd[1]; ++c) {
                    float sum = 0;
                    for (int64_t n = 0; n < xd[0]; ++n)
                        for (int64_t h = 0; h < xd[2]; ++h)
                            for (int64_t p = 0; p < xd[3]; ++p) {
                                sum += y.at(n, k, h, p) * x.at(n, c, h, p);
                            }
                    expectAt(sum, k, c, 0, 0);
                }
            break;
    }
}

ConvChainCase pointwiseConvolution(std::mt19937& random) {
    std::uniform_int_distribution<int64_t> small(1, 9);
    ConvChainCase conv;
    conv.channelsLast = true;
    conv.direction = static_cast<ConvDirection>(small(random) % 3);
    conv.n = small(random) % 3 + 1;
    conv.c = small(random);
    conv.k = small(random);
    conv.h = small(random) % 5 + 1;
    conv.w = small(random) % 5 + 1;
    conv.r = 1;
    conv.s = 1;
    conv.padding = 0;
    return conv;
}

TEST(ConvolutionGemm, EveryDirectionComputesTheConvolution) {
    for (const ConvDirection direction : {ConvDirection::Fprop, ConvDirection::Dgrad, ConvDirection::Wgrad}) {
        const ConvChainCase conv{.channelsLast = true,
                                 .direction = direction,
                                 .n = 2,
                                 .c = 5,
                                 .h = 3,
                                 .w = 4,
                                 .k = 7,
                                 .r = 1,
                                 .s = 1,
                                 .padding = 0};
        SCOPED_TRACE(convChainName(conv));
        expectProductComputesTheConvolution(convolutionOf(convChainGraph(conv)));
    }
}

TEST(ConvolutionGemm, RandomShapesComputeTheConvolution) {
    std::mt19937 random(hipdnn_test_sdk::globalTestSeed());
    for (int i = 0; i < 200; ++i) {
        const ConvChainCase conv = pointwiseConvolution(random);
        SCOPED_TRACE(convChainName(conv));
        expectProductComputesTheConvolution(convolutionOf(convChainGraph(conv)));
    }
}

TEST(ConvolutionGemm, TheReductionOfAWgradRunsOverEveryPosition) {
    const ConvChainCase conv{.channelsLast = true,
                             .direction = ConvDirection::Wgrad,
                             .n = 3,
                             .c = 4,
                             .h = 5,
                             .w = 6,
                             .k = 2,
                             .r = 1,
                             .s = 1,
                             .padding = 0};
    std::string reason;
    const auto program = convolutionAsMatmul(convolutionOf(convChainGraph(conv)), reason);
    ASSERT_TRUE(program) << reason;
    EXPECT_EQ(program->m, 4);
    EXPECT_EQ(program->n, 2);
    EXPECT_EQ(program->k, 3 * 5 * 6);
    EXPECT_EQ(program->a.uid, 1);  // x
    EXPECT_EQ(program->b.uid, 2);  // dy, transposed
    EXPECT_TRUE(program->b.transposed);
    EXPECT_EQ(program->d.uid, 3);  // dw
}

// Rows padded beyond C (a channel slice of a wider tensor) keep their stride as the leading
// dimension.
TEST(ConvolutionGemm, RowPaddedTensorsKeepTheirRowStride) {
    ConvolutionProgram convolution;
    convolution.direction = ConvolutionDirection::Forward;
    convolution.x = {1, ElementType::Float, {2, 4, 3, 3}, {3 * 3 * 6, 1, 3 * 6, 6}};
    convolution.w = {2, ElementType::Float, {5, 4, 1, 1}, {8, 1, 8, 8}};
    convolution.y = {3, ElementType::Float, {2, 5, 3, 3}, {3 * 3 * 5, 1, 3 * 5, 5}};
    convolution.padding = {0, 0};
    convolution.stride = {1, 1};
    convolution.dilation = {1, 1};
    std::string reason;
    const auto program = convolutionAsMatmul(convolution, reason);
    ASSERT_TRUE(program) << reason;
    EXPECT_EQ(program->b.leadingDimension, 6);
    EXPECT_EQ(program->a.leadingDimension, 8);
    EXPECT_EQ(program->d.leadingDimension, 5);
    expectProductComputesTheConvolution(convolution);
}

std::string declineOf(const ConvolutionProgram& convolution) {
    std::string reason;
    EXPECT_FALSE(convolutionAsMatmul(convolution, reason).has_value());
    return reason;
}

ConvolutionProgram analyzedCase(ConvChainCase conv) {
    return convolutionOf(convChainGraph(conv));
}

TEST(ConvolutionGemm, DeclinesWhatIsNoPlainProduct) {
    const ConvChainCase pointwise{
        .channelsLast = true, .n = 2, .c = 4, .h = 3, .w = 3, .k = 6, .r = 1, .s = 1, .padding = 0};
    ConvChainCase filter3x3 = pointwise;
    filter3x3.r = 3;
    filter3x3.s = 3;
    filter3x3.padding = 1;
    EXPECT_NE(declineOf(analyzedCase(filter3x3)).find("[3, 3]; only a 1x1 filter"), std::string::npos);

    ConvChainCase strided = pointwise;
    strided.stride = 2;
    EXPECT_NE(declineOf(analyzedCase(strided)).find("strides [2, 2]"), std::string::npos);

    ConvChainCase padded = pointwise;
    padded.padding = 1;
    EXPECT_NE(declineOf(analyzedCase(padded)).find("padding [1, 1]"), std::string::npos);

    ConvChainCase channelsFirst = pointwise;
    channelsFirst.channelsLast = false;
    EXPECT_NE(declineOf(analyzedCase(channelsFirst)).find("are not rows of channels at one stride"),
              std::string::npos);

    ConvolutionProgram grouped = analyzedCase(pointwise);
    grouped.w.dims[1] = 2;  // C / 2 channels per group
    EXPECT_NE(declineOf(grouped).find("grouped convolution"), std::string::npos);

    ConvolutionProgram mixedOutput = analyzedCase(pointwise);
    mixedOutput.x.type = ElementType::BFloat16;
    mixedOutput.w.type = ElementType::BFloat16;
    mixedOutput.y.type = ElementType::Half;
    EXPECT_NE(declineOf(mixedOutput).find("not FLOAT"), std::string::npos);

    ConvolutionProgram overlapping = analyzedCase(pointwise);
    overlapping.x.strides = {3 * 3 * 2, 1, 3 * 2, 2};  // rows 2 apart hold 4 channels
    EXPECT_NE(declineOf(overlapping).find("strides [18, 1, 6, 2]"), std::string::npos);
}

}  // namespace
}  // namespace cuda_kernels_test
