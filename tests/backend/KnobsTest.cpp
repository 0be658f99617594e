// KNOB_INFO publication and KNOB_CHOICE settings reaching the plugin.
#include <hipdnn_flatbuffers_sdk/data_objects/knob_value_generated.h>

#include <cstring>

#include "BackendTestUtils.hpp"

using namespace hipdnn_backend_tests;

namespace {

class Knobs : public ::testing::Test {
protected:
    void SetUp() override {
        usePluginPaths({pluginDir("knobs")});
        _handle = createCpuHandle();
        _graph = finalizedGraph(_handle, makeGraph());
        _engine = finalizedEngine(_graph, engineIdOf("FAKE_KNOB_ENGINE"));
    }
    void TearDown() override {
        hipdnnBackendDestroyDescriptor(_engine);
        hipdnnBackendDestroyDescriptor(_graph);
        hipdnnDestroy(_handle);
    }

    hipdnnBackendDescriptor_t choice(const char* id, hipdnnBackendAttributeType_t type, const void* value,
                                     int64_t count = 1) {
        hipdnnBackendDescriptor_t descriptor = nullptr;
        EXPECT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR, &descriptor),
                  HIPDNN_STATUS_SUCCESS);
        EXPECT_EQ(hipdnnBackendSetAttribute(descriptor, HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE, HIPDNN_TYPE_CHAR,
                                            static_cast<int64_t>(std::strlen(id)), id),
                  HIPDNN_STATUS_SUCCESS);
        EXPECT_EQ(
            hipdnnBackendSetAttribute(descriptor, HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, type, count, value),
            HIPDNN_STATUS_SUCCESS);
        EXPECT_EQ(hipdnnBackendFinalize(descriptor), HIPDNN_STATUS_SUCCESS) << lastError();
        return descriptor;
    }

    int64_t workspaceOf(hipdnnBackendDescriptor_t config) {
        int64_t count = 0;
        int64_t size = -1;
        EXPECT_EQ(hipdnnBackendGetAttribute(config, HIPDNN_ATTR_ENGINECFG_WORKSPACE_SIZE, HIPDNN_TYPE_INT64,
                                            1, &count, &size),
                  HIPDNN_STATUS_SUCCESS);
        return size;
    }

    hipdnnBackendDescriptor_t configWithChoices(std::vector<hipdnnBackendDescriptor_t> choices) {
        hipdnnBackendDescriptor_t config = nullptr;
        EXPECT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &config),
                  HIPDNN_STATUS_SUCCESS);
        hipdnnBackendSetAttribute(config, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                                  &_engine);
        EXPECT_EQ(hipdnnBackendSetAttribute(config, HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES,
                                            HIPDNN_TYPE_BACKEND_DESCRIPTOR,
                                            static_cast<int64_t>(choices.size()), choices.data()),
                  HIPDNN_STATUS_SUCCESS)
            << lastError();
        return config;
    }

    hipdnnHandle_t _handle = nullptr;
    hipdnnBackendDescriptor_t _graph = nullptr;
    hipdnnBackendDescriptor_t _engine = nullptr;
};

