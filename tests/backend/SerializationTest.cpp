// Execution plan serialization: round trip with a plugin that exports the trio, NOT_SUPPORTED
// otherwise.
#include <hipdnn_flatbuffers_sdk/data_objects/engine_config_generated.h>
#include <hipdnn_flatbuffers_sdk/SerializedPlan.hpp>

#include "BackendTestUtils.hpp"

using namespace hipdnn_backend_tests;

namespace {

class PlanSerialization : public ::testing::Test {
protected:
    void SetUp() override {
        usePluginPaths({pluginDir("good_cpu"), pluginDir("knobs")});
        _handle = createCpuHandle();
        _graph = finalizedGraph(_handle, makeGraph());
    }
    void TearDown() override {
        hipdnnBackendDestroyDescriptor(_graph);
        hipdnnDestroy(_handle);
    }
    hipdnnBackendDescriptor_t planFor(const char* name) {
        hipdnnBackendDescriptor_t engine = finalizedEngine(_graph, engineIdOf(name));
        hipdnnBackendDescriptor_t config = finalizedConfig(engine);
        hipdnnBackendDescriptor_t plan = finalizedPlan(config);
        hipdnnBackendDestroyDescriptor(config);
        hipdnnBackendDestroyDescriptor(engine);
        return plan;
    }
    hipdnnHandle_t _handle = nullptr;
    hipdnnBackendDescriptor_t _graph = nullptr;
};

TEST_F(PlanSerialization, RoundTripGivesAnExecutablePlan) {
    hipdnnBackendDescriptor_t plan = planFor("FAKE_CPU_RELU_ENGINE");
    size_t size = 0;
    ASSERT_EQ(hipdnnBackendGetSerializedExecutionPlan_ext(plan, 0, &size, nullptr), HIPDNN_STATUS_SUCCESS)
        << lastError();
    std::vector<uint8_t> bytes(size);
    ASSERT_EQ(hipdnnBackendGetSerializedExecutionPlan_ext(plan, size, &size, bytes.data()),
              HIPDNN_STATUS_SUCCESS);
    hipdnnBackendDestroyDescriptor(plan);

    hipdnnBackendDescriptor_t restored = nullptr;
    ASSERT_EQ(
        hipdnnBackendCreateAndDeserializeExecutionPlan_ext(_handle, &restored, bytes.data(), bytes.size()),
        HIPDNN_STATUS_SUCCESS)
        << lastError();
    std::vector<float> x = {-1, 2, -3, 4, -5, 6, -7, 8}, y(8, 0);
    hipdnnBackendDescriptor_t pack = variantPack({kInputUid, kOutputUid}, {x.data(), y.data()});
    ASSERT_EQ(hipdnnBackendExecute(_handle, restored, pack), HIPDNN_STATUS_SUCCESS) << lastError();
    EXPECT_EQ(y, (std::vector<float>{0, 2, 0, 4, 0, 6, 0, 8}));
    hipdnnBackendDestroyDescriptor(pack);
    hipdnnBackendDestroyDescriptor(restored);

    bytes[bytes.size() / 2] ^= 0xFF;
    bytes.resize(bytes.size() / 2);
    EXPECT_EQ(
        hipdnnBackendCreateAndDeserializeExecutionPlan_ext(_handle, &restored, bytes.data(), bytes.size()),
        HIPDNN_STATUS_BAD_PARAM);
}

TEST_F(PlanSerialization, PluginsWithoutTheTrioAnswerNotSupported) {
    hipdnnBackendDescriptor_t plan = planFor("FAKE_KNOB_ENGINE");
    size_t size = 0;
    EXPECT_EQ(hipdnnBackendGetSerializedExecutionPlan_ext(plan, 0, &size, nullptr),
              HIPDNN_STATUS_NOT_SUPPORTED);
    EXPECT_NE(
        lastError().find("Plugin 'fake_knobs' does not export the execution plan serialization functions"),
        std::string::npos);
    hipdnnBackendDestroyDescriptor(plan);
}

}  // namespace

