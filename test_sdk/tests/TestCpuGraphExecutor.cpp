#include <hipdnn_test_sdk/AllCloseAssertions.hpp>
#include <hipdnn_test_sdk/CpuGraphExecutor.hpp>
#include <hipdnn_test_sdk/GraphBuilder.hpp>
#include <hipdnn_test_sdk/SeedTrace.hpp>
#include <hipdnn_test_sdk/references/References.hpp>

#include <hipdnn_data_sdk/types.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace {

using namespace hipdnn_test_sdk;
namespace ref = hipdnn_test_sdk::references;
using hipdnn_data_sdk::types::half;
using hipdnn_flatbuffers_sdk::GraphWrapper;
using hipdnn_flatbuffers_sdk::data_objects::DataType;
using hipdnn_flatbuffers_sdk::data_objects::PointwiseMode;
using hipdnn_flatbuffers_sdk::data_objects::ResampleMode;

std::vector<float> randomValues(size_t count, uint32_t salt) {
    std::mt19937 generator(globalTestSeed() + salt);
    std::uniform_real_distribution<float> distribution(-1.0f, 1.0f);
    std::vector<float> values(count);
    for (auto& value : values) {
        value = distribution(generator);
    }
    return values;
}

ErasedTensorView floatView(const std::vector<float>& data, std::vector<int64_t> dims,
                           std::vector<int64_t> strides) {
    return {DataType::FLOAT, data.data(), std::move(dims), std::move(strides)};
}

GraphWrapper wrap(const std::vector<uint8_t>& bytes) {
    return GraphWrapper(bytes.data(), bytes.size());
}

const ConvolutionGeometry padOne{{1, 1}, {1, 1}, {1, 1}, {1, 1}};

class TestCpuGraphExecutor : public ::testing::Test {
protected:
    CpuGraphExecutor executor;
};

TEST_F(TestCpuGraphExecutor, ConvBiasReluChainMatchesReferencesOpByOp) {
    HIPDNN_SCOPED_SEED_TRACE();
    // NHWC strides for x, y and the intermediates; the executor must follow them.
    const std::vector<int64_t> dims{2, 3, 5, 5};
    const std::vector<int64_t> nhwc = ref::stridesForOrder(dims, {3, 0, 2, 1});
    const std::vector<int64_t> outDims{2, 4, 5, 5};
    const std::vector<int64_t> outNhwc = ref::stridesForOrder(outDims, {3, 0, 2, 1});
    const auto bytes = GraphBuilder("conv_bias_relu")
                           .addTensor(1, "x", DataType::FLOAT, dims, nhwc)
                           .addTensor(2, "w", DataType::FLOAT, {4, 3, 3, 3})
                           .addTensor(3, "bias", DataType::FLOAT, {1, 4, 1, 1})
                           .addTensor(4, "conv", DataType::FLOAT, outDims, outNhwc, true)
                           .addTensor(5, "biased", DataType::FLOAT, outDims, outNhwc, true)
                           .addTensor(6, "y", DataType::FLOAT, outDims, outNhwc)
                           .addConvFprop("conv", 1, 2, 4, padOne)
                           .addPointwise("bias", PointwiseMode::ADD, 4, 5, 3)
                           .addPointwise("relu", PointwiseMode::RELU_FWD, 5, 6)
                           .build();
    const auto graph = wrap(bytes);
    std::string reason;
    ASSERT_TRUE(executor.canExecute(graph, reason)) << reason;

    auto x = randomValues(2 * 3 * 5 * 5, 1);
    auto w = randomValues(4 * 3 * 3 * 3, 2);
    auto bias = randomValues(4, 3);
    std::vector<float> y(2 * 4 * 5 * 5, -7.0f);
    executor.execute(graph, {{1, x.data()}, {2, w.data()}, {3, bias.data()}, {6, y.data()}});

    std::vector<float> conv(y.size()), biased(y.size()), expected(y.size());
    ref::convolutionFprop<float>(
        ref::TensorView<const float>{x.data(), dims, nhwc},
        ref::TensorView<const float>{w.data(), {4, 3, 3, 3}, ref::packedStrides({4, 3, 3, 3})},
        ref::TensorView<float>{conv.data(), outDims, outNhwc},
        ref::ConvolutionParams{{1, 1}, {1, 1}, {1, 1}, {1, 1}});
    ref::PointwiseParams add{ref::PointwiseMode::ADD, {}, {}, {}, {}, {}, {}, {}};
    ref::pointwise<float, float>(add, ref::TensorView<const float>{conv.data(), outDims, outNhwc},
                                 ref::TensorView<const float>{bias.data(), {1, 4, 1, 1}, {4, 1, 1, 1}},
                                 std::nullopt, ref::TensorView<float>{biased.data(), outDims, outNhwc});
    ref::PointwiseParams relu{ref::PointwiseMode::RELU_FWD, {}, {}, {}, {}, {}, {}, {}};
    ref::pointwise<float, float>(relu, ref::TensorView<const float>{biased.data(), outDims, outNhwc},
                                 std::nullopt, std::nullopt,
                                 ref::TensorView<float>{expected.data(), outDims, outNhwc});
    HIPDNN_EXPECT_ALL_CLOSE(floatView(expected, outDims, outNhwc), floatView(y, outDims, outNhwc),
                            Tolerance{});
}