TEST_F(Knobs, EnginePublishesItsKnobsThroughKnobInfoDescriptors) {
    int64_t count = 0;
    ASSERT_EQ(hipdnnBackendGetAttribute(_engine, HIPDNN_ATTR_ENGINE_KNOB_INFO, HIPDNN_TYPE_BACKEND_DESCRIPTOR,
                                        0, &count, nullptr),
              HIPDNN_STATUS_SUCCESS);
    ASSERT_EQ(count, 3);
    hipdnnBackendDescriptor_t infos[3];
    for (auto& info : infos) {
        ASSERT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_KNOB_INFO_DESCRIPTOR, &info),
                  HIPDNN_STATUS_SUCCESS);
    }
    int64_t value = 0;
    EXPECT_EQ(hipdnnBackendGetAttribute(infos[0], HIPDNN_ATTR_KNOB_INFO_STRIDE, HIPDNN_TYPE_INT64, 1, &count,
                                        &value),
              HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED);
    ASSERT_EQ(hipdnnBackendGetAttribute(_engine, HIPDNN_ATTR_ENGINE_KNOB_INFO, HIPDNN_TYPE_BACKEND_DESCRIPTOR,
                                        3, &count, infos),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(charAttribute(infos[0], HIPDNN_ATTR_KNOB_INFO_TYPE), "fake.tile.size");
    for (auto [name, expected] : {std::pair{HIPDNN_ATTR_KNOB_INFO_MINIMUM_VALUE, 1},
                                  {HIPDNN_ATTR_KNOB_INFO_MAXIMUM_VALUE, 64},
                                  {HIPDNN_ATTR_KNOB_INFO_STRIDE, 1},
                                  {HIPDNN_ATTR_KNOB_INFO_DEFAULT_VALUE, 8}}) {
        ASSERT_EQ(hipdnnBackendGetAttribute(infos[0], name, HIPDNN_TYPE_INT64, 1, &count, &value),
                  HIPDNN_STATUS_SUCCESS);
        EXPECT_EQ(value, expected);
    }
    EXPECT_EQ(charAttribute(infos[1], HIPDNN_ATTR_KNOB_INFO_TYPE), "fake.scale");
    EXPECT_EQ(charAttribute(infos[2], HIPDNN_ATTR_KNOB_INFO_TYPE), "fake.variant");
    double real = 0;
    ASSERT_EQ(hipdnnBackendGetAttribute(infos[1], HIPDNN_ATTR_KNOB_INFO_MAXIMUM_VALUE, HIPDNN_TYPE_DOUBLE, 1,
                                        &count, &real),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(real, 10.0);
    EXPECT_EQ(hipdnnBackendGetAttribute(infos[1], HIPDNN_ATTR_KNOB_INFO_STRIDE, HIPDNN_TYPE_INT64, 1, &count,
                                        &value),
              HIPDNN_STATUS_BAD_PARAM);
    hipdnnFlatbufferData_ext_t serialized{};
    ASSERT_EQ(hipdnnBackendGetAttribute(infos[0], HIPDNN_ATTR_KNOB_INFO_SERIALIZED_VALUE,
                                        HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT, 1, &count, &serialized),
              HIPDNN_STATUS_SUCCESS);
    flatbuffers::Verifier verifier(static_cast<const uint8_t*>(serialized.ptr), serialized.size);
    ASSERT_TRUE(verifier.VerifyBuffer<fb::Knob>(nullptr));
    const auto* knob = flatbuffers::GetRoot<fb::Knob>(serialized.ptr);
    EXPECT_EQ(knob->knob_id()->str(), "fake.tile.size");
    EXPECT_EQ(knob->constraint_as_IntConstraint()->max_value(), 64);
    for (auto info : infos) {
        hipdnnBackendDestroyDescriptor(info);
    }
}

TEST_F(Knobs, ChoicesReachThePluginThroughDescriptorsAndSerializedSettings) {
    hipdnnBackendDescriptor_t defaults = finalizedConfig(_engine);
    EXPECT_EQ(workspaceOf(defaults), 32);
    const int64_t tiles = 16;
    const double scale = 2.0;
    hipdnnBackendDescriptor_t tileChoice = choice("fake.tile.size", HIPDNN_TYPE_INT64, &tiles);
    hipdnnBackendDescriptor_t config = configWithChoices({tileChoice});

    flatbuffers::FlatBufferBuilder builder;
    builder.Finish(fb::CreateKnobSetting(builder, builder.CreateString("fake.scale"),
                                         fb::KnobValue::FloatValue,
                                         fb::CreateFloatValue(builder, scale).Union()));
    hipdnnFlatbufferData_ext_t setting{builder.GetBufferPointer(), builder.GetSize()};
    ASSERT_EQ(hipdnnBackendSetAttribute(config, HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE,
                                        HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT, 1, &setting),
              HIPDNN_STATUS_SUCCESS)
        << lastError();
    ASSERT_EQ(hipdnnBackendFinalize(config), HIPDNN_STATUS_SUCCESS) << lastError();
    EXPECT_EQ(workspaceOf(config), 64);

    hipdnnBackendDescriptor_t plan = finalizedPlan(config);
    std::vector<float> x = {-1, 1, 2, 3, 4, 5, 6, 7}, y(8, 0);
    std::vector<char> workspace(64);
    hipdnnBackendDescriptor_t pack =
        variantPack({kInputUid, kOutputUid}, {x.data(), y.data()}, workspace.data());
    ASSERT_EQ(hipdnnBackendExecute(_handle, plan, pack), HIPDNN_STATUS_SUCCESS) << lastError();
    EXPECT_EQ(y, (std::vector<float>{0, 2, 4, 6, 8, 10, 12, 14}));
    for (auto descriptor : {pack, plan, config, tileChoice, defaults}) {
        hipdnnBackendDestroyDescriptor(descriptor);
    }
}

TEST_F(Knobs, DuplicateKnobIdsAreBadParam) {
    const int64_t a = 2, b = 3;
    hipdnnBackendDescriptor_t first = choice("fake.tile.size", HIPDNN_TYPE_INT64, &a);
    hipdnnBackendDescriptor_t second = choice("fake.tile.size", HIPDNN_TYPE_INT64, &b);
    hipdnnBackendDescriptor_t config = configWithChoices({first, second});
    EXPECT_EQ(hipdnnBackendFinalize(config), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("Knob 'fake.tile.size' is set more than once"), std::string::npos);
    for (auto descriptor : {config, first, second}) {
        hipdnnBackendDestroyDescriptor(descriptor);
    }
}

TEST_F(Knobs, KnobChoiceRulesAndReadBack) {
    hipdnnBackendDescriptor_t incomplete = nullptr;
    ASSERT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR, &incomplete),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendFinalize(incomplete), HIPDNN_STATUS_BAD_PARAM);
    const float wrong = 1.0f;
    EXPECT_EQ(hipdnnBackendSetAttribute(incomplete, HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, HIPDNN_TYPE_FLOAT, 1,
                                        &wrong),
              HIPDNN_STATUS_BAD_PARAM);
    hipdnnBackendDestroyDescriptor(incomplete);
    const char text[] = "fast";
    hipdnnBackendDescriptor_t textChoice = choice("fake.mode", HIPDNN_TYPE_CHAR, text, 4);
    EXPECT_EQ(charAttribute(textChoice, HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE), "fake.mode");
    EXPECT_EQ(charAttribute(textChoice, HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE), "fast");
    hipdnnBackendDestroyDescriptor(textChoice);
}

