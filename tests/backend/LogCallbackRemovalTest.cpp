// Removing or replacing a user log callback: once hipdnnSetUserLogCallback_ext returns, the old
// registration is never called again (its queued asynchronous messages are dropped and a delivery
// in progress has finished), so the caller may free the callback's user data. A callback may
// remove itself from inside a delivery without deadlocking.
#include <atomic>
#include <chrono>
#include <cstring>
#include <future>
#include <thread>

#include "BackendTestUtils.hpp"

using namespace hipdnn_backend_tests;

namespace {

// User data the test frees right after removing the callback; the callback records any call
// made after that point instead of touching freed memory.
struct SlowReceiver {
    std::atomic<int> delivered{0};
    std::atomic<int> running{0};
};
std::atomic<int> g_callsAfterRemoval{0};
std::atomic<bool> g_removed{false};

void slowCallback(void* user, hipdnnSeverity_t, const char*) {
    if (g_removed) {
        ++g_callsAfterRemoval;
        return;
    }
    auto* receiver = static_cast<SlowReceiver*>(user);
    ++receiver->running;
    std::this_thread::sleep_for(std::chrono::microseconds(500));
    ++receiver->delivered;
    --receiver->running;
}

class LogCallbackRemoval : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_INFO), HIPDNN_STATUS_SUCCESS);
        g_removed = false;
        g_callsAfterRemoval = 0;
    }
    void TearDown() override { hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_OFF); }

    // Logs `count` messages, waits until a delivery is under way, then runs `change`; checks that
    // the removed registration is idle when `change` returns and never runs afterwards.
    void expectNoCallAfter(const std::function<void(SlowReceiver*)>& change) {
        auto* receiver = new SlowReceiver;
        ASSERT_EQ(
            hipdnnSetUserLogCallback_ext(slowCallback, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_ASYNC, receiver),
            HIPDNN_STATUS_SUCCESS);
        for (int index = 0; index < 200; ++index) {
            hipdnnLoggingCallback_ext(HIPDNN_SEV_WARN, "[test] queued message");
        }
        for (int attempt = 0; attempt < 2000 && receiver->delivered == 0 && receiver->running == 0;
             ++attempt) {
            std::this_thread::sleep_for(std::chrono::microseconds(100));
        }
        change(receiver);
        EXPECT_EQ(receiver->running.load(), 0) << "a delivery was still running when the call returned";
        EXPECT_LT(receiver->delivered.load(), 200)
            << "nothing was queued at removal; the test proves nothing";
        g_removed = true;
        delete receiver;
        // Give the delivery thread time to misbehave, then flush it with a message of its own.
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        EXPECT_EQ(g_callsAfterRemoval.load(), 0);
    }
};

TEST_F(LogCallbackRemoval, RemovedAsyncCallbackIsNeverCalledAgain) {
    expectNoCallAfter([](SlowReceiver* receiver) {
        ASSERT_EQ(
            hipdnnSetUserLogCallback_ext(slowCallback, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_ASYNC, receiver),
            HIPDNN_STATUS_SUCCESS);
    });
}

TEST_F(LogCallbackRemoval, ReplacedAsyncCallbackDropsItsQueuedMessages) {
    // Same callback and user handle: the registration is replaced (here by a SYNC one at ERROR,
    // so the WARN lines below do not reach it), and the old queued messages are dropped.
    expectNoCallAfter([](SlowReceiver* receiver) {
        ASSERT_EQ(
            hipdnnSetUserLogCallback_ext(slowCallback, HIPDNN_SEV_ERROR, HIPDNN_LOG_CALLBACK_SYNC, receiver),
            HIPDNN_STATUS_SUCCESS);
        const int delivered = receiver->delivered;
        hipdnnLoggingCallback_ext(HIPDNN_SEV_WARN, "[test] below the new level");
        EXPECT_EQ(receiver->delivered.load(), delivered);
        ASSERT_EQ(
            hipdnnSetUserLogCallback_ext(slowCallback, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, receiver),
            HIPDNN_STATUS_SUCCESS);
    });
}

TEST_F(LogCallbackRemoval, RemovedSyncCallbackRunningOnAnotherThreadHasFinished) {
    auto* receiver = new SlowReceiver;
    ASSERT_EQ(hipdnnSetUserLogCallback_ext(slowCallback, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_SYNC, receiver),
              HIPDNN_STATUS_SUCCESS);
    std::atomic<bool> stop{false};
    std::thread logger([&] {
        while (!stop) {
            hipdnnLoggingCallback_ext(HIPDNN_SEV_WARN, "[test] from another thread");
        }
    });
    for (int attempt = 0; attempt < 2000 && receiver->running == 0; ++attempt) {
        std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    ASSERT_EQ(hipdnnSetUserLogCallback_ext(slowCallback, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, receiver),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(receiver->running.load(), 0);
    g_removed = true;
    delete receiver;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    stop = true;
    logger.join();
    EXPECT_EQ(g_callsAfterRemoval.load(), 0);
}

struct SelfRemoving {
    std::atomic<int> calls{0};
    std::promise<hipdnnStatus_t> removed;
};

void removeSelf(void* user, hipdnnSeverity_t, const char*) {
    auto* self = static_cast<SelfRemoving*>(user);
    if (self->calls++ == 0) {
        self->removed.set_value(
            hipdnnSetUserLogCallback_ext(removeSelf, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_ASYNC, user));
    }
}

TEST_F(LogCallbackRemoval, ACallbackMayRemoveItselfFromInsideADelivery) {
    SelfRemoving self;
    std::future<hipdnnStatus_t> removed = self.removed.get_future();
    ASSERT_EQ(hipdnnSetUserLogCallback_ext(removeSelf, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_ASYNC, &self),
              HIPDNN_STATUS_SUCCESS);
    for (int index = 0; index < 20; ++index) {
        hipdnnLoggingCallback_ext(HIPDNN_SEV_WARN, "[test] first message removes the callback");
    }
    ASSERT_EQ(removed.wait_for(std::chrono::seconds(10)), std::future_status::ready) << "deadlocked";
    EXPECT_EQ(removed.get(), HIPDNN_STATUS_SUCCESS);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(self.calls.load(), 1);
}

}  // namespace
