// CUDA_SDPA_ENGINE without a GPU: what the analysis reads from attention graphs (sizes, strides,
// scale, masks, padding, dropout), why it declines the others, the tile sizes, the dropout threshold
// against the CPU reference's dropoutUniform, and every generated source — forward and backward ×
// type × layout × masks × head dims — compiled with NVRTC for sm_90 (and sm_75).
#include <Nvrtc.hpp>
#include <attention/AttentionEngine.hpp>

#include <hipdnn_test_sdk/AttentionGraphs.hpp>
#include <hipdnn_test_sdk/references/Attention.hpp>

#include <gtest/gtest.h>

#include <random>

namespace cuda_kernels_test {
namespace {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;
using hipdnn_cuda_kernels::AttentionDirection;
using hipdnn_cuda_kernels::AttentionPlan;
using hipdnn_cuda_kernels::DeviceInfo;
using hipdnn_test_sdk::AttentionCase;
using hipdnn_test_sdk::GraphBuilder;

DeviceInfo hopper(int computeCapability = 90) {
    DeviceInfo device;
    device.computeCapability = computeCapability;
    device.multiprocessorCount = 132;
    device.maxThreadsPerMultiprocessor = 2048;
    return device;
}

std::optional<AttentionPlan> plan(const GraphBuilder& builder, std::string& reason,
                                  int computeCapability = 90) {
    const std::vector<uint8_t> bytes = builder.build();
    const hipdnn_flatbuffers_sdk::GraphWrapper graph(bytes.data(), bytes.size());
    return hipdnn_cuda_kernels::planAttention(graph, hopper(computeCapability), reason);
}

std::string declineReason(const GraphBuilder& builder) {
    std::string reason;
    EXPECT_FALSE(plan(builder, reason).has_value());
    return reason;
}

AttentionCase groupedCase() {
    AttentionCase c;
    c.batch = 2;
    c.heads = 6;
    c.kvHeads = 2;
    c.seqQ = 37;
    c.seqKv = 70;
    c.dim = 40;
    c.valueDim = 24;
    c.scale = 0.25F;
    return c;
}

TEST(AttentionAnalysis, ReadsSizesStridesAndMasks) {
    AttentionCase c = groupedCase();
    c.bshd = true;
    c.causal = true;
    c.bottomRight = true;
    c.bias = true;
    c.stats = true;
    std::string reason;
    const auto planned = plan(hipdnn_test_sdk::attentionGraph(c), reason);
    ASSERT_TRUE(planned.has_value()) << reason;
    const auto& p = planned->program;
    EXPECT_EQ(p.direction, AttentionDirection::Forward);
    EXPECT_EQ(
        std::vector<int64_t>({p.batch, p.queryHeads, p.kvHeads, p.seqQ, p.seqKv, p.headDim, p.valueDim}),
        std::vector<int64_t>({2, 6, 2, 37, 70, 40, 24}));
    ASSERT_NE(p.operand("q"), nullptr);
    EXPECT_EQ(p.operand("q")->strides, (std::array<int64_t, 4>{37 * 6 * 40, 40, 6 * 40, 1}));  // BSHD
    EXPECT_EQ(p.operand("v")->strides, (std::array<int64_t, 4>{70 * 2 * 24, 24, 2 * 24, 1}));
    ASSERT_NE(p.operand("bias"), nullptr);
    EXPECT_EQ(p.operand("bias")->strides, (std::array<int64_t, 4>{0, 37 * 70, 70, 1}));  // broadcast batch
    ASSERT_NE(p.operand("stats"), nullptr);
    EXPECT_TRUE(p.causal);
    EXPECT_TRUE(p.bottomRight);
    EXPECT_EQ(p.scale.constant, std::optional<double>(0.25));
    EXPECT_FALSE(p.seqLenQ.has_value());
    EXPECT_EQ(p.dropoutProbability, 0.0);
    EXPECT_EQ(planned->source.workspaceBytes, 0U);
    EXPECT_EQ(planned->source.tile, 32);
    ASSERT_EQ(planned->source.launches.size(), 1U);
    EXPECT_EQ(planned->source.launches[0].gridSize, 2U * 6U * 2U);  // 37 rows: 2 tiles of 32
}

TEST(AttentionAnalysis, BackwardLaunchesAndWorkspace) {
    AttentionCase c = groupedCase();
    c.causal = true;
    std::string reason;
    const auto planned = plan(hipdnn_test_sdk::attentionBackwardGraph(c), reason);
    ASSERT_TRUE(planned.has_value()) << reason;
    EXPECT_EQ(planned->program.direction, AttentionDirection::Backward);
    EXPECT_TRUE(planned->program.causal);
    EXPECT_FALSE(planned->program.bottomRight);
    std::vector<std::string> names;
    for (const auto& operand : planned->program.operands) {
        names.push_back(operand.name);
    }
    EXPECT_EQ(names, (std::vector<std::string>{"q", "k", "v", "o", "dO", "stats", "dq", "dk", "dv"}));
    const auto& source = planned->source;
    EXPECT_EQ(source.workspaceBytes, 2U * 6U * 37U * sizeof(float));
    ASSERT_EQ(source.launches.size(), 3U);
    EXPECT_EQ(source.launches[0].kernel, hipdnn_cuda_kernels::kSdpaDeltaKernel);
    EXPECT_EQ(source.launches[0].gridSize, 4U);  // 444 rows, 128 per block
    EXPECT_EQ(source.launches[1].kernel, hipdnn_cuda_kernels::kSdpaDqKernel);
    EXPECT_EQ(source.launches[1].gridSize, 2U * 6U * 2U);
    EXPECT_EQ(source.launches[2].kernel, hipdnn_cuda_kernels::kSdpaDkvKernel);
    EXPECT_EQ(source.launches[2].gridSize, 2U * 2U * 3U);  // 70 keys: 3 tiles per KV head
}

TEST(AttentionAnalysis, PaddingDropoutAndScaleTensorAreOperands) {
    AttentionCase c = groupedCase();
    c.padding = true;
    c.dropout = 0.3F;
    c.scaleTensor = true;
    std::string reason;
    const auto planned = plan(hipdnn_test_sdk::attentionGraph(c), reason);
    ASSERT_TRUE(planned.has_value()) << reason;
    const auto& p = planned->program;
    ASSERT_TRUE(p.seqLenQ.has_value() && p.seqLenKv.has_value() && p.seed.has_value() &&
                p.offset.has_value());
    EXPECT_EQ(p.seqLenQ->operand, "seq_len_q");
    EXPECT_EQ(p.seqLenKv->operand, "seq_len_kv");
    EXPECT_EQ(p.seed->operand, "seed");
    EXPECT_EQ(p.offset->operand, "offset");
    EXPECT_EQ(p.scale.operand, "scale");
    EXPECT_FALSE(p.scale.constant.has_value());
    ASSERT_NE(p.operand("seq_len_q"), nullptr);
    EXPECT_EQ(p.operand("seq_len_q")->type, fb::DataType::INT32);
    EXPECT_EQ(p.operand("seq_len_q")->strides[0], 1);
    EXPECT_EQ(p.operand("seed")->type, fb::DataType::INT64);
    EXPECT_DOUBLE_EQ(p.dropoutProbability, static_cast<double>(0.3F));
}

// q, k, v, o in BHSD with a pass-by-value scale, seed and offset.
GraphBuilder passByValueGraph() {
    GraphBuilder builder("sdpa");
    builder.addTensor(1, "q", fb::DataType::HALF, {1, 2, 5, 16})
        .addTensor(2, "k", fb::DataType::HALF, {1, 2, 7, 16})
        .addTensor(3, "v", fb::DataType::HALF, {1, 2, 7, 16})
        .addTensor(4, "o", fb::DataType::HALF, {1, 2, 5, 16})
        .addScalar(15, "scale", fb::DataType::FLOAT, 0.375)
        .addScalar(13, "seed", fb::DataType::INT64, 9007199254740993.0)
        .addScalar(14, "offset", fb::DataType::INT32, 3);
    hipdnn_test_sdk::SdpaOptions options;
    options.scaleTensor = 15;
    options.dropoutProbability = 0.125F;
    options.seed = 13;
    options.offset = 14;
    builder.addSdpa("sdpa", 1, 2, 3, 4, std::nullopt, options);
    return builder;
}

TEST(AttentionAnalysis, PassByValueScalarsAreConstants) {
    std::string reason;
    const auto planned = plan(passByValueGraph(), reason);
    ASSERT_TRUE(planned.has_value()) << reason;
    const auto& p = planned->program;
    EXPECT_EQ(p.scale.constant, std::optional<double>(0.375));
    EXPECT_FALSE(p.seqLenQ.has_value());
    EXPECT_EQ(p.offset->integer, std::optional<int64_t>(3));
    EXPECT_TRUE(p.seed->integer.has_value());
    EXPECT_EQ(p.operands.size(), 4U);  // only q, k, v, o travel as pointers
}

TEST(AttentionAnalysis, DeclinesWithTheReason) {
    AttentionCase wide = groupedCase();
    wide.dim = 1024;
    EXPECT_NE(declineReason(hipdnn_test_sdk::attentionGraph(wide))
                  .find("head dim D = 1024 exceeds CUDA_SDPA_ENGINE's limit of 512"),
              std::string::npos);
    AttentionCase wideValues = groupedCase();
    wideValues.valueDim = 640;
    EXPECT_NE(declineReason(hipdnn_test_sdk::attentionBackwardGraph(wideValues))
                  .find("value head dim Dv = 640 exceeds CUDA_SDPA_ENGINE's limit of 512"),
              std::string::npos);

    GraphBuilder doubleCompute = hipdnn_test_sdk::attentionGraph(groupedCase());
    doubleCompute.setNodeComputeDataType(fb::DataType::DOUBLE);
    EXPECT_NE(declineReason(doubleCompute).find("has compute data type DOUBLE; supported: FLOAT"),
              std::string::npos);

    GraphBuilder twoNodes = hipdnn_test_sdk::attentionGraph(groupedCase());
    twoNodes.addTensor(20, "y", fb::DataType::FLOAT, {2, 6, 37, 24})
        .addPointwise("relu", fb::PointwiseMode::RELU_FWD, 4, 20);
    EXPECT_NE(declineReason(twoNodes).find(
                  "the graph has 2 nodes; CUDA_SDPA_ENGINE runs a graph of one attention node"),
              std::string::npos);

    GraphBuilder relu("relu");
    relu.addTensor(1, "x", fb::DataType::FLOAT, {4, 4}).addTensor(2, "y", fb::DataType::FLOAT, {4, 4});
    relu.addPointwise("relu", fb::PointwiseMode::RELU_FWD, 1, 2);
    EXPECT_NE(declineReason(relu).find("is not scaled dot-product attention (forward or backward)"),
              std::string::npos);
}

TEST(AttentionTiles, ShrinkWithTheWidestHeadDim) {
    EXPECT_EQ(hipdnn_cuda_kernels::attentionTile(8, 8), 32);
    EXPECT_EQ(hipdnn_cuda_kernels::attentionTile(64, 64), 32);
    EXPECT_EQ(hipdnn_cuda_kernels::attentionTile(65, 8), 16);
    EXPECT_EQ(hipdnn_cuda_kernels::attentionTile(128, 128), 16);
    EXPECT_EQ(hipdnn_cuda_kernels::attentionTile(40, 256), 8);
    EXPECT_EQ(hipdnn_cuda_kernels::attentionTile(512, 64), 4);
}

// The kernels' test (top 53 bits >= threshold keeps) is the reference's (uniform < p drops): the
// reference's uniform times 2^53 is exactly those 53 bits.
TEST(AttentionDropout, ThresholdMatchesTheReferenceUniform) {
    std::mt19937_64 random(42);
    for (const double probability :
         {static_cast<double>(0.1F), 0.5, 1.0 / 3.0, static_cast<double>(0.9F), 1e-9}) {
        const uint64_t threshold = hipdnn_cuda_kernels::dropoutThreshold(probability);
        EXPECT_LT(static_cast<double>(threshold - 1) * 0x1.0p-53, probability);
        EXPECT_GE(static_cast<double>(threshold) * 0x1.0p-53, probability);
        const uint64_t seed = random(), offset = random() % 1000;
        for (uint64_t index = 0; index < 20000; ++index) {
            const double uniform = hipdnn_test_sdk::references::dropoutUniform(seed, offset, index);
            const auto bits = static_cast<uint64_t>(uniform * 0x1.0p53);
            ASSERT_EQ(bits < threshold, uniform < probability) << "p " << probability << " index " << index;
        }
    }
}

void expectCompiles(const GraphBuilder& builder, int computeCapability) {
    std::string reason;
    const auto planned = plan(builder, reason, computeCapability);
    ASSERT_TRUE(planned.has_value()) << reason;
    const hipdnn_cuda_kernels::Nvrtc* nvrtc = hipdnn_cuda_kernels::Nvrtc::instance(reason);
    ASSERT_NE(nvrtc, nullptr) << reason;
    const auto result = nvrtc->compileToCubin(planned->source.source, "sdpa.cu", computeCapability);
    ASSERT_TRUE(result.succeeded()) << result.error << "\n" << planned->source.source;
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(result.cubin.data()), 4),
              "\x7f"
              "ELF");
    EXPECT_EQ(planned->source.launches.size(), planned->source.kernelNames.size());
}

