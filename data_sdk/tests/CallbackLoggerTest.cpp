#include <hipdnn_data_sdk/logging/CallbackLogger.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

namespace logging = hipdnn_data_sdk::logging;

std::mutex capturedMutex;
std::vector<std::pair<hipdnnSeverity_t, std::string>> captured;
std::atomic<int> callbackCalls{0};

void captureMessage(hipdnnSeverity_t severity, const char* message) {
    const std::lock_guard lock(capturedMutex);
    captured.emplace_back(severity, message);
}

void countMessage(hipdnnSeverity_t /*severity*/, const char* /*message*/) {
    ++callbackCalls;
}

int evaluations = 0;
int countedValue() {
    return ++evaluations;
}

/// Leaves the process-wide logger silent and the captures empty around each test.
class DataSdkCallbackLogger : public ::testing::Test {
protected:
    void SetUp() override { reset(); }
    void TearDown() override { reset(); }

    static std::vector<std::pair<hipdnnSeverity_t, std::string>> messages() {
        const std::lock_guard lock(capturedMutex);
        return captured;
    }

private:
    static void reset() {
        logging::setLogCallback(nullptr);
        logging::setLogLevel(HIPDNN_SEV_OFF);
        const std::lock_guard lock(capturedMutex);
        captured.clear();
        callbackCalls = 0;
        evaluations = 0;
    }
};

TEST_F(DataSdkCallbackLogger, FormatsComponentAndMessage) {
    logging::setLogCallback(captureMessage);
    logging::setLogLevel(HIPDNN_SEV_WARN);
    EXPECT_EQ(logging::currentLogLevel(), HIPDNN_SEV_WARN);
    logging::log(HIPDNN_SEV_INFO, "engine", "dropped");
    logging::log(HIPDNN_SEV_ERROR, "engine", "boom");
    logging::log(HIPDNN_SEV_WARN, "cpu_reference", "careful");
    const std::vector<std::pair<hipdnnSeverity_t, std::string>> expected = {
        {HIPDNN_SEV_ERROR, "[engine] boom"}, {HIPDNN_SEV_WARN, "[cpu_reference] careful"}};
    EXPECT_EQ(messages(), expected);
}

TEST_F(DataSdkCallbackLogger, MacrosStreamTheMessage) {
    logging::setLogCallback(captureMessage);
    logging::setLogLevel(HIPDNN_SEV_INFO);
    HIPDNN_SDK_LOG_INFO("frontend", "built " << 3 << " nodes");
    HIPDNN_SDK_LOG_WARN("frontend", "x=" << 1.5);
    HIPDNN_SDK_LOG_ERROR("plugin", "id " << std::hex << 255);
    HIPDNN_SDK_LOG_FATAL("plugin", "gone");
    const std::vector<std::pair<hipdnnSeverity_t, std::string>> expected = {
        {HIPDNN_SEV_INFO, "[frontend] built 3 nodes"},
        {HIPDNN_SEV_WARN, "[frontend] x=1.5"},
        {HIPDNN_SEV_ERROR, "[plugin] id ff"},
        {HIPDNN_SEV_FATAL, "[plugin] gone"}};
    EXPECT_EQ(messages(), expected);
}

TEST_F(DataSdkCallbackLogger, MacrosEvaluateTheStreamOnlyWhenEnabled) {
    logging::setLogCallback(captureMessage);
    logging::setLogLevel(HIPDNN_SEV_ERROR);
    HIPDNN_SDK_LOG_WARN("test", countedValue());
    EXPECT_EQ(evaluations, 0);
    HIPDNN_SDK_LOG_ERROR("test", countedValue());
    EXPECT_EQ(evaluations, 1);

    logging::setLogLevel(HIPDNN_SEV_OFF);
    HIPDNN_SDK_LOG_FATAL("test", countedValue());
    EXPECT_EQ(evaluations, 1);

    logging::setLogLevel(HIPDNN_SEV_INFO);
    logging::setLogCallback(nullptr);
    HIPDNN_SDK_LOG_FATAL("test", countedValue());
    EXPECT_EQ(evaluations, 1) << "no callback, nothing to build";
    EXPECT_EQ(messages(),
              (std::vector<std::pair<hipdnnSeverity_t, std::string>>{{HIPDNN_SEV_ERROR, "[test] 1"}}));
}

TEST_F(DataSdkCallbackLogger, WithoutCallbackMessagesAreDropped) {
    logging::setLogLevel(HIPDNN_SEV_INFO);
    EXPECT_FALSE(logging::isLogEnabled(HIPDNN_SEV_FATAL));
    logging::log(HIPDNN_SEV_FATAL, "test", "nowhere to go");
    logging::setLogCallback(captureMessage);
    EXPECT_TRUE(logging::isLogEnabled(HIPDNN_SEV_FATAL));
    EXPECT_TRUE(messages().empty());
}

TEST_F(DataSdkCallbackLogger, IsThreadSafe) {
    logging::setLogCallback(countMessage);
    logging::setLogLevel(HIPDNN_SEV_WARN);
    std::atomic<bool> done{false};
    std::thread reconfigure([&done] {
        while (!done) {
            logging::setLogLevel(HIPDNN_SEV_WARN);
            logging::setLogCallback(countMessage);
        }
    });
    std::vector<std::thread> writers;
    for (int thread = 0; thread < 4; ++thread) {
        writers.emplace_back([thread] {
            for (int i = 0; i < 1000; ++i) {
                HIPDNN_SDK_LOG_ERROR("thread", thread << ":" << i);
                HIPDNN_SDK_LOG_INFO("thread", "filtered");
            }
        });
    }
    for (auto& writer : writers) {
        writer.join();
    }
    done = true;
    reconfigure.join();
    EXPECT_EQ(callbackCalls, 4000);
}

TEST(DataSdkCallbackLoggerDeathTest, LevelDefaultsToEnvironment) {
    // A fresh process: the level is read from HIPDNN_LOG_LEVEL at first use.
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            setenv("HIPDNN_LOG_LEVEL", " Error ", 1);
            std::exit(logging::currentLogLevel() == HIPDNN_SEV_ERROR ? 0 : 1);
        },
        ::testing::ExitedWithCode(0), "");
    EXPECT_EXIT(
        {
            unsetenv("HIPDNN_LOG_LEVEL");
            std::exit(logging::currentLogLevel() == HIPDNN_SEV_OFF ? 0 : 1);
        },
        ::testing::ExitedWithCode(0), "");
}

}  // namespace