TEST_F(TestCpuGraphExecutor, PassByValueScalarsComeFromTheGraphNotFromBuffers) {
    const auto bytes = GraphBuilder("bn_var")
                           .addTensor(1, "x", DataType::FLOAT, {1, 2, 2, 2})
                           .addTensor(2, "mean", DataType::FLOAT, {1, 2, 1, 1})
                           .addTensor(3, "var", DataType::FLOAT, {1, 2, 1, 1})
                           .addTensor(4, "scale", DataType::FLOAT, {1, 2, 1, 1})
                           .addTensor(5, "bias", DataType::FLOAT, {1, 2, 1, 1})
                           .addScalar(6, "epsilon", DataType::FLOAT, 0.75)
                           .addTensor(7, "y", DataType::FLOAT, {1, 2, 2, 2})
                           .addBatchnormInferenceVariance("bn", 1, 2, 3, 4, 5, 6, 7)
                           .build();
    std::vector<float> x{1, 2, 3, 4, 5, 6, 7, 8}, mean{1, 2}, var{0.25f, 1.25f}, scale{2, 1}, bias{0, 1};
    std::vector<float> y(8);
    float bogusEpsilon = 1000.0f;
    executor.execute(wrap(bytes), {{1, x.data()},
                                   {2, mean.data()},
                                   {3, var.data()},
                                   {4, scale.data()},
                                   {5, bias.data()},
                                   {6, &bogusEpsilon},
                                   {7, y.data()}});
    // Channel 0: 2 * (x - 1) / sqrt(0.25 + 0.75); channel 1: (x - 2) / sqrt(1.25 + 0.75) + 1.
    EXPECT_FLOAT_EQ(y[0], 0.0f);
    EXPECT_FLOAT_EQ(y[3], 6.0f);
    EXPECT_FLOAT_EQ(y[4], 3.0f / std::sqrt(2.0f) + 1.0f);
}

TEST_F(TestCpuGraphExecutor, MixedElementTypesRunThroughFloat) {
    HIPDNN_SCOPED_SEED_TRACE();
    const auto bytes = GraphBuilder("half_conv_float_out")
                           .addTensor(1, "x", DataType::HALF, {1, 2, 4, 4})
                           .addTensor(2, "w", DataType::HALF, {3, 2, 3, 3})
                           .addTensor(3, "y", DataType::FLOAT, {1, 3, 4, 4})
                           .addConvFprop("conv", 1, 2, 3, padOne)
                           .build();
    const auto xf = randomValues(32, 4);
    const auto wf = randomValues(54, 5);
    std::vector<half> x, w;
    std::vector<float> xRounded, wRounded;
    for (float v : xf) {
        x.push_back(half(v));
        xRounded.push_back(static_cast<float>(x.back()));
    }
    for (float v : wf) {
        w.push_back(half(v));
        wRounded.push_back(static_cast<float>(w.back()));
    }
    std::vector<float> y(48), expected(48);
    executor.execute(wrap(bytes), {{1, x.data()}, {2, w.data()}, {3, y.data()}});
    ref::convolutionFprop<float>(
        ref::TensorView<const float>{xRounded.data(), {1, 2, 4, 4}, ref::packedStrides({1, 2, 4, 4})},
        ref::TensorView<const float>{wRounded.data(), {3, 2, 3, 3}, ref::packedStrides({3, 2, 3, 3})},
        ref::TensorView<float>{expected.data(), {1, 3, 4, 4}, ref::packedStrides({1, 3, 4, 4})},
        ref::ConvolutionParams{{1, 1}, {1, 1}, {1, 1}, {1, 1}});
    HIPDNN_EXPECT_ALL_CLOSE(floatView(expected, {1, 3, 4, 4}, {48, 16, 4, 1}),
                            floatView(y, {1, 3, 4, 4}, {48, 16, 4, 1}), Tolerance{});
}

