// The estimated-time model engines rank by: device ceilings from GPU attributes, graph classes,
// and the roofline of a graph's bytes and flops.
#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>
#include <hipdnn_plugin_sdk/Roofline.hpp>
#include <hipdnn_test_sdk/GraphBuilder.hpp>

#include <gtest/gtest.h>

#include <optional>
#include <vector>

namespace {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;
using hipdnn_flatbuffers_sdk::GraphWrapper;
using hipdnn_plugin_sdk::DeviceCeilings;
using hipdnn_plugin_sdk::EngineEfficiency;
using hipdnn_plugin_sdk::MathKind;
using hipdnn_test_sdk::GraphBuilder;

// relu(x) of 1024 x 1024 floats: 8 MiB read and written, no flops.
std::vector<uint8_t> reluGraph(fb::DataType type = fb::DataType::FLOAT) {
    return GraphBuilder("relu")
        .addTensor(1, "x", type, {1024, 1024})
        .addTensor(2, "y", type, {1024, 1024})
        .addPointwise("relu", fb::PointwiseMode::RELU_FWD, 1, 2)
        .build();
}

// A bf16 512 x 256 x 128 matmul: 2 x 512 x 256 x 128 flops.
std::vector<uint8_t> matmulGraph() {
    return GraphBuilder("matmul")
        .addTensor(1, "a", fb::DataType::BFLOAT16, {1, 512, 256})
        .addTensor(2, "b", fb::DataType::BFLOAT16, {1, 256, 128})
        .addTensor(3, "c", fb::DataType::BFLOAT16, {1, 512, 128})
        .addMatmul("matmul", 1, 2, 3)
        .build();
}

// Batch norm training of x (N, C, H, W) NHWC, then relu.
std::vector<uint8_t> batchnormReluGraph() {
    const std::vector<int64_t> dims{2, 8, 4, 4};
    const std::vector<int64_t> nhwc{128, 1, 32, 8};
    hipdnn_test_sdk::BatchnormTrainingPorts ports;
    ports.x = 1;
    ports.scale = 2;
    ports.bias = 3;
    ports.epsilon = 4;
    ports.y = 5;
    return GraphBuilder("bn_relu")
        .addTensor(1, "x", fb::DataType::FLOAT, dims, nhwc)
        .addTensor(2, "scale", fb::DataType::FLOAT, {1, 8, 1, 1})
        .addTensor(3, "bias", fb::DataType::FLOAT, {1, 8, 1, 1})
        .addScalar(4, "epsilon", fb::DataType::FLOAT, 1e-5)
        .addTensor(5, "bn", fb::DataType::FLOAT, dims, nhwc, true)
        .addTensor(6, "y", fb::DataType::FLOAT, dims, nhwc)
        .addBatchnormTraining("bn", ports)
        .addPointwise("relu", fb::PointwiseMode::RELU_FWD, 5, 6)
        .build();
}

TEST(Roofline, GpuCeilingsComeFromTheArchitectureTableAndTheMemoryInterface) {
    // An H200: 132 SMs at 1980 MHz, HBM3e at 2619 MHz on a 5120-bit bus.
    const DeviceCeilings ceilings = hipdnn_plugin_sdk::gpuCeilings(132, 1980000, 9, 0, 2619000, 5120);
    EXPECT_DOUBLE_EQ(ceilings.peakFor(MathKind::Bf16), 132 * 1.98e9 * 4096);
    EXPECT_DOUBLE_EQ(ceilings.peakFor(MathKind::Fp32), 132 * 1.98e9 * 256);
    EXPECT_DOUBLE_EQ(ceilings.bytesPerSecond, 2 * 2619e6 * 640);
    EXPECT_GT(ceilings.launchSeconds, 0.0);
    // Volta has no bf16 unit: bf16 runs at fp32's rate.
    const DeviceCeilings volta = hipdnn_plugin_sdk::gpuCeilings(80, 1530000, 7, 0, 877000, 4096);
    EXPECT_DOUBLE_EQ(volta.peakFor(MathKind::Bf16), volta.peakFor(MathKind::Fp32));
    // An architecture newer than the table gets the table's fastest row.
    bool exact = true;
    EXPECT_EQ(hipdnn_plugin_sdk::gpuArchitectureRates(99, 0, exact).bf16, 8192);
    EXPECT_FALSE(exact);
}

TEST(Roofline, AMemoryBoundGraphCostsItsBytesOverTheEnginesShareOfTheBandwidth) {
    const std::vector<uint8_t> bytes = reluGraph();
    const GraphWrapper graph(bytes.data(), bytes.size());
    DeviceCeilings ceilings;
    ceilings.bytesPerSecond = 1e12;
    ceilings.launchSeconds = 2e-6;
    const std::optional<double> seconds =
        hipdnn_plugin_sdk::rooflineSeconds(graph, ceilings, {.memory = 0.5, .compute = 0.0, .launches = 3});
    ASSERT_TRUE(seconds);
    EXPECT_DOUBLE_EQ(*seconds, 8.0 * 1024 * 1024 / 0.5e12 + 3 * 2e-6);
    // Without a bandwidth there is no estimate.
    EXPECT_FALSE(hipdnn_plugin_sdk::rooflineSeconds(graph, ceilings, {.memory = 0.0, .compute = 1.0}));
}

TEST(Roofline, AComputeBoundGraphCostsItsFlopsOverThePeakOfItsMath) {
    const std::vector<uint8_t> bytes = matmulGraph();
    const GraphWrapper graph(bytes.data(), bytes.size());
    DeviceCeilings ceilings;
    ceilings.bytesPerSecond = 1e15;
    ceilings.flopsPerSecond[MathKind::Fp32] = 1e12;
    ceilings.flopsPerSecond[MathKind::Bf16] = 8e12;
    const double flops = 2.0 * 512 * 256 * 128;
    EXPECT_DOUBLE_EQ(*hipdnn_plugin_sdk::rooflineSeconds(graph, ceilings, {.memory = 1.0, .compute = 0.5}),
                     flops / 4e12);
    // A math kind without a peak of its own runs at fp32's.
    ceilings.flopsPerSecond.erase(MathKind::Bf16);
    EXPECT_DOUBLE_EQ(*hipdnn_plugin_sdk::rooflineSeconds(graph, ceilings, {.memory = 1.0, .compute = 0.5}),
                     flops / 0.5e12);
    EXPECT_FALSE(hipdnn_plugin_sdk::rooflineSeconds(graph, ceilings, {.memory = 1.0, .compute = 0.0}));
}

TEST(Roofline, GraphClassNamesTheOneOperationThatIsNotPointwise) {
    const std::vector<uint8_t> relu = reluGraph();
    const auto pointwise = hipdnn_plugin_sdk::classifyGraph(GraphWrapper(relu.data(), relu.size()));
    EXPECT_EQ(pointwise.principal, fb::NodeAttributes::NONE);
    EXPECT_EQ(pointwise.pointwiseNodes, 1);
    EXPECT_FALSE(pointwise.mixed);

    const std::vector<uint8_t> bn = batchnormReluGraph();
    const auto batchnorm = hipdnn_plugin_sdk::classifyGraph(GraphWrapper(bn.data(), bn.size()));
    EXPECT_EQ(batchnorm.principal, fb::NodeAttributes::BatchnormAttributes);
    EXPECT_TRUE(batchnorm.channelsLast);
    EXPECT_EQ(batchnorm.pointwiseNodes, 1);
    EXPECT_FALSE(batchnorm.mixed);

    const std::vector<uint8_t> twoMatmuls = GraphBuilder("two_matmuls")
                                                .addTensor(1, "a", fb::DataType::FLOAT, {1, 4, 4})
                                                .addTensor(2, "b", fb::DataType::FLOAT, {1, 4, 4})
                                                .addTensor(3, "ab", fb::DataType::FLOAT, {1, 4, 4}, {}, true)
                                                .addTensor(4, "c", fb::DataType::FLOAT, {1, 4, 4})
                                                .addMatmul("first", 1, 2, 3)
                                                .addMatmul("second", 3, 2, 4)
                                                .build();
    const auto mixed = hipdnn_plugin_sdk::classifyGraph(GraphWrapper(twoMatmuls.data(), twoMatmuls.size()));
    EXPECT_EQ(mixed.principal, fb::NodeAttributes::MatmulAttributes);
    EXPECT_TRUE(mixed.mixed);
}

TEST(Roofline, AnEngineWithoutAnEfficiencyForTheGraphsClassGivesNoEstimate) {
    const std::vector<uint8_t> bytes = reluGraph(fb::DataType::BFLOAT16);
    const GraphWrapper graph(bytes.data(), bytes.size());
    DeviceCeilings ceilings;
    ceilings.bytesPerSecond = 1e12;
    const auto onlyBatchnorm =
        [](const hipdnn_plugin_sdk::GraphClass& graphClass) -> std::optional<EngineEfficiency> {
        if (graphClass.principal != fb::NodeAttributes::BatchnormAttributes) {
            return std::nullopt;
        }
        return EngineEfficiency{.memory = 1.0, .compute = 1.0, .launches = 1};
    };
    EXPECT_FALSE(hipdnn_plugin_sdk::estimateSeconds(graph, ceilings, onlyBatchnorm));
    const auto any = [](const hipdnn_plugin_sdk::GraphClass&) -> std::optional<EngineEfficiency> {
        return EngineEfficiency{.memory = 1.0, .compute = 1.0, .launches = 0};
    };
    EXPECT_DOUBLE_EQ(*hipdnn_plugin_sdk::estimateSeconds(graph, ceilings, any), 4.0 * 1024 * 1024 / 1e12);
}

}  // namespace
