#include "hipdnn_flatbuffers_sdk/Builders.hpp"
#include "hipdnn_flatbuffers_sdk/EngineConfigWrapper.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace hipdnn_flatbuffers_sdk {
namespace {

namespace fb = data_objects;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

std::vector<uint8_t> sampleConfig() {
    return makeEngineConfig(
        0x1234,
        {{"plugin.tile", int64_t{128}}, {"plugin.ratio", 0.25}, {"plugin.algo", std::string("winograd")}});
}

// Serializes settings as given, bypassing makeEngineConfig's checks.
std::vector<uint8_t> rawConfig(const std::vector<std::pair<std::string, fb::KnobValue>>& settings) {
    flatbuffers::FlatBufferBuilder b;
    std::vector<flatbuffers::Offset<fb::KnobSetting>> offsets;
    for (const auto& [id, type] : settings) {
        const auto value =
            type == fb::KnobValue::NONE ? flatbuffers::Offset<void>(0) : fb::CreateIntValue(b, 1).Union();
        offsets.push_back(fb::CreateKnobSettingDirect(b, id.c_str(), type, value));
    }
    b.Finish(fb::CreateEngineConfigDirect(b, 5, &offsets));
    return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

TEST(EngineConfigWrapper, LooksUpKnobsByTypeAndId) {
    const auto bytes = sampleConfig();
    const EngineConfigWrapper config(bytes.data(), bytes.size());
    const IEngineConfig& engineConfig = config;
    EXPECT_EQ(engineConfig.engineId(), 0x1234);
    EXPECT_EQ(engineConfig.knobCount(), 3u);
    EXPECT_THAT(engineConfig.knobIds(), ElementsAre("plugin.algo", "plugin.ratio", "plugin.tile"));
    EXPECT_TRUE(engineConfig.hasKnob("plugin.tile"));
    EXPECT_EQ(engineConfig.intKnob("plugin.tile"), 128);
    EXPECT_EQ(engineConfig.floatKnob("plugin.ratio"), 0.25);
    EXPECT_EQ(engineConfig.stringKnob("plugin.algo"), "winograd");
    EXPECT_FALSE(engineConfig.hasKnob("plugin.missing"));
    EXPECT_EQ(engineConfig.intKnob("plugin.missing"), std::nullopt);
    EXPECT_EQ(engineConfig.floatKnob("plugin.missing"), std::nullopt);
    EXPECT_EQ(engineConfig.stringKnob("plugin.missing"), std::nullopt);
}

TEST(EngineConfigWrapper, WrongValueTypeThrowsNamingTheKnob) {
    const auto bytes = sampleConfig();
    const EngineConfigWrapper config(bytes.data(), bytes.size());
    EXPECT_THAT(
        [&] { config.floatKnob("plugin.tile"); },
        ThrowsMessage<EngineConfigError>(HasSubstr("knob 'plugin.tile' holds a IntValue, not a FloatValue")));
    EXPECT_THAT([&] { config.intKnob("plugin.algo"); },
                ThrowsMessage<EngineConfigError>(HasSubstr("knob 'plugin.algo' holds a StringValue")));
}

TEST(EngineConfigWrapper, EmptyConfigHasNoKnobs) {
    const auto bytes = makeEngineConfig(-7, {});
    const EngineConfigWrapper config(bytes.data(), bytes.size());
    EXPECT_EQ(config.engineId(), -7);
    EXPECT_EQ(config.knobCount(), 0u);
}

TEST(EngineConfigWrapper, RejectsDuplicateKnobIds) {
    const auto bytes =
        rawConfig({{"plugin.tile", fb::KnobValue::IntValue}, {"plugin.tile", fb::KnobValue::IntValue}});
    EXPECT_THAT([&] { EngineConfigWrapper(bytes.data(), bytes.size()); },
                ThrowsMessage<EngineConfigError>(HasSubstr("duplicate knob id 'plugin.tile'")));
}

TEST(EngineConfigWrapper, RejectsKnobsWithoutIdValueOrKnownType) {
    const auto noValue = rawConfig({{"plugin.tile", fb::KnobValue::NONE}});
    EXPECT_THAT([&] { EngineConfigWrapper(noValue.data(), noValue.size()); },
                ThrowsMessage<EngineConfigError>(HasSubstr("knob 'plugin.tile' has no value")));
    const auto noId = rawConfig({{"", fb::KnobValue::IntValue}});
    EXPECT_THAT([&] { EngineConfigWrapper(noId.data(), noId.size()); },
                ThrowsMessage<EngineConfigError>(HasSubstr("without an id")));
    const auto unknownType = rawConfig({{"plugin.tile", static_cast<fb::KnobValue>(9)}});
    EXPECT_THAT([&] { EngineConfigWrapper(unknownType.data(), unknownType.size()); },
                ThrowsMessage<EngineConfigError>(HasSubstr("knob 'plugin.tile' has unknown value type 9")));
}

TEST(EngineConfigWrapper, RejectsMalformedBuffers) {
    EXPECT_THROW(EngineConfigWrapper(nullptr, 8), EngineConfigError);
    const auto bytes = sampleConfig();
    for (size_t length = 0; length < bytes.size(); ++length) {
        EXPECT_THROW(EngineConfigWrapper(bytes.data(), length), EngineConfigError) << "length " << length;
    }
}

TEST(EngineConfigWrapper, CopiesOwnTheirBuffer) {
    auto bytes = sampleConfig();
    std::optional<EngineConfigWrapper> original(EngineConfigWrapper(bytes.data(), bytes.size()));
    bytes.assign(bytes.size(), 0);
    const EngineConfigWrapper copy(*original);
    original.reset();
    EXPECT_EQ(copy.stringKnob("plugin.algo"), "winograd");
}

TEST(MakeEngineConfig, RejectsDuplicateAndEmptyIds) {
    EXPECT_THAT(
        [] {
            makeEngineConfig(1, {{"a.b", int64_t{1}}, {"a.b", 2.0}});
        },
        ThrowsMessage<std::invalid_argument>(HasSubstr("duplicate knob id 'a.b'")));
    EXPECT_THROW(makeEngineConfig(1, {{"", int64_t{1}}}), std::invalid_argument);
}

}  // namespace
}  // namespace hipdnn_flatbuffers_sdk
