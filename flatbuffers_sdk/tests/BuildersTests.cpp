#include "hipdnn_flatbuffers_sdk/Builders.hpp"

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

const fb::EngineDetails& verifiedDetails(const std::vector<uint8_t>& bytes) {
    flatbuffers::Verifier verifier(bytes.data(), bytes.size());
    EXPECT_TRUE(fb::VerifyEngineDetailsBuffer(verifier));
    return *fb::GetEngineDetails(bytes.data());
}

TEST(MakeEngineDetails, SerializesKnobsWithConstraintsAndNotes) {
    auto algo = KnobDescription::stringKnob("plugin.algo", "algorithm", "auto",
                                            StringKnobConstraint::oneOf({"auto", "direct"}));
    algo.deprecated = true;
    const std::vector<KnobDescription> knobs{
        KnobDescription::intKnob("plugin.tile", "tile size", 64, IntKnobConstraint::range(16, 256, 16)),
        KnobDescription::floatKnob("plugin.ratio", "split ratio", 0.5, FloatKnobConstraint::range(0.0, 1.0)),
        algo,
        KnobDescription::intKnob("plugin.free", "", 0),
    };
    const auto bytes = makeEngineDetails(
        99, "MY_ENGINE", knobs, {fb::BehaviorNote::DETERMINISTIC, fb::BehaviorNote::RUNTIME_COMPILATION});
    const auto& details = verifiedDetails(bytes);
    EXPECT_EQ(details.engine_id(), 99);
    EXPECT_EQ(details.name()->str(), "MY_ENGINE");
    ASSERT_EQ(details.behavior_notes()->size(), 2u);
    EXPECT_EQ(details.behavior_notes()->Get(0), fb::BehaviorNote::DETERMINISTIC);
    ASSERT_EQ(details.knobs()->size(), 4u);

    const auto* tile = details.knobs()->Get(0);
    EXPECT_EQ(tile->knob_id()->str(), "plugin.tile");
    EXPECT_EQ(tile->description()->str(), "tile size");
    EXPECT_EQ(tile->value_type(), fb::KnobValueType::INT64);
    EXPECT_EQ(tile->default_value_as_IntValue()->value(), 64);
    ASSERT_NE(tile->constraint_as_IntConstraint(), nullptr);
    EXPECT_EQ(tile->constraint_as_IntConstraint()->min_value(), 16);
    EXPECT_EQ(tile->constraint_as_IntConstraint()->max_value(), 256);
    EXPECT_EQ(tile->constraint_as_IntConstraint()->step(), 16);
    EXPECT_FALSE(tile->deprecated());

    const auto* ratio = details.knobs()->Get(1);
    EXPECT_EQ(ratio->value_type(), fb::KnobValueType::FLOAT64);
    EXPECT_EQ(ratio->default_value_as_FloatValue()->value(), 0.5);
    EXPECT_EQ(ratio->constraint_as_FloatConstraint()->max_value(), 1.0);

    const auto* algoKnob = details.knobs()->Get(2);
    EXPECT_EQ(algoKnob->value_type(), fb::KnobValueType::STRING);
    EXPECT_EQ(algoKnob->default_value_as_StringValue()->value()->str(), "auto");
    EXPECT_TRUE(algoKnob->deprecated());
    const auto* valid = algoKnob->constraint_as_StringConstraint()->valid_values();
    ASSERT_EQ(valid->size(), 2u);
    EXPECT_EQ(valid->Get(1)->str(), "direct");

    EXPECT_EQ(details.knobs()->Get(3)->constraint_type(), fb::KnobConstraint::NONE);
}

TEST(MakeEngineDetails, RejectsMismatchedConstraintAndDuplicateIds) {
    KnobDescription mismatched = KnobDescription::intKnob("plugin.tile", "", 1);
    mismatched.constraint = FloatKnobConstraint{};
    EXPECT_THAT([&] { makeEngineDetails(1, "E", {mismatched}, {}); },
                ThrowsMessage<std::invalid_argument>(
                    HasSubstr("knob 'plugin.tile' has a constraint of another type")));
    const auto knob = KnobDescription::intKnob("plugin.tile", "", 1);
    EXPECT_THAT(
        [&] {
            makeEngineDetails(1, "E", {knob, knob}, {});
        },
        ThrowsMessage<std::invalid_argument>(HasSubstr("duplicate knob id 'plugin.tile'")));
}

TEST(KnobDescription, ValueTypeFollowsTheDefault) {
    EXPECT_EQ(KnobDescription::intKnob("a", "", 1).valueType(), fb::KnobValueType::INT64);
    EXPECT_EQ(KnobDescription::floatKnob("a", "", 1.0).valueType(), fb::KnobValueType::FLOAT64);
    EXPECT_EQ(KnobDescription::stringKnob("a", "", "x").valueType(), fb::KnobValueType::STRING);
}

TEST(KnobSetting, SerializesEachValueType) {
    flatbuffers::FlatBufferBuilder b;
    b.Finish(KnobSetting{"plugin.algo", std::string("direct")}.serialize(b));
    flatbuffers::Verifier verifier(b.GetBufferPointer(), b.GetSize());
    ASSERT_TRUE(verifier.VerifyBuffer<fb::KnobSetting>(nullptr));
    const auto* setting = flatbuffers::GetRoot<fb::KnobSetting>(b.GetBufferPointer());
    EXPECT_EQ(setting->knob_id()->str(), "plugin.algo");
    EXPECT_EQ(setting->value_as_StringValue()->value()->str(), "direct");
}

}  // namespace
}  // namespace hipdnn_flatbuffers_sdk