TEST_F(TestCpuGraphExecutor, HonoursDoubleComputeType) {
    // A long dot product of values whose float sum loses low bits; double accumulation keeps them.
    const int64_t k = 4096;
    std::vector<float> a(static_cast<size_t>(k)), b(static_cast<size_t>(k), 1.0f);
    for (int64_t i = 0; i < k; ++i) {
        a[static_cast<size_t>(i)] = i == 0 ? 1.0e8f : 1.0f;
    }
    auto run = [&](DataType compute) {
        const auto bytes = GraphBuilder("dot")
                               .setComputeDataType(compute)
                               .addTensor(1, "a", DataType::FLOAT, {1, k})
                               .addTensor(2, "b", DataType::FLOAT, {k, 1})
                               .addTensor(3, "c", DataType::FLOAT, {1, 1})
                               .addMatmul("dot", 1, 2, 3)
                               .build();
        float c = 0;
        executor.execute(wrap(bytes), {{1, a.data()}, {2, b.data()}, {3, &c}});
        return c;
    };
    EXPECT_FLOAT_EQ(run(DataType::FLOAT), 1.0e8f);  // every +1 is absorbed in float
    EXPECT_FLOAT_EQ(run(DataType::DOUBLE), static_cast<float>(1.0e8 + 4095.0));
}

// The operation's contract is checked when the graph is read, for every engine alike; the
// message names the node, the tensor and the formula.
TEST_F(TestCpuGraphExecutor, WrongConvOutputDimsAreRejectedNamingNodeTensorAndFormula) {
    const auto bytes = GraphBuilder("bad_conv")
                           .addTensor(1, "x", DataType::FLOAT, {1, 3, 8, 8})
                           .addTensor(2, "w", DataType::FLOAT, {4, 3, 3, 3})
                           .addTensor(3, "y", DataType::FLOAT, {1, 4, 7, 8})
                           .addConvFprop("my_conv", 1, 2, 3, padOne)
                           .build();
    try {
        static_cast<void>(wrap(bytes));
        FAIL() << "a convolution with wrong output dims was accepted";
    } catch (const hipdnn_flatbuffers_sdk::GraphError& error) {
        const std::string reason = error.what();
        EXPECT_NE(reason.find("node 0 'my_conv' (ConvolutionFwdAttributes)"), std::string::npos) << reason;
        EXPECT_NE(reason.find("tensor uid 3 'y'"), std::string::npos) << reason;
        EXPECT_NE(reason.find("dims[2] = 7"), std::string::npos) << reason;
        EXPECT_NE(reason.find("(8 + 1 + 1 - (1 * (3 - 1) + 1)) / 1 + 1 = 8"), std::string::npos) << reason;
    }
}

// Small inputs and output, but a padding that makes the convolution's virtual output 4 TiB: the
// reference declines instead of zero-filling more than the machine has.
TEST_F(TestCpuGraphExecutor, VirtualTensorsLargerThanMemoryAreDeclined) {
    const int64_t pad = int64_t{1} << 19;
    const int64_t side = 2 * pad + 1;
    const auto bytes =
        GraphBuilder("huge_intermediate")
            .addTensor(1, "x", DataType::FLOAT, {1, 1, 1, 1})
            .addTensor(2, "w", DataType::FLOAT, {1, 1, 1, 1})
            .addTensor(3, "conv", DataType::FLOAT, {1, 1, side, side}, {}, true)
            .addTensor(4, "y", DataType::FLOAT, {1, 1, 1, 1})
            .addConvFprop("conv", 1, 2, 3, {{pad, pad}, {pad, pad}, {1, 1}, {1, 1}})
            .addReduction("sum", hipdnn_flatbuffers_sdk::data_objects::ReductionMode::ADD, 3, 4)
            .build();
    std::string reason;
    EXPECT_FALSE(executor.canExecute(wrap(bytes), reason));
    EXPECT_NE(reason.find("node 0 'conv'"), std::string::npos) << reason;
    EXPECT_NE(reason.find("need " + std::to_string(side * side * 4) + " bytes, more than this machine's"),
              std::string::npos)
        << reason;
    float x = 1, w = 1, y = 0;
    EXPECT_THROW(executor.execute(wrap(bytes), {{1, &x}, {2, &w}, {4, &y}}), GraphExecutionError);
}