using CompileCase = std::tuple<fb::DataType, bool, int>;  // type, backward, variant

class AttentionCompiles : public testing::TestWithParam<CompileCase> {};

// Variant 0: plain BHSD, D 8; 1: BSHD causal top-left with stats, D 64 / Dv 40; 2: bottom-right
// with a bias, GQA, D 128; 3: padding, dropout and a scale tensor, D 256; 4: MQA, D 72 / Dv 512.
AttentionCase compileCase(fb::DataType type, int variant) {
    AttentionCase c = groupedCase();
    c.type = type;
    switch (variant) {
        case 0:
            c.dim = c.valueDim = 8;
            break;
        case 1:
            c.bshd = c.causal = c.stats = true;
            c.dim = 64;
            c.valueDim = 40;
            break;
        case 2:
            c.causal = c.bottomRight = c.bias = true;
            c.dim = c.valueDim = 128;
            break;
        case 3:
            c.padding = c.scaleTensor = true;
            c.dropout = 0.1F;
            c.dim = c.valueDim = 256;
            break;
        default:
            c.kvHeads = 1;
            c.dim = 72;
            c.valueDim = 512;
            c.stats = true;
            break;
    }
    return c;
}

TEST_P(AttentionCompiles, ForSm90) {
    const auto [type, backward, variant] = GetParam();
    const AttentionCase c = compileCase(type, variant);
    SCOPED_TRACE(c.describe());
    expectCompiles(backward ? hipdnn_test_sdk::attentionBackwardGraph(c) : hipdnn_test_sdk::attentionGraph(c),
                   90);
}

INSTANTIATE_TEST_SUITE_P(AllVariants, AttentionCompiles,
                         testing::Combine(testing::Values(fb::DataType::FLOAT, fb::DataType::HALF,
                                                          fb::DataType::BFLOAT16),
                                          testing::Bool(), testing::Range(0, 5)));

TEST(AttentionCompilesForSm75, PassByValueScalarsAndBackwardBf16) {
    expectCompiles(passByValueGraph(), 75);
    AttentionCase c = compileCase(fb::DataType::BFLOAT16, 3);
    expectCompiles(hipdnn_test_sdk::attentionBackwardGraph(c), 75);
}

}  // namespace
}  // namespace cuda_kernels_test
