// GraphContextSerialization.hpp in process: the (graph, engine config) pair format and its
// verification, and the two engine bases built on it.
#include "TestHelpers.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_plugin_sdk/GraphContextSerialization.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace plugin_sdk_test {
namespace {

using hipdnn_flatbuffers_sdk::EngineConfigWrapper;
using hipdnn_flatbuffers_sdk::GraphWrapper;
using hipdnn_flatbuffers_sdk::makeEngineConfig;
using hipdnn_plugin_sdk::DeviceBuffers;
using hipdnn_plugin_sdk::IExecutionContext;
using hipdnn_plugin_sdk::PluginError;
using hipdnn_plugin_sdk::PluginHandleBase;
using ::testing::HasSubstr;

HIPDNN_REGISTER_ENGINE(PLUGIN_SDK_CONFIG_SERIALIZED_ENGINE)
HIPDNN_REGISTER_ENGINE(PLUGIN_SDK_GRAPH_SERIALIZED_ENGINE)

constexpr const char* kFactorKnob = "unit_test.factor";

// Runs nothing; its workspace size tells the knob value it was built with.
class RecordingContext : public IExecutionContext {
public:
    explicit RecordingContext(int64_t factor) : _factor(factor) {}

    std::size_t workspaceSize() const override { return static_cast<std::size_t>(_factor); }
    void execute(PluginHandleBase& /*handle*/, void* /*workspace*/,
                 const DeviceBuffers& /*buffers*/) override {}

private:
    int64_t _factor;
};

bool isIdentity(const GraphWrapper& graph, std::string& reason) {
    const auto* pointwise = graph.node(0).attributesAs<fb::PointwiseAttributes>();
    if (pointwise == nullptr || pointwise->operation() != fb::PointwiseMode::IDENTITY) {
        reason = "not an IDENTITY graph";
        return false;
    }
    return true;
}

// Its plan depends on the knob unit_test.factor (1 to 4, default 1).
class ConfigSerializedEngine final : public hipdnn_plugin_sdk::GraphConfigSerializedEngine<PluginHandleBase> {
public:
    ConfigSerializedEngine() : GraphConfigSerializedEngine(PLUGIN_SDK_CONFIG_SERIALIZED_ENGINE_ID) {}

    bool isApplicable(PluginHandleBase& /*handle*/, const GraphWrapper& graph,
                      std::string& reason) const override {
        return isIdentity(graph, reason);
    }
    std::vector<hipdnn_flatbuffers_sdk::KnobDescription> knobs(PluginHandleBase& /*handle*/,
                                                               const GraphWrapper& /*graph*/) const override {
        return {hipdnn_flatbuffers_sdk::KnobDescription::intKnob(
            kFactorKnob, "factor", 1, hipdnn_flatbuffers_sdk::IntKnobConstraint::range(1, 4))};
    }
    std::size_t workspaceSize(PluginHandleBase& /*handle*/, const EngineConfigWrapper& /*config*/,
                              const GraphWrapper& /*graph*/) const override {
        return 0;
    }

protected:
    std::unique_ptr<IExecutionContext> contextForConfig(PluginHandleBase& /*handle*/,
                                                        const EngineConfigWrapper& config,
                                                        const GraphWrapper& /*graph*/) const override {
        return std::make_unique<RecordingContext>(config.intKnob(kFactorKnob).value_or(1));
    }
};

// Its plan depends on the graph alone.
class GraphSerializedEngine final : public hipdnn_plugin_sdk::GraphSerializedEngine<PluginHandleBase> {
public:
    GraphSerializedEngine()
        : hipdnn_plugin_sdk::GraphSerializedEngine<PluginHandleBase>(PLUGIN_SDK_GRAPH_SERIALIZED_ENGINE_ID) {}

    bool isApplicable(PluginHandleBase& /*handle*/, const GraphWrapper& graph,
                      std::string& reason) const override {
        return isIdentity(graph, reason);
    }
    std::size_t workspaceSize(PluginHandleBase& /*handle*/, const EngineConfigWrapper& /*config*/,
                              const GraphWrapper& /*graph*/) const override {
        return 0;
    }

protected:
    std::unique_ptr<IExecutionContext> contextFor(PluginHandleBase& /*handle*/,
                                                  const GraphWrapper& /*graph*/) const override {
        return std::make_unique<RecordingContext>(0);
    }
};

class GraphContextSerializationTest : public ::testing::Test {
protected:
    static EngineConfigWrapper configOf(const std::vector<uint8_t>& bytes) {
        return {bytes.data(), bytes.size()};
    }

