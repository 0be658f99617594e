// CUDA_POINTWISE_ENGINE against the CPU reference: every schema mode for fp32, fp16 and bf16,
// mode parameters, broadcasting, NCHW and NHWC strides, mixed types, several outputs, the scalar
// fallback for misaligned pointers and odd sizes.
#include "EngineHarness.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>
#include <hipdnn_flatbuffers_sdk/operations/Pointwise.hpp>
#include <hipdnn_test_sdk/SkipIfNoDevice.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <tuple>

namespace cuda_kernels_integration {
namespace {

using Mode = fb::PointwiseMode;

std::vector<int64_t> nhwc(const std::vector<int64_t>& dims) {
    return hipdnn_data_sdk::utilities::generatePackedStrides(dims, {3, 0, 2, 1});
}

std::vector<Mode> allModes() {
    std::vector<Mode> modes;
    for (const Mode mode : fb::EnumValuesPointwiseMode()) {
        if (mode != Mode::UNSET) {
            modes.push_back(mode);
        }
    }
    return modes;
}

// Inputs where each mode is defined and well conditioned: positive arguments for log, sqrt, rsqrt
// and pow's base, divisors away from zero, tan away from its poles.
RunOptions rangesFor(Mode mode) {
    RunOptions options;
    switch (mode) {
        case Mode::LOG:
        case Mode::SQRT:
        case Mode::RSQRT:
        case Mode::RECIPROCAL:
            options.ranges[1] = {0.25, 2.0};
            break;
        case Mode::POW:
            options.ranges[1] = {0.25, 2.0};
            options.ranges[2] = {-2.0, 2.0};
            break;
        case Mode::DIV:
        case Mode::MOD:
            options.ranges[2] = {0.5, 2.0};
            break;
        default:
            break;
    }
    return options;
}

// out = mode(a[, b[, c]]), all tensors of `type` and `dims` in `strides`.
GraphBuilder singleModeGraph(Mode mode, fb::DataType type, const std::vector<int64_t>& dims,
                             const std::vector<int64_t>& strides,
                             const hipdnn_test_sdk::PointwiseOptions& options = {}) {
    const int inputs = hipdnn_flatbuffers_sdk::pointwiseInputCount(mode);
    GraphBuilder builder(fb::EnumNamePointwiseMode(mode));
    builder.addTensor(1, "a", type, dims, strides).addTensor(4, "out", type, dims, strides);
    if (inputs >= 2) {
        builder.addTensor(2, "b", type, dims, strides);
    }
    if (inputs == 3) {
        builder.addTensor(3, "c", type, dims, strides);
    }
    hipdnn_test_sdk::PointwiseOptions withAxis = options;
    if (mode == Mode::GEN_INDEX) {
        withAxis.axis = 1;
    }
    builder.addPointwise("node", mode, 1, 4, inputs >= 2 ? std::optional<int64_t>(2) : std::nullopt,
                         inputs == 3 ? std::optional<int64_t>(3) : std::nullopt, withAxis);
    return builder;
}

using ModeCase = std::tuple<Mode, fb::DataType>;

std::string modeCaseName(const testing::TestParamInfo<ModeCase>& info) {
    return std::string(fb::EnumNamePointwiseMode(std::get<0>(info.param))) + "_" +
           fb::EnumNameDataType(std::get<1>(info.param));
}

class PointwiseMode : public testing::TestWithParam<ModeCase> {};

TEST_P(PointwiseMode, MatchesReferenceChannelsFirst) {
    SKIP_IF_NO_DEVICE();
    const auto [mode, type] = GetParam();
    const std::vector<int64_t> dims = {2, 3, 8, 8};
    expectMatchesReference(singleModeGraph(mode, type, dims, {}), rangesFor(mode));
}

TEST_P(PointwiseMode, MatchesReferenceChannelsLast) {
    SKIP_IF_NO_DEVICE();
    const auto [mode, type] = GetParam();
    const std::vector<int64_t> dims = {2, 5, 3, 7};
    expectMatchesReference(singleModeGraph(mode, type, dims, nhwc(dims)), rangesFor(mode));
}

const auto kTypes = testing::Values(fb::DataType::FLOAT, fb::DataType::HALF, fb::DataType::BFLOAT16);

INSTANTIATE_TEST_SUITE_P(Smoke, PointwiseMode, testing::Combine(testing::ValuesIn(allModes()), kTypes),
                         modeCaseName);

class PointwiseChain : public testing::TestWithParam<fb::DataType> {};

std::string typeName(const testing::TestParamInfo<fb::DataType>& info) {
    return fb::EnumNameDataType(info.param);
}

// y = relu(1.5 * x + b): a pass-by-value scalar, a full tensor, an activation, virtual FLOAT
// intermediates.
GraphBuilder scaleAddRelu(fb::DataType type, const std::vector<int64_t>& dims,
                          const std::vector<int64_t>& strides) {
    GraphBuilder builder("scale_add_relu");
    builder.addTensor(1, "x", type, dims, strides)
        .addScalar(2, "alpha", fb::DataType::FLOAT, 1.5)
        .addTensor(3, "scaled", fb::DataType::FLOAT, dims, strides, true)
        .addTensor(4, "b", type, dims, strides)
        .addTensor(5, "sum", fb::DataType::FLOAT, dims, strides, true)
        .addTensor(6, "y", type, dims, strides)
        .addPointwise("scale", Mode::MUL, 1, 3, 2)
        .addPointwise("add", Mode::ADD, 3, 5, 4)
        .addPointwise("relu", Mode::RELU_FWD, 5, 6);
    return builder;
}

TEST_P(PointwiseChain, ScaleAddReluNchw) {
    SKIP_IF_NO_DEVICE();
    expectMatchesReference(scaleAddRelu(GetParam(), {2, 8, 6, 6}, {}));
}

TEST_P(PointwiseChain, ScaleAddReluNhwc) {
    SKIP_IF_NO_DEVICE();
    const std::vector<int64_t> dims = {2, 8, 6, 6};
    expectMatchesReference(scaleAddRelu(GetParam(), dims, nhwc(dims)));
}

TEST_P(PointwiseChain, MisalignedPointersUseTheScalarKernel) {
    SKIP_IF_NO_DEVICE();
    RunOptions options;
    options.misalign = true;
    expectMatchesReference(scaleAddRelu(GetParam(), {2, 8, 6, 6}, {}), options);
}

TEST_P(PointwiseChain, SerializedPlanReloadsAndRunsBitIdentically) {
    SKIP_IF_NO_DEVICE();
    RunOptions options;
    options.roundTripSerialization = true;
    expectMatchesReference(scaleAddRelu(GetParam(), {2, 8, 6, 6}, {}), options);
}

TEST_P(PointwiseChain, SizesThatAreNoMultipleOfTheVectorWidth) {
    SKIP_IF_NO_DEVICE();
    expectMatchesReference(scaleAddRelu(GetParam(), {3, 5, 7}, {}));
}

TEST_P(PointwiseChain, MixedLayouts) {
    SKIP_IF_NO_DEVICE();
    const fb::DataType type = GetParam();
    const std::vector<int64_t> dims = {2, 8, 5, 3};
    GraphBuilder builder("mixed_layouts");
    builder.addTensor(1, "x", type, dims, nhwc(dims))
        .addTensor(2, "b", type, dims)
        .addTensor(3, "y", type, dims, nhwc(dims))
        .addPointwise("sub", Mode::SUB, 1, 3, 2);
    expectMatchesReference(builder);
}

TEST_P(PointwiseChain, BiasBroadcastAndGelu) {
    SKIP_IF_NO_DEVICE();
    const fb::DataType type = GetParam();
    const std::vector<int64_t> dims = {2, 16, 5, 5};
    GraphBuilder builder("bias_gelu");
    builder.addTensor(1, "x", type, dims, nhwc(dims))
        .addTensor(2, "bias", type, {1, 16, 1, 1})
        .addTensor(3, "biased", fb::DataType::FLOAT, dims, nhwc(dims), true)
        .addTensor(4, "y", type, dims, nhwc(dims))
        .addPointwise("bias", Mode::ADD, 1, 3, 2)
        .addPointwise("gelu", Mode::GELU_FWD, 3, 4);
    expectMatchesReference(builder);
}

TEST_P(PointwiseChain, LowerRankAndSingleElementInputs) {
    SKIP_IF_NO_DEVICE();
    const fb::DataType type = GetParam();
    GraphBuilder builder("row_scale");
    builder.addTensor(1, "x", type, {3, 4, 9})
        .addTensor(2, "row", type, {9})
        .addTensor(3, "scale", type, {1, 1, 1})
        .addTensor(4, "t", fb::DataType::FLOAT, {3, 4, 9}, {}, true)
        .addTensor(5, "y", type, {3, 4, 9})
        .addPointwise("mul", Mode::MUL, 1, 4, 2)
        .addPointwise("max", Mode::MAX_OP, 4, 5, 3);
    expectMatchesReference(builder);
}

TEST_P(PointwiseChain, TernarySelectOfComparison) {
    SKIP_IF_NO_DEVICE();
    const fb::DataType type = GetParam();
    const std::vector<int64_t> dims = {4, 6, 10};
    GraphBuilder builder("select");
    builder.addTensor(1, "a", type, dims)
        .addTensor(2, "b", type, dims)
        .addTensor(3, "mask", fb::DataType::FLOAT, dims, {}, true)
        .addTensor(4, "y", type, dims)
        .addPointwise("gt", Mode::CMP_GT, 1, 3, 2)
        .addPointwise("select", Mode::BINARY_SELECT, 1, 4, 2, 3);
    expectMatchesReference(builder);
}

TEST_P(PointwiseChain, IntermediateAndFinalOutputs) {
    SKIP_IF_NO_DEVICE();
    const fb::DataType type = GetParam();
    const std::vector<int64_t> dims = {2, 4, 8, 8};
    GraphBuilder builder("two_outputs");
    builder.addTensor(1, "x", type, dims)
        .addTensor(2, "b", type, dims)
        .addTensor(3, "sum", type, dims)
        .addTensor(4, "y", type, dims)
        .addPointwise("add", Mode::ADD, 1, 3, 2)
        .addPointwise("tanh", Mode::TANH_FWD, 3, 4);
    expectMatchesReference(builder);
}

INSTANTIATE_TEST_SUITE_P(Smoke, PointwiseChain, kTypes, typeName);

// Inputs and outputs of different types, a double compute type, a half virtual intermediate.
TEST(SmokePointwiseMixedTypes, Bf16AndHalfInFloatOutDoubleCompute) {
    SKIP_IF_NO_DEVICE();
    const std::vector<int64_t> dims = {2, 8, 4, 4};
    GraphBuilder builder("mixed_types");
    builder.setComputeDataType(fb::DataType::DOUBLE)
        .addTensor(1, "x", fb::DataType::BFLOAT16, dims)
        .addTensor(2, "y", fb::DataType::HALF, dims)
        .addTensor(3, "product", fb::DataType::HALF, dims, {}, true)
        .addTensor(4, "out", fb::DataType::FLOAT, dims)
        .addPointwise("mul", Mode::MUL, 1, 3, 2)
        .addPointwise("sigmoid", Mode::SIGMOID_FWD, 3, 4);
    expectMatchesReference(builder);
}

TEST(SmokePointwiseMixedTypes, FloatInputsHalfOutput) {
    SKIP_IF_NO_DEVICE();
    const std::vector<int64_t> dims = {2, 8, 4, 4};
    GraphBuilder builder("float_to_half");
    builder.addTensor(1, "x", fb::DataType::FLOAT, dims, nhwc(dims))
        .addTensor(2, "y", fb::DataType::BFLOAT16, dims, nhwc(dims))
        .addTensor(3, "out", fb::DataType::HALF, dims, nhwc(dims))
        .addPointwise("add", Mode::ADD_SQUARE, 1, 3, 2);
    expectMatchesReference(builder);
}

// The parameters each mode reads, set away from their defaults.
TEST(SmokePointwiseParameters, ClipsSlopesAlphasAndBetas) {
    SKIP_IF_NO_DEVICE();
    const std::vector<int64_t> dims = {2, 4, 6, 6};
    hipdnn_test_sdk::PointwiseOptions relu;
    relu.reluLowerClip = -0.25F;
    relu.reluUpperClip = 0.5F;
    relu.reluLowerClipSlope = 0.1F;
    hipdnn_test_sdk::PointwiseOptions swish;
    swish.swishBeta = 1.75F;
    hipdnn_test_sdk::PointwiseOptions elu;
    elu.eluAlpha = 0.6F;
    hipdnn_test_sdk::PointwiseOptions softplus;
    softplus.softplusBeta = 2.5F;
    const std::vector<std::pair<Mode, hipdnn_test_sdk::PointwiseOptions>> cases = {
        {Mode::RELU_FWD, relu},         {Mode::RELU_BWD, relu},        {Mode::SWISH_FWD, swish},
        {Mode::SWISH_BWD, swish},       {Mode::ELU_FWD, elu},          {Mode::ELU_BWD, elu},
        {Mode::SOFTPLUS_FWD, softplus}, {Mode::SOFTPLUS_BWD, softplus}};
    for (const auto& [mode, options] : cases) {
        for (const fb::DataType type : {fb::DataType::FLOAT, fb::DataType::BFLOAT16}) {
            SCOPED_TRACE(std::string(fb::EnumNamePointwiseMode(mode)) + " " + fb::EnumNameDataType(type));
            expectMatchesReference(singleModeGraph(mode, type, dims, {}, options), {});
        }
    }
}

// A planned kernel lands in the cache directory, so that the next process loads it.
TEST(SmokePointwiseKernelCache, PlansWriteTheirKernelToTheCacheDirectory) {
    SKIP_IF_NO_DEVICE();
    const auto countKernels = [] {
        size_t count = 0;
        const auto kernels = kernelCacheDirectory() / "kernels";
        if (std::filesystem::exists(kernels)) {
            for (const auto& entry : std::filesystem::directory_iterator(kernels)) {
                count += entry.path().extension() == ".cubin" ? 1 : 0;
            }
        }
        return count;
    };
    // A shape no other test uses: its kernel is new to the cache.
    GraphBuilder builder("cached");
    builder.addTensor(1, "x", fb::DataType::FLOAT, {3, 11, 13})
        .addTensor(2, "y", fb::DataType::FLOAT, {3, 11, 13})
        .addPointwise("exp", Mode::EXP, 1, 2);
    const size_t before = countKernels();
    expectMatchesReference(builder);
    EXPECT_EQ(countKernels(), before + 1);
}

// Large shapes: the benchmark's chain, and a bias broadcast over a ResNet-50 activation.
class FullPointwise : public testing::TestWithParam<fb::DataType> {};

TEST_P(FullPointwise, ScaleAddReluBenchmarkShape) {
    SKIP_IF_NO_DEVICE();
    expectMatchesReference(scaleAddRelu(GetParam(), {64, 256, 56, 56}, {}));
}

TEST_P(FullPointwise, BiasSwishResnetShapeNhwc) {
    SKIP_IF_NO_DEVICE();
    const fb::DataType type = GetParam();
    const std::vector<int64_t> dims = {32, 512, 28, 28};
    GraphBuilder builder("bias_swish");
    builder.addTensor(1, "x", type, dims, nhwc(dims))
        .addTensor(2, "bias", type, {1, 512, 1, 1})
        .addTensor(3, "biased", fb::DataType::FLOAT, dims, nhwc(dims), true)
        .addTensor(4, "y", type, dims, nhwc(dims))
        .addPointwise("bias", Mode::ADD, 1, 3, 2)
        .addPointwise("swish", Mode::SWISH_FWD, 3, 4);
    expectMatchesReference(builder);
}

TEST_P(FullPointwise, EveryModeAtAResnetShape) {
    SKIP_IF_NO_DEVICE();
    const std::vector<int64_t> dims = {8, 64, 28, 28};
    for (const Mode mode : allModes()) {
        SCOPED_TRACE(fb::EnumNamePointwiseMode(mode));
        expectMatchesReference(singleModeGraph(mode, GetParam(), dims, nhwc(dims)), rangesFor(mode));
    }
}

INSTANTIATE_TEST_SUITE_P(Full, FullPointwise, kTypes, typeName);

}  // namespace
}  // namespace cuda_kernels_integration