TEST_F(TestCpuGraphExecutor, DeclinesUnsupportedTypesComputeTypesAndModes) {
    std::string reason;
    const auto doubles = GraphBuilder("double_relu")
                             .addTensor(1, "x", DataType::DOUBLE, {4})
                             .addTensor(2, "y", DataType::DOUBLE, {4})
                             .addPointwise("relu", PointwiseMode::RELU_FWD, 1, 2)
                             .build();
    EXPECT_FALSE(executor.canExecute(wrap(doubles), reason));
    EXPECT_NE(reason.find("unsupported data type combination PointwiseAttributes(in_0=DOUBLE, out_0=DOUBLE)"),
              std::string::npos)
        << reason;
    EXPECT_NE(reason.find("FLOAT, HALF, BFLOAT16"), std::string::npos) << reason;

    // A 16-bit compute type runs in FLOAT; an integer one has no reference.
    const auto halfCompute = GraphBuilder("half_compute")
                                 .addTensor(1, "x", DataType::FLOAT, {4})
                                 .addTensor(2, "y", DataType::FLOAT, {4})
                                 .addPointwise("relu", PointwiseMode::RELU_FWD, 1, 2)
                                 .setNodeComputeDataType(DataType::HALF)
                                 .build();
    EXPECT_TRUE(executor.canExecute(wrap(halfCompute), reason)) << reason;
    const auto intCompute = GraphBuilder("int_compute")
                                .addTensor(1, "x", DataType::FLOAT, {4})
                                .addTensor(2, "y", DataType::FLOAT, {4})
                                .addPointwise("relu", PointwiseMode::RELU_FWD, 1, 2)
                                .setNodeComputeDataType(DataType::INT32)
                                .build();
    EXPECT_FALSE(executor.canExecute(wrap(intCompute), reason));
    EXPECT_NE(reason.find("node 0 'relu'"), std::string::npos) << reason;
    EXPECT_NE(reason.find("compute data type INT32"), std::string::npos) << reason;

    const auto mixedParams = GraphBuilder("bn_mixed")
                                 .addTensor(1, "x", DataType::FLOAT, {1, 2, 2, 2})
                                 .addTensor(2, "mean", DataType::HALF, {1, 2, 1, 1})
                                 .addTensor(3, "inv_var", DataType::FLOAT, {1, 2, 1, 1})
                                 .addTensor(4, "scale", DataType::FLOAT, {1, 2, 1, 1})
                                 .addTensor(5, "bias", DataType::FLOAT, {1, 2, 1, 1})
                                 .addTensor(6, "y", DataType::FLOAT, {1, 2, 2, 2})
                                 .addBatchnormInference("bn", 1, 2, 3, 4, 5, 6)
                                 .build();
    EXPECT_FALSE(executor.canExecute(wrap(mixedParams), reason));
    EXPECT_NE(reason.find("params tensors must share one data type"), std::string::npos) << reason;
    EXPECT_NE(reason.find("tensor uid 2 'mean' is HALF"), std::string::npos) << reason;

    const auto bilinear =
        GraphBuilder("bilinear")
            .addTensor(1, "x", DataType::FLOAT, {1, 1, 4, 4})
            .addTensor(2, "y", DataType::FLOAT, {1, 1, 2, 2})
            .addResample("resize", 1, 2, {ResampleMode::BILINEAR, {0, 0}, {0, 0}, {2, 2}, {2, 2}})
            .build();
    EXPECT_FALSE(executor.canExecute(wrap(bilinear), reason));
    EXPECT_NE(reason.find("unsupported mode: resample_mode BILINEAR"), std::string::npos) << reason;

    const auto badBroadcast = GraphBuilder("bad_add")
                                  .addTensor(1, "a", DataType::FLOAT, {2, 3})
                                  .addTensor(2, "b", DataType::FLOAT, {2, 2})
                                  .addTensor(3, "c", DataType::FLOAT, {2, 3})
                                  .addPointwise("add", PointwiseMode::ADD, 1, 3, 2)
                                  .build();
    try {
        static_cast<void>(wrap(badBroadcast));
        FAIL() << "a pointwise input that does not broadcast was accepted";
    } catch (const hipdnn_flatbuffers_sdk::GraphError& error) {
        EXPECT_NE(std::string(error.what())
                      .find("port in_1 (tensor uid 2 'b') has dims [2, 2], which do not broadcast to [2, 3]"),
                  std::string::npos)
            << error.what();
    }
}