    /// The status and message deserializing `bytes` fails with; SUCCESS when it does not fail.
    template <class Engine>
    std::pair<hipdnnPluginStatus_t, std::string> failureOf(const Engine& engine,
                                                           std::span<const uint8_t> bytes) {
        try {
            static_cast<void>(engine.deserializeExecutionContext(handle, bytes));
            return {HIPDNN_PLUGIN_STATUS_SUCCESS, ""};
        } catch (const PluginError& error) {
            return {error.status(), error.what()};
        }
    }

    PluginHandleBase handle;
    const std::vector<uint8_t> graphBytes = makeUnaryPointwiseGraph(fb::PointwiseMode::IDENTITY, "identity");
    const GraphWrapper graph{graphBytes.data(), graphBytes.size()};
    const std::vector<uint8_t> factor3 =
        makeEngineConfig(PLUGIN_SDK_CONFIG_SERIALIZED_ENGINE_ID, {{kFactorKnob, int64_t{3}}});
};

TEST_F(GraphContextSerializationTest, ConfigSerializedContextsKeepTheirKnobsThroughARoundTrip) {
    const ConfigSerializedEngine engine;
    EXPECT_THAT(engine.behaviorNotes(),
                ::testing::ElementsAre(fb::BehaviorNote::SUPPORTS_EXECUTION_PLAN_SERIALIZATION));
    const auto built = engine.createExecutionContext(handle, configOf(factor3), graph);
    EXPECT_EQ(built->workspaceSize(), 3U);
    const std::vector<uint8_t> bytes = built->serialize();
    EXPECT_EQ(bytes, hipdnn_plugin_sdk::serializeGraphConfigContext(graph, configOf(factor3)));

    const auto restored = engine.deserializeExecutionContext(handle, bytes);
    EXPECT_EQ(restored->workspaceSize(), 3U);  // the default factor would give 1
    EXPECT_EQ(restored->serialize(), bytes);
}

TEST_F(GraphContextSerializationTest, PairsRoundTripBothBuffersExactly) {
    const std::vector<uint8_t> bytes =
        hipdnn_plugin_sdk::serializeGraphConfigContext(graph, configOf(factor3));
    const hipdnn_plugin_sdk::GraphAndConfig pair =
        hipdnn_plugin_sdk::graphAndConfigOfSerializedContext(bytes, "SOME_ENGINE");
    EXPECT_EQ(std::vector<uint8_t>(pair.graph.data(), pair.graph.data() + pair.graph.size()), graphBytes);
    EXPECT_EQ(std::vector<uint8_t>(pair.config.data(), pair.config.data() + pair.config.size()), factor3);
}

TEST_F(GraphContextSerializationTest, EveryTruncationAndGarbageIsBadParamNamingTheEngine) {
    const ConfigSerializedEngine engine;
    const std::vector<uint8_t> bytes =
        hipdnn_plugin_sdk::serializeGraphConfigContext(graph, configOf(factor3));
    for (size_t size = 0; size < bytes.size(); ++size) {
        const auto [status, message] = failureOf(engine, std::span(bytes).first(size));
        EXPECT_EQ(status, HIPDNN_PLUGIN_STATUS_BAD_PARAM) << "truncated to " << size << " bytes";
        EXPECT_THAT(message,
                    HasSubstr("the serialized execution context of PLUGIN_SDK_CONFIG_SERIALIZED_ENGINE (" +
                              std::to_string(size) + " bytes)"));
    }
    const std::vector<uint8_t> garbage(64, 0xA5);
    const auto [status, message] = failureOf(engine, garbage);
    EXPECT_EQ(status, HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(message, HasSubstr("is not a graph and engine config pair"));
}

TEST_F(GraphContextSerializationTest, PairsWithAMissingOrInvalidPartNameThePart) {
    const ConfigSerializedEngine engine;
    const auto pairOf = [](const std::vector<uint8_t>* graphPart, const std::vector<uint8_t>* configPart) {
        flatbuffers::FlatBufferBuilder builder;
        builder.Finish(fb::CreateGraphConfigContextDirect(builder, graphPart, configPart));
        return std::vector<uint8_t>(builder.GetBufferPointer(),
                                    builder.GetBufferPointer() + builder.GetSize());
    };
    const std::vector<uint8_t> garbage(48, 0x11);
    EXPECT_THAT(failureOf(engine, pairOf(&graphBytes, nullptr)).second, HasSubstr("lacks its engine config"));
    EXPECT_THAT(failureOf(engine, pairOf(nullptr, &factor3)).second, HasSubstr("lacks its graph"));
    const auto invalidGraph = failureOf(engine, pairOf(&garbage, &factor3));
    EXPECT_EQ(invalidGraph.first, HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(invalidGraph.second, HasSubstr("holds an invalid graph: "));
    const auto invalidConfig = failureOf(engine, pairOf(&graphBytes, &garbage));
    EXPECT_EQ(invalidConfig.first, HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(invalidConfig.second, HasSubstr("holds an invalid engine config: "));
    // The graph-only format is not a pair.
    EXPECT_THAT(failureOf(engine, graphBytes).second, HasSubstr("is not a graph and engine config pair"));
}

TEST_F(GraphContextSerializationTest, ValidPairsTheFirstBuildWouldRefuseAreRefused) {
    const ConfigSerializedEngine engine;
    const auto pairOf = [&](const std::vector<uint8_t>& graphPart, const std::vector<uint8_t>& configPart) {
        return hipdnn_plugin_sdk::serializeGraphConfigContext({graphPart.data(), graphPart.size()},
                                                              configOf(configPart));
    };
    const auto otherEngine =
        failureOf(engine, pairOf(graphBytes, makeEngineConfig(PLUGIN_SDK_GRAPH_SERIALIZED_ENGINE_ID, {})));
    EXPECT_EQ(otherEngine.first, HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(otherEngine.second,
                HasSubstr("holds the engine config of engine PLUGIN_SDK_GRAPH_SERIALIZED_ENGINE"));

    const auto outOfRange =
        failureOf(engine, pairOf(graphBytes, makeEngineConfig(PLUGIN_SDK_CONFIG_SERIALIZED_ENGINE_ID,
                                                              {{kFactorKnob, int64_t{9}}})));
    EXPECT_EQ(outOfRange.first, HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(outOfRange.second, HasSubstr("holds knob settings the engine refuses: "));
    EXPECT_THAT(outOfRange.second, HasSubstr(kFactorKnob));

    const auto inapplicable =
        failureOf(engine, pairOf(makeUnaryPointwiseGraph(fb::PointwiseMode::ABS, "abs"), factor3));
    EXPECT_EQ(inapplicable.first, HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    EXPECT_THAT(
        inapplicable.second,
        HasSubstr("PLUGIN_SDK_CONFIG_SERIALIZED_ENGINE cannot run the graph of its serialized execution "
                  "context: not an IDENTITY graph"));
}

TEST_F(GraphContextSerializationTest, GraphSerializedContextsStillSerializeAsTheirGraph) {
    const GraphSerializedEngine engine;
    EXPECT_THAT(engine.behaviorNotes(),
                ::testing::ElementsAre(fb::BehaviorNote::SUPPORTS_EXECUTION_PLAN_SERIALIZATION));
    const auto built = engine.createExecutionContext(
        handle, configOf(makeEngineConfig(PLUGIN_SDK_GRAPH_SERIALIZED_ENGINE_ID, {})), graph);
    const std::vector<uint8_t> bytes = built->serialize();
    EXPECT_EQ(bytes, graphBytes);

    const auto restored = engine.deserializeExecutionContext(handle, bytes);
    EXPECT_EQ(restored->serialize(), graphBytes);

    const auto pair =
        failureOf(engine, hipdnn_plugin_sdk::serializeGraphConfigContext(graph, configOf(factor3)));
    EXPECT_EQ(pair.first, HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(pair.second,
                HasSubstr("the serialized execution context of PLUGIN_SDK_GRAPH_SERIALIZED_ENGINE"));
    EXPECT_THAT(pair.second, HasSubstr("is not a valid graph: "));
    const auto truncated = failureOf(engine, std::span(graphBytes).first(graphBytes.size() / 2));
    EXPECT_EQ(truncated.first, HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(truncated.second, HasSubstr("is not a valid graph: "));
}

}  // namespace
}  // namespace plugin_sdk_test
