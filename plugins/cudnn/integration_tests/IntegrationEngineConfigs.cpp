// cuDNN engine configurations: the deterministic engine, cudnn.engine.index and
// cudnn.heuristics.mode knobs, global.benchmarking, plan serialization, repeated executes
// (CUDA graph replay), and declines that carry cuDNN's reason.
#include "CudnnHarness.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_test_sdk/SkipIfNoDevice.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>

namespace cudnn_integration {
namespace {

using hipdnn_test_sdk::ToleranceOp;

GraphBuilder wgradGraph() {
    const std::vector<int64_t> x = {2, 16, 10, 10}, w = {16, 16, 3, 3};
    GraphBuilder builder("wgrad");
    builder.addTensor(1, "x", fb::DataType::HALF, x, layoutStrides(x, true))
        .addTensor(2, "dy", fb::DataType::HALF, x, layoutStrides(x, true))
        .addTensor(3, "dw", fb::DataType::HALF, w, layoutStrides(w, true))
        .addConvWgrad("wgrad", 1, 2, 3, {{1, 1}, {1, 1}, {1, 1}, {1, 1}});
    return builder;
}

/// A 3x3 same-size NHWC convolution, N x C x size x size, C output channels.
GraphBuilder fpropGraph(fb::DataType type = fb::DataType::BFLOAT16, int64_t n = 1, int64_t c = 32,
                        int64_t size = 14) {
    const std::vector<int64_t> x = {n, c, size, size}, w = {c, c, 3, 3};
    GraphBuilder builder("fprop");
    builder.addTensor(1, "x", type, x, layoutStrides(x, true))
        .addTensor(2, "w", type, w, layoutStrides(w, true))
        .addTensor(3, "y", type, x, layoutStrides(x, true))
        .addConvFprop("conv", 1, 2, 3, {{1, 1}, {1, 1}, {1, 1}, {1, 1}});
    return builder;
}

TEST(SmokeCudnnEngineConfigs, DeterministicEngineMatchesReference) {
    SKIP_IF_NO_DEVICE();
    RunOptions options;
    options.engineId = hipdnn_data_sdk::utilities::CUDNN_ENGINE_DETERMINISTIC_ID;
    expectMatchesReference(wgradGraph(), ToleranceOp::ConvolutionWrw, options);
}

TEST(SmokeCudnnEngineConfigs, EngineDetailsPublishTheKnobs) {
    SKIP_IF_NO_DEVICE();
    const std::vector<uint8_t> bytes = fpropGraph().build();
    const std::vector<KnobSummary> knobs = pluginKnobs(bytes, hipdnn_data_sdk::utilities::CUDNN_ENGINE_ID);
    const auto find = [&](const std::string& id) {
        return std::find_if(knobs.begin(), knobs.end(),
                            [&](const KnobSummary& knob) { return knob.id == id; });
    };
    ASSERT_NE(find("cudnn.heuristics.mode"), knobs.end());
    const auto index = find("cudnn.engine.index");
    ASSERT_NE(index, knobs.end());
    EXPECT_FALSE(index->validValues.empty());
    EXPECT_TRUE(std::any_of(knobs.begin(), knobs.end(), [](const KnobSummary& knob) {
        return knob.id.starts_with("cudnn.knob.");
    })) << "no pass-through cuDNN knob was published";
}

TEST(SmokeCudnnEngineConfigs, EveryPublishedEngineIndexRunsCorrectly) {
    SKIP_IF_NO_DEVICE();
    const std::vector<uint8_t> bytes = fpropGraph().build();
    const hipdnn_flatbuffers_sdk::GraphWrapper graph(bytes.data(), bytes.size());
    const std::vector<KnobSummary> knobs = pluginKnobs(bytes, hipdnn_data_sdk::utilities::CUDNN_ENGINE_ID);
    const auto index = std::find_if(knobs.begin(), knobs.end(),
                                    [](const KnobSummary& knob) { return knob.id == "cudnn.engine.index"; });
    ASSERT_NE(index, knobs.end());
    std::map<int64_t, HostTensor> reference = makeHostTensors(graph);
    const std::map<int64_t, HostTensor> inputs = reference;
    ASSERT_NO_FATAL_FAILURE(runReference(bytes, reference));
    // Bounded: every plan may compile kernels. The first values come from the heuristics' lists,
    // the last from the engines no heuristics ranked; each is planned wherever it is listed.
    constexpr size_t kFirstEngines = 4;
    constexpr size_t kLastEngines = 2;
    const std::vector<int64_t>& listed = index->validValues;
    std::vector<int64_t> engines(listed.begin(), listed.begin() + std::min(listed.size(), kFirstEngines));
    for (size_t i = std::max(engines.size(), listed.size() - std::min(listed.size(), kLastEngines));
         i < listed.size(); ++i) {
        engines.push_back(listed[i]);
    }
    int ran = 0;
    for (const int64_t engine : engines) {
        SCOPED_TRACE("cudnn.engine.index " + std::to_string(engine));
        std::map<int64_t, HostTensor> actual = inputs;
        PluginRun run;
        run.intKnobs = {{"cudnn.engine.index", engine}};
        // cuDNN may still fail to build a listed engine for this graph; the others must run.
        std::string createError;
        run.createError = &createError;
        ASSERT_NO_FATAL_FAILURE(runThroughPlugin(bytes, actual, run));
        // A listed index is always found, whichever list it came from.
        EXPECT_EQ(createError.find("is not among"), std::string::npos) << createError;
        if (!createError.empty()) {
            continue;
        }
        expectOutputsClose(graph, reference, actual, ToleranceOp::ConvolutionFwd);
        ++ran;
    }
    EXPECT_GT(ran, 0);
}

TEST(SmokeCudnnEngineConfigs, SerializedPlanRunsCorrectly) {
    SKIP_IF_NO_DEVICE();
    const std::vector<uint8_t> bytes = fpropGraph().build();
    const hipdnn_flatbuffers_sdk::GraphWrapper graph(bytes.data(), bytes.size());
    std::map<int64_t, HostTensor> reference = makeHostTensors(graph);
    std::map<int64_t, HostTensor> actual = reference;
    ASSERT_NO_FATAL_FAILURE(runReference(bytes, reference));
    PluginRun run;
    run.roundTripSerialization = true;
    ASSERT_NO_FATAL_FAILURE(runThroughPlugin(bytes, actual, run));
    expectOutputsClose(graph, reference, actual, ToleranceOp::ConvolutionFwd);
}

TEST(SmokeCudnnEngineConfigs, BenchmarkingPicksAPlanThatRunsCorrectly) {
    SKIP_IF_NO_DEVICE();
    const std::pair<GraphBuilder, ToleranceOp> cases[] = {
        {fpropGraph(), ToleranceOp::ConvolutionFwd},
        {wgradGraph(), ToleranceOp::ConvolutionWrw},
        // Timing must not pick an engine that computes fp32 in reduced precision.
        {fpropGraph(fb::DataType::FLOAT, 2, 64, 28), ToleranceOp::ConvolutionFwd}};
    for (const auto& [builder, tolerance] : cases) {
        const std::vector<uint8_t> bytes = builder.build();
        const hipdnn_flatbuffers_sdk::GraphWrapper graph(bytes.data(), bytes.size());
        std::map<int64_t, HostTensor> reference = makeHostTensors(graph);
        std::map<int64_t, HostTensor> actual = reference;
        ASSERT_NO_FATAL_FAILURE(runReference(bytes, reference));
        PluginRun run;
        run.intKnobs = {{"global.benchmarking", 1}};
        ASSERT_NO_FATAL_FAILURE(runThroughPlugin(bytes, actual, run));
        expectOutputsClose(graph, reference, actual, tolerance);
    }
}

TEST(SmokeCudnnEngineConfigs, RepeatedExecutesReadTheCurrentInputs) {
    SKIP_IF_NO_DEVICE();
    const std::vector<uint8_t> bytes = fpropGraph().build();
    const hipdnn_flatbuffers_sdk::GraphWrapper graph(bytes.data(), bytes.size());
    std::map<int64_t, HostTensor> actual = makeHostTensors(graph);
    // Different values for the last execute: a replay that ignored the current buffer contents
    // (or did not run) would leave the first inputs' result or zeros.
    std::map<int64_t, HostTensor> replayInputs = makeHostTensors(graph, {{1, {0.0, 2.0}}, {2, {-2.0, 0.0}}});
    std::map<int64_t, HostTensor> reference = replayInputs;
    ASSERT_NO_FATAL_FAILURE(runReference(bytes, reference));
    PluginRun run;
    run.replayInputs = &replayInputs;
    ASSERT_NO_FATAL_FAILURE(runThroughPlugin(bytes, actual, run));
    expectOutputsClose(graph, reference, actual, ToleranceOp::ConvolutionFwd);
}

TEST(SmokeCudnnEngineConfigs, UnmappedGraphIsDeclinedWithTheReason) {
    SKIP_IF_NO_DEVICE();
    GraphBuilder builder("pool");
    builder.addTensor(1, "x", fb::DataType::FLOAT, {1, 2, 4, 4})
        .addTensor(2, "y", fb::DataType::FLOAT, {1, 2, 2, 2})
        .addResample("maxpool", 1, 2, {fb::ResampleMode::MAXPOOL, {0, 0}, {0, 0}, {2, 2}, {2, 2}});
    const auto [ranked, declined] = Backend::instance().gpuHeuristics(builder.build());
    EXPECT_TRUE(ranked.empty());
    EXPECT_NE(declined.find("CUDNN_ENGINE"), std::string::npos) << declined;
    EXPECT_NE(declined.find("node 0 'maxpool': ResampleFwdAttributes is not mapped to the cuDNN graph API"),
              std::string::npos)
        << declined;
}

}  // namespace
}  // namespace cudnn_integration