// Half operands, a float bias broadcast over the batch, INT32 lengths in buffers and INT64 dropout
// seed and offset passed by value reach the reference as the node says.
TEST_F(TestCpuGraphExecutor, AttentionReadsItsOptionsFromTheNode) {
    HIPDNN_SCOPED_SEED_TRACE();
    const std::vector<int64_t> qDims{2, 4, 3, 8}, kvDims{2, 2, 5, 8}, statsDims{2, 4, 3, 1},
        biasDims{1, 4, 3, 5};
    SdpaOptions options;
    options.scale = 0.25F;
    options.causalBottomRight = true;
    options.bias = 5;
    options.seqLenQ = 7;
    options.seqLenKv = 8;
    options.dropoutProbability = 0.2F;
    options.seed = 9;
    options.offset = 10;
    const auto bytes = GraphBuilder("attention")
                           .addTensor(1, "q", DataType::HALF, qDims)
                           .addTensor(2, "k", DataType::HALF, kvDims)
                           .addTensor(3, "v", DataType::HALF, kvDims)
                           .addTensor(4, "o", DataType::HALF, qDims)
                           .addTensor(5, "bias", DataType::FLOAT, biasDims)
                           .addTensor(6, "stats", DataType::FLOAT, statsDims)
                           .addTensor(7, "seq_q", DataType::INT32, {2, 1, 1, 1})
                           .addTensor(8, "seq_kv", DataType::INT32, {2, 1, 1, 1})
                           .addScalar(9, "seed", DataType::INT64, 4242)
                           .addScalar(10, "offset", DataType::INT64, 3)
                           .addSdpa("sdpa", 1, 2, 3, 4, 6, options)
                           .build();
    const auto graph = wrap(bytes);
    std::string reason;
    ASSERT_TRUE(executor.canExecute(graph, reason)) << reason;

    const auto toHalf = [](const std::vector<float>& values) {
        std::vector<half> converted;
        for (const float value : values) {
            converted.push_back(half(value));
        }
        return converted;
    };
    auto q = toHalf(randomValues(2 * 4 * 3 * 8, 11));
    auto k = toHalf(randomValues(2 * 2 * 5 * 8, 12));
    auto v = toHalf(randomValues(2 * 2 * 5 * 8, 13));
    auto bias = randomValues(4 * 3 * 5, 14);
    std::vector<int32_t> seqQ{3, 2}, seqKv{5, 4};
    std::vector<half> o(q.size());
    std::vector<float> stats(2 * 4 * 3);
    executor.execute(graph, {{1, q.data()},
                             {2, k.data()},
                             {3, v.data()},
                             {4, o.data()},
                             {5, bias.data()},
                             {6, stats.data()},
                             {7, seqQ.data()},
                             {8, seqKv.data()}});

    ref::AttentionParams params;
    params.scale = 0.25;
    params.causalBottomRight = true;
    params.seqLenQ = std::vector<int64_t>{3, 2};
    params.seqLenKv = std::vector<int64_t>{5, 4};
    params.dropoutProbability = 0.2F;
    params.dropoutSeed = 4242;
    params.dropoutOffset = 3;
    std::vector<half> expectedO(o.size());
    std::vector<float> expectedStats(stats.size());
    ref::sdpaForward<half>(
        params, {q.data(), qDims, ref::packedStrides(qDims)}, {k.data(), kvDims, ref::packedStrides(kvDims)},
        {v.data(), kvDims, ref::packedStrides(kvDims)},
        ref::TensorView<const float>{bias.data(), biasDims, ref::packedStrides(biasDims)},
        {expectedO.data(), qDims, ref::packedStrides(qDims)},
        ref::TensorView<float>{expectedStats.data(), statsDims, ref::packedStrides(statsDims)});
    for (size_t n = 0; n < o.size(); ++n) {
        EXPECT_EQ(static_cast<float>(o[n]), static_cast<float>(expectedO[n])) << n;
    }
    EXPECT_EQ(stats, expectedStats);
}

