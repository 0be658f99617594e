// NCCL communicators on handles: hipdnnSetCommunicator_ext and hipdnnCreateCommunicators_ext, their
// argument checks on any host and, where a CUDA device is usable, the communicator reaching the
// fake GPU plugin (which logs "communicator set to <pointer>").
#include <cstdio>
#include <string>

#include "BackendTestUtils.hpp"

using namespace hipdnn_backend_tests;

namespace {

// What the fake plugin logs for `communicator` (printf's %p, "(nil)" for null).
std::string communicatorLogLine(const void* communicator) {
    char pointer[32];
    std::snprintf(pointer, sizeof(pointer), "%p", communicator);
    return std::string("[fake_good_gpu] communicator set to ") + pointer;
}

class Communicators : public ::testing::Test {
protected:
    void SetUp() override { usePluginPaths({pluginDir("good_cpu"), pluginDir("good_gpu")}); }
};

TEST_F(Communicators, SetCommunicatorRefusesNullDestroyedAndCpuHandles) {
    int communicator = 0;
    EXPECT_EQ(hipdnnSetCommunicator_ext(nullptr, &communicator), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    EXPECT_EQ(lastError(), "handle is null");

    hipdnnHandle_t destroyed = createCpuHandle();
    ASSERT_EQ(hipdnnDestroy(destroyed), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnSetCommunicator_ext(destroyed, &communicator), HIPDNN_STATUS_BAD_PARAM);
    const std::string notLive = lastError();
    EXPECT_NE(notLive.find("is not a live hipdnn handle"), std::string::npos) << notLive;

    hipdnnHandle_t cpu = createCpuHandle();
    EXPECT_EQ(hipdnnSetCommunicator_ext(cpu, &communicator), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(lastError(),
              "The handle is bound to device cpu; an NCCL communicator attaches only to a GPU handle");
    EXPECT_EQ(hipdnnSetCommunicator_ext(cpu, nullptr), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(hipdnnDestroy(cpu), HIPDNN_STATUS_SUCCESS);
}

// Every one of these is refused before NCCL is loaded, so the answers are the same with or
// without libnccl.so.2.
TEST_F(Communicators, CreateCommunicatorsRefusesBadArguments) {
    hipdnnHandle_t cpu = createCpuHandle();
    EXPECT_EQ(hipdnnCreateCommunicators_ext(0, &cpu), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(lastError(), "count is 0; give at least one handle");
    EXPECT_EQ(hipdnnCreateCommunicators_ext(1, nullptr), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    EXPECT_EQ(lastError(), "handles is null");

    const hipdnnHandle_t withNull[] = {nullptr};
    EXPECT_EQ(hipdnnCreateCommunicators_ext(1, withNull), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    EXPECT_EQ(lastError(), "handles[0] is null");

    const hipdnnHandle_t withCpu[] = {cpu};
    EXPECT_EQ(hipdnnCreateCommunicators_ext(1, withCpu), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(lastError(),
              "handles[0] is bound to device cpu; an NCCL communicator attaches only to a GPU handle");

    hipdnnHandle_t destroyed = createCpuHandle();
    ASSERT_EQ(hipdnnDestroy(destroyed), HIPDNN_STATUS_SUCCESS);
    const hipdnnHandle_t withDestroyed[] = {destroyed};
    EXPECT_EQ(hipdnnCreateCommunicators_ext(1, withDestroyed), HIPDNN_STATUS_BAD_PARAM);
    const std::string notLive = lastError();
    EXPECT_TRUE(notLive.starts_with("handles[0]: Handle ")) << notLive;
    EXPECT_NE(notLive.find("is not a live hipdnn handle"), std::string::npos) << notLive;
    EXPECT_EQ(hipdnnDestroy(cpu), HIPDNN_STATUS_SUCCESS);
}

// A handle on GPU 0 serving the fake GPU plugin; the test is skipped, as SKIP_IF_NO_DEVICE() does,
// where the backend finds no usable CUDA device.
class GpuCommunicators : public Communicators {
protected:
    void SetUp() override {
        Communicators::SetUp();
        if (hipdnnCreateForDevice_ext(&gpu, HIPDNN_DEVICE_TYPE_GPU_EXT, 0) != HIPDNN_STATUS_SUCCESS) {
            const std::string error = lastError();
            ASSERT_NE(error.find("0 usable CUDA device(s) found"), std::string::npos) << error;
            GTEST_SKIP() << "No CUDA device was found; skipping this test";
        }
    }
    void TearDown() override {
        if (gpu != nullptr) {
            EXPECT_EQ(hipdnnDestroy(gpu), HIPDNN_STATUS_SUCCESS);
        }
    }

    hipdnnHandle_t gpu = nullptr;
};

TEST_F(GpuCommunicators, SetCommunicatorReachesTheGpuPlugin) {
    LogCapture log;
    int communicator = 0;
    ASSERT_EQ(hipdnnSetCommunicator_ext(gpu, &communicator), HIPDNN_STATUS_SUCCESS) << lastError();
    EXPECT_TRUE(log.contains(communicatorLogLine(&communicator))) << log.all();
    ASSERT_EQ(hipdnnSetCommunicator_ext(gpu, nullptr), HIPDNN_STATUS_SUCCESS) << lastError();
    EXPECT_TRUE(log.contains(communicatorLogLine(nullptr))) << log.all();
}

TEST_F(GpuCommunicators, CreateCommunicatorsRefusesTwoHandlesOnOneGpuAndCpuHandles) {
    hipdnnHandle_t secondOnGpu0 = nullptr;
    ASSERT_EQ(hipdnnCreateForDevice_ext(&secondOnGpu0, HIPDNN_DEVICE_TYPE_GPU_EXT, 0), HIPDNN_STATUS_SUCCESS)
        << lastError();
    const hipdnnHandle_t sameGpu[] = {gpu, secondOnGpu0};
    EXPECT_EQ(hipdnnCreateCommunicators_ext(2, sameGpu), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(lastError(),
              "handles[0] and handles[1] are both bound to GPU 0; NCCL takes one handle per GPU");

    hipdnnHandle_t cpu = createCpuHandle();
    const hipdnnHandle_t withCpu[] = {gpu, cpu};
    EXPECT_EQ(hipdnnCreateCommunicators_ext(2, withCpu), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(lastError(),
              "handles[1] is bound to device cpu; an NCCL communicator attaches only to a GPU handle");
    EXPECT_EQ(hipdnnDestroy(cpu), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnDestroy(secondOnGpu0), HIPDNN_STATUS_SUCCESS);
}

// With NCCL: the handle gets a communicator of its own, which a later detach destroys cleanly.
// Without it: NOT_SUPPORTED naming the library.
TEST_F(GpuCommunicators, CreateCommunicatorsAttachesOneOwnedCommunicatorPerHandle) {
    void* nccl = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    LogCapture log;
    const hipdnnHandle_t handles[] = {gpu};
    if (nccl == nullptr) {
        EXPECT_EQ(hipdnnCreateCommunicators_ext(1, handles), HIPDNN_STATUS_NOT_SUPPORTED);
        const std::string error = lastError();
        EXPECT_TRUE(error.starts_with("NCCL is not available: cannot load libnccl.so.2: ")) << error;
        return;
    }
    dlclose(nccl);
    ASSERT_EQ(hipdnnCreateCommunicators_ext(1, handles), HIPDNN_STATUS_SUCCESS) << lastError();
    EXPECT_TRUE(log.contains("[fake_good_gpu] communicator set to 0x")) << log.all();
    ASSERT_EQ(hipdnnSetCommunicator_ext(gpu, nullptr), HIPDNN_STATUS_SUCCESS) << lastError();
    EXPECT_TRUE(log.contains(communicatorLogLine(nullptr))) << log.all();
    EXPECT_FALSE(log.contains("Cannot destroy NCCL communicator")) << log.all();
}

}  // namespace