namespace {

// The plugin exports the serialization trio but its engine answers NOT_APPLICABLE (what the
// plugin SDK's defaults answer, so the shipped CPU engines behave alike): NOT_SUPPORTED, as
// hipdnn_backend.h promises, with the plugin's reason.
class PlanSerializationNotImplemented : public ::testing::Test {
protected:
    void SetUp() override {
        usePluginPaths({pluginDir("serialization_unsupported")});
        _handle = createCpuHandle();
        _graph = finalizedGraph(_handle, makeGraph());
    }
    void TearDown() override {
        hipdnnBackendDestroyDescriptor(_graph);
        hipdnnDestroy(_handle);
    }
    hipdnnHandle_t _handle = nullptr;
    hipdnnBackendDescriptor_t _graph = nullptr;
};

TEST_F(PlanSerializationNotImplemented, SerializingIsNotSupportedWithThePluginsReason) {
    hipdnnBackendDescriptor_t engine = finalizedEngine(_graph, engineIdOf("FAKE_NO_SERIALIZATION_ENGINE"));
    hipdnnBackendDescriptor_t config = finalizedConfig(engine);
    hipdnnBackendDescriptor_t plan = finalizedPlan(config);
    size_t size = 0;
    EXPECT_EQ(hipdnnBackendGetSerializedExecutionPlan_ext(plan, 0, &size, nullptr),
              HIPDNN_STATUS_NOT_SUPPORTED);
    EXPECT_EQ(lastError(),
              "Plugin 'fake_serialization_unsupported' cannot serialize the execution plan of engine "
              "FAKE_NO_SERIALIZATION_ENGINE: this execution context does not support serialization");
    hipdnnBackendDestroyDescriptor(plan);
    hipdnnBackendDestroyDescriptor(config);
    hipdnnBackendDestroyDescriptor(engine);
}

TEST_F(PlanSerializationNotImplemented, DeserializingIsNotSupportedWithThePluginsReason) {
    const int64_t engineId = engineIdOf("FAKE_NO_SERIALIZATION_ENGINE");
    flatbuffers::FlatBufferBuilder configBuilder;
    configBuilder.Finish(fb::CreateEngineConfig(configBuilder, engineId));
    const std::vector<uint8_t> graphBytes = makeGraph();
    const std::vector<uint8_t> configBytes(configBuilder.GetBufferPointer(),
                                           configBuilder.GetBufferPointer() + configBuilder.GetSize());
    const std::vector<int64_t> uids = {kInputUid, kOutputUid};
    const std::vector<uint8_t> context = {1, 2, 3, 4};
    auto serialized = [&](uint32_t version) {
        flatbuffers::FlatBufferBuilder builder;
        builder.Finish(fb::CreateSerializedExecutionPlanDirect(builder, version, engineId, 0, &uids,
                                                               &configBytes, &context, &graphBytes));
        return std::vector<uint8_t>(builder.GetBufferPointer(),
                                    builder.GetBufferPointer() + builder.GetSize());
    };
    const std::vector<uint8_t> current = serialized(hipdnn_flatbuffers_sdk::kSerializedExecutionPlanVersion);
    hipdnnBackendDescriptor_t plan = nullptr;
    EXPECT_EQ(
        hipdnnBackendCreateAndDeserializeExecutionPlan_ext(_handle, &plan, current.data(), current.size()),
        HIPDNN_STATUS_NOT_SUPPORTED);
    EXPECT_EQ(
        lastError(),
        "Plugin 'fake_serialization_unsupported' cannot rebuild the serialized execution plan of engine "
        "FAKE_NO_SERIALIZATION_ENGINE: engine FAKE_NO_SERIALIZATION_ENGINE does not support execution "
        "context deserialization");
    EXPECT_EQ(plan, nullptr);

    // A layout version this backend does not read is refused before any plugin sees it.
    const std::vector<uint8_t> newer =
        serialized(hipdnn_flatbuffers_sdk::kSerializedExecutionPlanVersion + 1);
    EXPECT_EQ(hipdnnBackendCreateAndDeserializeExecutionPlan_ext(_handle, &plan, newer.data(), newer.size()),
              HIPDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(lastError(),
              "The serialized execution plan has layout version 2; this backend reads version 1");
    EXPECT_EQ(plan, nullptr);
}

}  // namespace
