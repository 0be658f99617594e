// Status strings, last error, version, handles, devices, streams, logging controls, and the
// "never crash on a bad pointer" rules.
#include <atomic>
#include <chrono>
#include <cstring>
#include <set>
#include <thread>

#include "BackendTestUtils.hpp"

using namespace hipdnn_backend_tests;

namespace {

class ApiBasics : public ::testing::Test {
protected:
    void SetUp() override { usePluginPaths({pluginDir("good_cpu")}); }
};

TEST_F(ApiBasics, EveryStatusHasItsOwnErrorString) {
    std::set<std::string> seen;
    for (int status = HIPDNN_STATUS_SUCCESS; status <= HIPDNN_STATUS_PLUGIN_ERROR; ++status) {
        const std::string text = hipdnnGetErrorString(static_cast<hipdnnStatus_t>(status));
        EXPECT_FALSE(text.empty());
        EXPECT_TRUE(seen.insert(text).second) << text;
    }
    EXPECT_NE(std::string(hipdnnGetErrorString(HIPDNN_STATUS_BAD_PARAM)).find("HIPDNN_STATUS_BAD_PARAM"),
              std::string::npos);
    EXPECT_NE(std::string(hipdnnGetErrorString(static_cast<hipdnnStatus_t>(999))).find("UNKNOWN"),
              std::string::npos);
}

TEST_F(ApiBasics, VersionStringHasFourComponentsMatchingTheNumber) {
    const std::string version = hipdnnVersionString_ext();
    EXPECT_EQ(std::count(version.begin(), version.end(), '.'), 3) << version;
    unsigned major = 0, minor = 0, patch = 0, tweak = 0;
    ASSERT_EQ(std::sscanf(version.c_str(), "%u.%u.%u.%u", &major, &minor, &patch, &tweak), 4);
    EXPECT_EQ(hipdnnGetVersion(), major * 10000u + minor * 100u + patch);
}

TEST_F(ApiBasics, LastErrorIsCopiedThenClearedAndPeekDoesNotClear) {
    EXPECT_EQ(hipdnnCreate(nullptr), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    char peeked[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnPeekLastErrorString_ext(peeked, sizeof(peeked));
    EXPECT_STREQ(peeked, "handle is null");
    hipdnnPeekLastErrorString_ext(peeked, sizeof(peeked));
    EXPECT_STREQ(peeked, "handle is null");
    EXPECT_EQ(lastError(), "handle is null");
    EXPECT_EQ(lastError(), "");
}

TEST_F(ApiBasics, LastErrorTruncatesToTheBufferAndIsPerThread) {
    EXPECT_EQ(hipdnnCreate(nullptr), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    char small[7];
    hipdnnPeekLastErrorString_ext(small, sizeof(small));
    EXPECT_STREQ(small, "handle");
    std::string otherThread = "unset";
    std::thread([&] { otherThread = lastError(); }).join();
    EXPECT_EQ(otherThread, "");
    hipdnnGetLastErrorString(nullptr, 10);  // tolerated
}

TEST_F(ApiBasics, NullPointersAreRejectedFirst) {
    EXPECT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINE_DESCRIPTOR, nullptr),
              HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    EXPECT_EQ(hipdnnBackendDestroyDescriptor(nullptr), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    EXPECT_EQ(hipdnnBackendFinalize(nullptr), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    EXPECT_EQ(hipdnnDestroy(nullptr), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    EXPECT_EQ(hipdnnBackendExecute(nullptr, nullptr, nullptr), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    EXPECT_EQ(hipdnnBackendCreateAndDeserializeGraph_ext(nullptr, nullptr, 0),
              HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    EXPECT_EQ(hipdnnGetEngineCount_ext(nullptr, nullptr), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    hipdnnBackendDescriptor_t engine = nullptr;
    ASSERT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINE_DESCRIPTOR, &engine),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(
        hipdnnBackendSetAttribute(engine, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, nullptr),
        HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    EXPECT_EQ(hipdnnBackendGetAttribute(engine, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1,
                                        nullptr, nullptr),
              HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    EXPECT_EQ(hipdnnBackendDestroyDescriptor(engine), HIPDNN_STATUS_SUCCESS);
}

TEST_F(ApiBasics, DestroyedOrGarbageDescriptorsAreBadParamNotCrashes) {
    hipdnnBackendDescriptor_t engine = nullptr;
    ASSERT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINE_DESCRIPTOR, &engine),
              HIPDNN_STATUS_SUCCESS);
    ASSERT_EQ(hipdnnBackendDestroyDescriptor(engine), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendDestroyDescriptor(engine), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("not a live hipdnn descriptor"), std::string::npos);
    EXPECT_EQ(hipdnnBackendFinalize(engine), HIPDNN_STATUS_BAD_PARAM);
    int garbage = 0;
    auto fake = reinterpret_cast<hipdnnBackendDescriptor_t>(&garbage);
    const int64_t id = 1;
    EXPECT_EQ(hipdnnBackendSetAttribute(fake, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, &id),
              HIPDNN_STATUS_BAD_PARAM);
}

TEST_F(ApiBasics, DestroyedOrGarbageHandlesAreBadParam) {
    hipdnnHandle_t handle = createCpuHandle();
    ASSERT_EQ(hipdnnDestroy(handle), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnDestroy(handle), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("not a live hipdnn handle"), std::string::npos);
    hipdnnStream_t stream = nullptr;
    EXPECT_EQ(hipdnnGetStream(handle, &stream), HIPDNN_STATUS_BAD_PARAM);
}

TEST_F(ApiBasics, UnsupportedAndInvalidDescriptorTypes) {
    hipdnnBackendDescriptor_t descriptor = nullptr;
    EXPECT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, &descriptor),
              HIPDNN_STATUS_NOT_SUPPORTED);
    EXPECT_NE(lastError().find("HIPDNN_BACKEND_TENSOR_DESCRIPTOR"), std::string::npos);
    EXPECT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_INVALID_DESCRIPTOR, &descriptor),
              HIPDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(hipdnnBackendCreateDescriptor(static_cast<hipdnnBackendDescriptorType_t>(999), &descriptor),
              HIPDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(descriptor, nullptr);
}

TEST_F(ApiBasics, CpuHandleReportsItsDeviceAndKeepsItsStream) {
    hipdnnHandle_t handle = createCpuHandle();
    hipdnnDeviceType_ext_t type = HIPDNN_DEVICE_TYPE_GPU_EXT;
    int ordinal = -1;
    ASSERT_EQ(hipdnnGetDevice_ext(handle, &type, &ordinal), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(type, HIPDNN_DEVICE_TYPE_CPU_EXT);
    EXPECT_EQ(ordinal, 0);
    int token = 0;
    ASSERT_EQ(hipdnnSetStream(handle, &token), HIPDNN_STATUS_SUCCESS);
    hipdnnStream_t stream = nullptr;
    ASSERT_EQ(hipdnnGetStream(handle, &stream), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(stream, &token);
    EXPECT_EQ(hipdnnDestroy(handle), HIPDNN_STATUS_SUCCESS);
}

TEST_F(ApiBasics, GpuOrdinalsThatDoNotExistAreBadParam) {
    hipdnnHandle_t handle = nullptr;
    EXPECT_EQ(hipdnnCreateForDevice_ext(&handle, HIPDNN_DEVICE_TYPE_GPU_EXT, -1), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(hipdnnCreateForDevice_ext(&handle, HIPDNN_DEVICE_TYPE_GPU_EXT, 100000),
              HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("CUDA device 100000 requested"), std::string::npos);
    EXPECT_EQ(hipdnnCreateForDevice_ext(&handle, static_cast<hipdnnDeviceType_ext_t>(7), 0),
              HIPDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(handle, nullptr);
}

TEST_F(ApiBasics, GlobalLogLevelRoundTripsAndRejectsInvalidValues) {
    ASSERT_EQ(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_WARN), HIPDNN_STATUS_SUCCESS);
    hipdnnSeverity_t level = HIPDNN_SEV_OFF;
    ASSERT_EQ(hipdnnBackendGetGlobalLogLevel_ext(&level), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(level, HIPDNN_SEV_WARN);
    EXPECT_EQ(hipdnnBackendSetGlobalLogLevel_ext(static_cast<hipdnnSeverity_t>(17)), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(hipdnnBackendGetGlobalLogLevel_ext(nullptr), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_OFF);
}

TEST_F(ApiBasics, EveryCallAndEveryFailureIsLogged) {
    LogCapture log;
    EXPECT_EQ(hipdnnCreate(nullptr), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    EXPECT_TRUE(log.contains("API called: [hipdnnCreate]")) << log.all();
    EXPECT_TRUE(
        log.contains("API failure: [hipdnnCreate] HIPDNN_STATUS_BAD_PARAM_NULL_POINTER: handle is null"))
        << log.all();
}

TEST_F(ApiBasics, UserCallbacksFilterByLevelAndAreRemovedWithOff) {
    ASSERT_EQ(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_INFO), HIPDNN_STATUS_SUCCESS);
    static std::atomic<int> errors{0};
    auto callback = [](void*, hipdnnSeverity_t severity, const char*) {
        EXPECT_GE(severity, HIPDNN_SEV_ERROR);
        ++errors;
    };
    ASSERT_EQ(hipdnnSetUserLogCallback_ext(callback, HIPDNN_SEV_ERROR, HIPDNN_LOG_CALLBACK_SYNC, nullptr),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnCreate(nullptr), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    EXPECT_EQ(errors.load(), 1);
    ASSERT_EQ(hipdnnSetUserLogCallback_ext(callback, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, nullptr),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnCreate(nullptr), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    EXPECT_EQ(errors.load(), 1);
    EXPECT_EQ(hipdnnSetUserLogCallback_ext(nullptr, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_SYNC, nullptr),
              HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    EXPECT_EQ(hipdnnSetUserLogCallback_ext(callback, HIPDNN_SEV_INFO, static_cast<hipdnnLogCallbackMode_t>(5),
                                           nullptr),
              HIPDNN_STATUS_BAD_PARAM);
}

TEST_F(ApiBasics, AsyncCallbacksDeliverOnAnotherThread) {
    ASSERT_EQ(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_INFO), HIPDNN_STATUS_SUCCESS);
    struct Received {
        std::atomic<bool> got{false};
        std::atomic<bool> otherThread{false};
        std::thread::id caller;
    } received;
    received.caller = std::this_thread::get_id();
    auto callback = [](void* user, hipdnnSeverity_t, const char* message) {
        auto* state = static_cast<Received*>(user);
        if (std::strstr(message, "async marker") != nullptr) {
            state->otherThread = std::this_thread::get_id() != state->caller;
            state->got = true;
        }
    };
    ASSERT_EQ(hipdnnSetUserLogCallback_ext(callback, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_ASYNC, &received),
              HIPDNN_STATUS_SUCCESS);
    hipdnnLoggingCallback_ext(HIPDNN_SEV_WARN, "[test] async marker");
    for (int attempt = 0; attempt < 500 && !received.got; ++attempt) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    EXPECT_TRUE(received.got.load());
    EXPECT_TRUE(received.otherThread.load());
    hipdnnSetUserLogCallback_ext(callback, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_ASYNC, &received);
}

TEST_F(ApiBasics, PluginLogLinesReachUserCallbacks) {
    LogCapture log;
    hipdnnLoggingCallback_ext(HIPDNN_SEV_WARN, "[some_plugin] hello from a plugin");
    EXPECT_TRUE(log.contains("[some_plugin] hello from a plugin"));
    hipdnnHandle_t handle = createCpuHandle();
    EXPECT_TRUE(log.contains("[fake_good_cpu] created a handle")) << log.all();
    hipdnnDestroy(handle);
}

}  // namespace
