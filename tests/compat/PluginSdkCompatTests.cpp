// The plugin SDK's upstream surface: struct tags, version header, behaviour notes, prediction
// kind, the override-aware execute export and the user-log callback types.
#include <atomic>
#include <cstring>
#include <string>
#include <type_traits>

#include <gtest/gtest.h>
#include <hipdnn_backend.h>
#include <hipdnn_flatbuffers_sdk/data_objects/engine_details_generated.h>
#include <hipdnn_plugin_sdk/BehaviorNote.h>
#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_plugin_sdk/engine_api_version.h>

namespace {

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;

#define HIPDNN_COMPAT_STRINGIFY_IMPL(...) #__VA_ARGS__
#define HIPDNN_COMPAT_STRINGIFY(...) HIPDNN_COMPAT_STRINGIFY_IMPL(__VA_ARGS__)

TEST(PluginSdkCompat, HandleTypesPointToUpstreamStructTags) {
    static_assert(std::is_same_v<hipdnnEnginePluginHandle_t, struct HipdnnEnginePluginHandle*>);
    static_assert(
        std::is_same_v<hipdnnEnginePluginExecutionContext_t, struct HipdnnEnginePluginExecutionContext*>);
    // Upstream plugins define the tagged structs and hand their addresses out as handles.
    struct HipdnnEnginePluginHandle* named = nullptr;
    const hipdnnEnginePluginHandle_t handle = named;
    EXPECT_EQ(handle, nullptr);
}

// Each C enum of the plugin ABI and the backend API is int-sized and, in C++, takes any int: the
// values a C caller may pass, which the API then checks (hipdnn_data_sdk/CEnum.h).
template <typename... Enums>
constexpr bool allTakeAnyInt() {
    return ((std::is_same_v<std::underlying_type_t<Enums>, int> && sizeof(Enums) == sizeof(int)) && ...);
}

TEST(PluginSdkCompat, CEnumsTakeAnyIntACallerPasses) {
    static_assert(
        allTakeAnyInt<hipdnnPluginStatus_t, hipdnnPluginType_t, hipdnnEnginePredictionKind_t,
                      hipdnnBackendBehaviorNote_t, hipdnnSeverity_t, hipdnnDeviceType_ext_t, hipdnnStatus_t,
                      hipdnnBackendAttributeName_t, hipdnnBackendAttributeType_t, hipdnnBackendHeurMode_t,
                      hipdnnDataType_t, hipdnnBackendDescriptorType_t, hipdnnPluginLoadingMode_ext_t,
                      hipdnnPluginUnloadingMode_ext_t, hipdnnLogCallbackMode_t>());
    // Far outside every enumerator's bit range: a value, rejected by the API's own check.
    const auto level = static_cast<hipdnnSeverity_t>(1 << 20);
    EXPECT_EQ(static_cast<int>(level), 1 << 20);
    EXPECT_EQ(hipdnnBackendSetGlobalLogLevel_ext(level), HIPDNN_STATUS_BAD_PARAM);
}

TEST(PluginSdkCompat, VersionHeaderSpellsTheVersionBothWays) {
    const std::string expected = std::to_string(HIPDNN_ENGINE_API_VERSION_MAJOR) + "." +
                                 std::to_string(HIPDNN_ENGINE_API_VERSION_MINOR) + "." +
                                 std::to_string(HIPDNN_ENGINE_API_VERSION_PATCH);
    EXPECT_EQ(std::string(HIPDNN_ENGINE_API_VERSION), expected);
    EXPECT_EQ(std::string(HIPDNN_ENGINE_API_VERSION_STRING), expected);
    EXPECT_EQ(HIPDNN_ENGINE_API_VERSION_MAJOR, 1);
}

TEST(PluginSdkCompat, NodiscardMacroIsTheCppAttribute) {
    EXPECT_STREQ(HIPDNN_COMPAT_STRINGIFY(HIPDNN_PLUGIN_NODISCARD), "[[nodiscard]]");
}

TEST(PluginSdkCompat, BehaviorNotesHaveTheSchemaValues) {
    EXPECT_EQ(static_cast<int>(HIPDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION),
              static_cast<int>(fbs::BehaviorNote::RUNTIME_COMPILATION));
    EXPECT_EQ(static_cast<int>(HIPDNN_BEHAVIOR_NOTE_REQUIRES_LAYOUT_TRANSFORM),
              static_cast<int>(fbs::BehaviorNote::REQUIRES_LAYOUT_TRANSFORM));
    EXPECT_EQ(static_cast<int>(HIPDNN_BEHAVIOR_NOTE_SUPPORTS_GRAPH_CAPTURE),
              static_cast<int>(fbs::BehaviorNote::SUPPORTS_GRAPH_CAPTURE));
    EXPECT_EQ(static_cast<int>(HIPDNN_BEHAVIOR_NOTE_EXTERNAL_LIBRARY_DEPENDENCY),
              static_cast<int>(fbs::BehaviorNote::EXTERNAL_LIBRARY_DEPENDENCY));
    EXPECT_EQ(static_cast<int>(HIPDNN_BEHAVIOR_NOTE_SUPPORTS_EXECUTION_PLAN_SERIALIZATION),
              static_cast<int>(fbs::BehaviorNote::SUPPORTS_EXECUTION_PLAN_SERIALIZATION));
    EXPECT_EQ(static_cast<int>(HIPDNN_BEHAVIOR_NOTE_TYPE_COUNT), 5);
}

TEST(PluginSdkCompat, PredictionKindHasUpstreamValuesAndWidth) {
    EXPECT_EQ(static_cast<int>(HIPDNN_ENGINE_PREDICTION_ENGINE), 0);
    EXPECT_EQ(static_cast<int>(HIPDNN_ENGINE_PREDICTION_CONFIGURATION), 1);
    EXPECT_EQ(sizeof(hipdnnEnginePredictionKind_t), sizeof(int));
}

TEST(PluginSdkCompat, OverrideExecuteHasUpstreamSignature) {
    using Expected =
        hipdnnPluginStatus_t (*)(hipdnnEnginePluginHandle_t, hipdnnEnginePluginExecutionContext_t, void*,
                                 const hipdnnPluginDeviceBuffer_t*, uint32_t, uint32_t, const int64_t*,
                                 const uint32_t*, const int64_t* const*, const int64_t* const*);
    static_assert(std::is_same_v<decltype(&hipdnnEnginePluginExecuteOpGraphWithOverrides), Expected>);
    SUCCEED();
}

std::atomic<int> userCallbackHits{0};

void countingUserCallback(hipdnnUserLogCallbackHandle_t userHandle, hipdnnSeverity_t, const char* message) {
    if (std::strstr(message, "compat user callback probe") != nullptr) {
        static_cast<std::atomic<int>*>(userHandle)->fetch_add(1);
    }
}

TEST(PluginSdkCompat, UserLogCallbackTypesRegisterWithTheBackend) {
    hipdnnSeverity_t previousLevel = HIPDNN_SEV_OFF;
    ASSERT_EQ(hipdnnBackendGetGlobalLogLevel_ext(&previousLevel), HIPDNN_STATUS_SUCCESS);
    const hipdnnUserLogCallback_t callback = countingUserCallback;
    const hipdnnUserLogCallbackHandle_t userHandle = &userCallbackHits;
    ASSERT_EQ(hipdnnSetUserLogCallback_ext(callback, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_SYNC, userHandle),
              HIPDNN_STATUS_SUCCESS);
    ASSERT_EQ(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_INFO), HIPDNN_STATUS_SUCCESS);
    hipdnnLoggingCallback_ext(HIPDNN_SEV_WARN, "[compat] compat user callback probe");
    EXPECT_EQ(hipdnnSetUserLogCallback_ext(callback, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, userHandle),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendSetGlobalLogLevel_ext(previousLevel), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(userCallbackHits.load(), 1);
}

}  // namespace