// A setting at an odd address was read in place with misaligned loads (found by the knob fuzzer
// under UBSan); it is read from an aligned copy.
TEST_F(Knobs, SerializedSettingAtAnOddAddressIsRead) {
    flatbuffers::FlatBufferBuilder builder;
    builder.Finish(fb::CreateKnobSetting(builder, builder.CreateString("fake.tile.size"),
                                         fb::KnobValue::IntValue, fb::CreateIntValue(builder, 8).Union()));
    std::vector<uint8_t> storage(builder.GetSize() + 1);
    std::memcpy(storage.data() + 1, builder.GetBufferPointer(), builder.GetSize());
    hipdnnBackendDescriptor_t descriptor = nullptr;
    ASSERT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR, &descriptor),
              HIPDNN_STATUS_SUCCESS);
    hipdnnFlatbufferData_ext_t setting{storage.data() + 1, builder.GetSize()};
    ASSERT_EQ(hipdnnBackendSetAttribute(descriptor, HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE,
                                        HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT, 1, &setting),
              HIPDNN_STATUS_SUCCESS)
        << lastError();
    ASSERT_EQ(hipdnnBackendFinalize(descriptor), HIPDNN_STATUS_SUCCESS) << lastError();
    EXPECT_EQ(charAttribute(descriptor, HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE), "fake.tile.size");
    int64_t value = 0;
    int64_t count = 0;
    ASSERT_EQ(hipdnnBackendGetAttribute(descriptor, HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, HIPDNN_TYPE_INT64, 1,
                                        &count, &value),
              HIPDNN_STATUS_SUCCESS)
        << lastError();
    EXPECT_EQ(value, 8);
    hipdnnBackendDestroyDescriptor(descriptor);
}

// A size at or over the FlatBuffers limit aborted the process inside the verifier's constructor
// (found by the backend fuzzer); it is refused before any verification.
TEST_F(Knobs, SerializedSettingOverTheFlatbufferLimitIsBadParam) {
    hipdnnBackendDescriptor_t descriptor = nullptr;
    ASSERT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR, &descriptor),
              HIPDNN_STATUS_SUCCESS);
    std::vector<uint8_t> bytes(16, 0);
    for (const size_t size : {size_t{FLATBUFFERS_MAX_BUFFER_SIZE}, size_t{1} << 40}) {
        hipdnnFlatbufferData_ext_t setting{bytes.data(), size};
        EXPECT_EQ(hipdnnBackendSetAttribute(descriptor, HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE,
                                            HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT, 1, &setting),
                  HIPDNN_STATUS_BAD_PARAM);
        EXPECT_NE(lastError().find("Serialized KnobSetting of " + std::to_string(size) +
                                   " bytes exceeds the FlatBuffers size limit"),
                  std::string::npos)
            << lastError();
    }
    hipdnnBackendDestroyDescriptor(descriptor);
}

}  // namespace
