#include <hipdnn_plugin_sdk/KnobValidation.hpp>

#include <hipdnn_flatbuffers_sdk/Builders.hpp>
#include <hipdnn_flatbuffers_sdk/EngineConfigWrapper.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

namespace {

using namespace hipdnn_flatbuffers_sdk;
using hipdnn_plugin_sdk::PluginError;
using hipdnn_plugin_sdk::validateKnobSettings;
using hipdnn_plugin_sdk::validateKnobValue;

hipdnnPluginStatus_t statusOf(const std::vector<KnobSetting>& settings,
                              const std::vector<KnobDescription>& knobs, std::string* message = nullptr) {
    const std::vector<uint8_t> buffer = makeEngineConfig(1, settings);
    const EngineConfigWrapper config(buffer.data(), buffer.size());
    try {
        validateKnobSettings(config, knobs);
    } catch (const PluginError& error) {
        if (message != nullptr) {
            *message = error.what();
        }
        return error.status();
    }
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

const std::vector<KnobDescription> kKnobs = {
    {"p.c.full_range", "", int64_t{0}, IntKnobConstraint{}, false},
    {"p.c.stepped", "", int64_t{-3}, IntKnobConstraint{.min = -3, .max = 9, .step = 4, .validValues = {}},
     false},
    {"p.c.ratio", "", 0.5, FloatKnobConstraint{.min = 0.0, .max = 1.0, .validValues = {}}, false},
    {"p.c.choice", "", std::string("a"), StringKnobConstraint{.maxLength = 0, .validValues = {"a", "b"}},
     false},
    {"p.c.free", "", std::string(), std::monostate{}, false},
};

TEST(KnobValidationTest, AcceptsValuesWithinConstraints) {
    EXPECT_EQ(statusOf({{"p.c.full_range", std::numeric_limits<int64_t>::min()},
                        {"p.c.stepped", int64_t{5}},
                        {"p.c.ratio", 1.0},
                        {"p.c.choice", std::string("b")},
                        {"p.c.free", std::string(100, 'z')}},
                       kKnobs),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(statusOf({{"p.c.full_range", std::numeric_limits<int64_t>::max()}}, kKnobs),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
}

TEST(KnobValidationTest, RejectsWithMessagesNamingKnobAndValue) {
    std::string message;
    EXPECT_EQ(statusOf({{"p.c.stepped", int64_t{3}}}, kKnobs, &message), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_EQ(message, "knob 'p.c.stepped' value 3 is not min -3 plus a multiple of step 4");
    EXPECT_EQ(statusOf({{"p.c.ratio", std::nan("")}}, kKnobs, &message), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_EQ(message, "knob 'p.c.ratio' value nan is outside [0, 1]");
    EXPECT_EQ(statusOf({{"p.c.choice", std::string("c")}}, kKnobs, &message), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_EQ(message, "knob 'p.c.choice' value \"c\" is not one of the knob's valid values");
    EXPECT_EQ(statusOf({{"p.c.choice", int64_t{1}}}, kKnobs, &message), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_EQ(message, "knob 'p.c.choice' value 1 has type int but the knob's type is string");
    EXPECT_EQ(statusOf({{"other.knob", 2.5}}, kKnobs, &message), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_EQ(message,
              "knob 'other.knob' value 2.5 is set for an unknown knob (the engine does not describe it)");
}

TEST(KnobValidationTest, GlobalKnobsAreAcceptedByEveryEngine) {
    EXPECT_EQ(
        statusOf({{"global.benchmarking", int64_t{0}}, {"global.workspace_size_limit", int64_t{-1}}}, {}),
        HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(statusOf({{"global.not_yet_defined", std::string("x")}}, {}), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(statusOf({{"global.benchmarking", 1.0}}, {}), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_EQ(statusOf({{"global.workspace_size_limit", int64_t{-5}}}, {}), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
}

bool benchmarkingFor(const std::vector<KnobSetting>& settings, const char* forceBenchmarking) {
    if (forceBenchmarking != nullptr) {
        setenv(hipdnn_plugin_sdk::kForceBenchmarkingVariable, forceBenchmarking, 1);
    } else {
        unsetenv(hipdnn_plugin_sdk::kForceBenchmarkingVariable);
    }
    const std::vector<uint8_t> buffer = makeEngineConfig(1, settings);
    const bool requested =
        hipdnn_plugin_sdk::benchmarkingRequested(EngineConfigWrapper(buffer.data(), buffer.size()));
    unsetenv(hipdnn_plugin_sdk::kForceBenchmarkingVariable);
    return requested;
}

TEST(KnobValidationTest, ForceBenchmarkingOverridesTheKnob) {
    const std::vector<KnobSetting> on = {{"global.benchmarking", int64_t{1}}};
    const std::vector<KnobSetting> off = {{"global.benchmarking", int64_t{0}}};
    EXPECT_FALSE(benchmarkingFor({}, nullptr));
    EXPECT_TRUE(benchmarkingFor(on, nullptr));
    EXPECT_FALSE(benchmarkingFor(off, nullptr));
    for (const char* truthy : {"1", "true", "YES", "On"}) {
        EXPECT_TRUE(benchmarkingFor(off, truthy)) << truthy;
    }
    for (const char* falsy : {"0", "False", "no", "OFF"}) {
        EXPECT_FALSE(benchmarkingFor(on, falsy)) << falsy;
    }
    // Neither truthy nor falsy: the knob decides.
    EXPECT_TRUE(benchmarkingFor(on, "maybe"));
    EXPECT_FALSE(benchmarkingFor(off, ""));
}

TEST(KnobValidationTest, EnginesMayNotDescribeGlobalKnobs) {
    std::string message;
    EXPECT_EQ(statusOf({}, {{"global.mine", "", int64_t{0}, std::monostate{}, false}}, &message),
              HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR);
    EXPECT_EQ(message, "engine describes knob 'global.mine' in the reserved global. namespace");
}

TEST(KnobValidationTest, GlobalKnobDescriptionsSerialize) {
    const std::vector<uint8_t> details =
        makeEngineDetails(7, "E", hipdnn_plugin_sdk::globalKnobDescriptions(), {});
    flatbuffers::Verifier verifier(details.data(), details.size());
    ASSERT_TRUE(data_objects::VerifyEngineDetailsBuffer(verifier));
    const auto* knobs = data_objects::GetEngineDetails(details.data())->knobs();
    ASSERT_EQ(knobs->size(), 2U);
    EXPECT_EQ(knobs->Get(0)->knob_id()->str(), "global.benchmarking");
    EXPECT_EQ(knobs->Get(1)->knob_id()->str(), "global.workspace_size_limit");
}

TEST(KnobValidationTest, ValidateKnobValueChecksOneValue) {
    EXPECT_NO_THROW(validateKnobValue(kKnobs[2], 0.25));
    EXPECT_THROW(validateKnobValue(kKnobs[2], 1.5), PluginError);
}

}  // namespace