TEST_F(TestCpuGraphExecutor, AttentionWithoutAScaleDoesNotScale) {
    HIPDNN_SCOPED_SEED_TRACE();
    const std::vector<int64_t> dims{1, 2, 4, 8};
    const auto bytes = GraphBuilder("attention")
                           .addTensor(1, "q", DataType::FLOAT, dims)
                           .addTensor(2, "k", DataType::FLOAT, dims)
                           .addTensor(3, "v", DataType::FLOAT, dims)
                           .addTensor(4, "o", DataType::FLOAT, dims)
                           .addSdpa("sdpa", 1, 2, 3, 4)
                           .build();
    auto q = randomValues(64, 21);
    auto k = randomValues(64, 22);
    auto v = randomValues(64, 23);
    std::vector<float> o(64);
    executor.execute(wrap(bytes), {{1, q.data()}, {2, k.data()}, {3, v.data()}, {4, o.data()}});
    const auto view = [&](std::vector<float>& data) {
        return ref::TensorView<float>{data.data(), dims, ref::packedStrides(dims)};
    };
    std::vector<float> unscaled(64), scaled(64);
    ref::AttentionParams params;
    ref::sdpaForward<float>(params, view(q), view(k), view(v), std::nullopt, view(unscaled), std::nullopt);
    params.scale = 1.0 / std::sqrt(8.0);
    ref::sdpaForward<float>(params, view(q), view(k), view(v), std::nullopt, view(scaled), std::nullopt);
    EXPECT_EQ(o, unscaled);
    EXPECT_NE(o, scaled);
}

TEST_F(TestCpuGraphExecutor, AttentionOperandsOfMixedTypesAreDeclined) {
    const std::vector<int64_t> dims{1, 2, 4, 8};
    const auto bytes = GraphBuilder("attention")
                           .addTensor(1, "q", DataType::HALF, dims)
                           .addTensor(2, "k", DataType::FLOAT, dims)
                           .addTensor(3, "v", DataType::HALF, dims)
                           .addTensor(4, "o", DataType::HALF, dims)
                           .addSdpa("sdpa", 1, 2, 3, 4)
                           .build();
    std::string reason;
    EXPECT_FALSE(executor.canExecute(wrap(bytes), reason));
    EXPECT_NE(reason.find("unsupported data type combination SdpaAttributes(q=HALF, k=FLOAT"),
              std::string::npos)
        << reason;
}

TEST_F(TestCpuGraphExecutor, MissingBufferIsNamed) {
    const auto bytes = GraphBuilder("relu")
                           .addTensor(1, "x", DataType::FLOAT, {4})
                           .addTensor(2, "y", DataType::FLOAT, {4})
                           .addPointwise("relu", PointwiseMode::RELU_FWD, 1, 2)
                           .build();
    std::vector<float> x(4);
    try {
        executor.execute(wrap(bytes), {{1, x.data()}});
        FAIL() << "execute accepted a graph output without a buffer";
    } catch (const GraphExecutionError& error) {
        EXPECT_NE(std::string(error.what()).find("no buffer for tensor uid 2 'y' (a graph output)"),
                  std::string::npos)
            << error.what();
    }
    try {
        executor.execute(wrap(bytes), {{2, x.data()}});
        FAIL() << "execute accepted a graph input without a buffer";
    } catch (const GraphExecutionError& error) {
        EXPECT_NE(std::string(error.what()).find("no buffer for tensor uid 1 'x' (a graph input)"),
                  std::string::npos)
            << error.what();
    }
}

TEST_F(TestCpuGraphExecutor, RegistryDecidesWhatRuns) {
    const auto& registry = executor.registry();
    EXPECT_NE(registry.find({hipdnn_flatbuffers_sdk::data_objects::NodeAttributes::ConvolutionFwdAttributes,
                             {DataType::BFLOAT16, DataType::BFLOAT16, DataType::FLOAT}}),
              nullptr);
    EXPECT_EQ(registry.find({hipdnn_flatbuffers_sdk::data_objects::NodeAttributes::ConvolutionFwdAttributes,
                             {DataType::DOUBLE, DataType::DOUBLE, DataType::DOUBLE}}),
              nullptr);

    // A registry with one relu signature runs exactly that.
    NodeRegistry onlyFloat;
    int calls = 0;
    onlyFloat.add({hipdnn_flatbuffers_sdk::data_objects::NodeAttributes::PointwiseAttributes,
                   {DataType::FLOAT, DataType::FLOAT}},
                  [&calls](const NodeRunContext&) { ++calls; });
    const CpuGraphExecutor custom(std::move(onlyFloat));
    const auto bytes = GraphBuilder("relu")
                           .addTensor(1, "x", DataType::FLOAT, {4})
                           .addTensor(2, "y", DataType::FLOAT, {4})
                           .addPointwise("relu", PointwiseMode::RELU_FWD, 1, 2)
                           .build();
    std::vector<float> x(4), y(4);
    custom.execute(wrap(bytes), {{1, x.data()}, {2, y.data()}});
    EXPECT_EQ(calls, 1);
}

}  // namespace
