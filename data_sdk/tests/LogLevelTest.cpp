#include <hipdnn_data_sdk/logging/LogLevel.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

namespace {

using hipdnn_data_sdk::logging::logLevelFromEnvironment;
using hipdnn_data_sdk::logging::parseLogLevel;
using hipdnn_data_sdk::logging::severityName;
using hipdnn_data_sdk::logging::shouldLog;

TEST(DataSdkLogLevel, ParsesTrimmedCaseInsensitiveNames) {
    static_assert(parseLogLevel("warn") == HIPDNN_SEV_WARN);
    EXPECT_EQ(parseLogLevel("info"), HIPDNN_SEV_INFO);
    EXPECT_EQ(parseLogLevel(" WARN\t"), HIPDNN_SEV_WARN);
    EXPECT_EQ(parseLogLevel("Error"), HIPDNN_SEV_ERROR);
    EXPECT_EQ(parseLogLevel("fatal\n"), HIPDNN_SEV_FATAL);
    EXPECT_EQ(parseLogLevel("OFF"), HIPDNN_SEV_OFF);
}

TEST(DataSdkLogLevel, InvalidNamesMeanOff) {
    for (const char* text : {"", "   ", "verbose", "warning", "in fo", "3", "infos", "inf"}) {
        EXPECT_EQ(parseLogLevel(text), HIPDNN_SEV_OFF) << '"' << text << '"';
    }
}

TEST(DataSdkLogLevel, SeverityNamesParseBack) {
    for (const hipdnnSeverity_t severity :
         {HIPDNN_SEV_INFO, HIPDNN_SEV_WARN, HIPDNN_SEV_ERROR, HIPDNN_SEV_FATAL, HIPDNN_SEV_OFF}) {
        EXPECT_EQ(parseLogLevel(severityName(severity)), severity);
    }
    EXPECT_EQ(severityName(HIPDNN_SEV_WARN), "warn");
    EXPECT_EQ(severityName(static_cast<hipdnnSeverity_t>(5)), "unknown");
}

TEST(DataSdkLogLevel, ShouldLogWhenLevelIsOnAndSeverityReachesIt) {
    for (const hipdnnSeverity_t severity :
         {HIPDNN_SEV_INFO, HIPDNN_SEV_WARN, HIPDNN_SEV_ERROR, HIPDNN_SEV_FATAL}) {
        EXPECT_FALSE(shouldLog(severity, HIPDNN_SEV_OFF));
        EXPECT_TRUE(shouldLog(severity, HIPDNN_SEV_INFO));
    }
    EXPECT_FALSE(shouldLog(HIPDNN_SEV_INFO, HIPDNN_SEV_WARN));
    EXPECT_TRUE(shouldLog(HIPDNN_SEV_WARN, HIPDNN_SEV_WARN));
    EXPECT_TRUE(shouldLog(HIPDNN_SEV_FATAL, HIPDNN_SEV_ERROR));
    EXPECT_FALSE(shouldLog(HIPDNN_SEV_ERROR, HIPDNN_SEV_FATAL));
}

/// Sets HIPDNN_LOG_LEVEL for one test and restores it afterwards.
class DataSdkLogLevelEnvironment : public ::testing::Test {
protected:
    void SetUp() override {
        if (const char* value = std::getenv("HIPDNN_LOG_LEVEL")) {
            saved_ = value;
        }
    }
    void TearDown() override {
        if (saved_) {
            setenv("HIPDNN_LOG_LEVEL", saved_->c_str(), 1);
        } else {
            unsetenv("HIPDNN_LOG_LEVEL");
        }
    }

private:
    std::optional<std::string> saved_;
};

TEST_F(DataSdkLogLevelEnvironment, ReadsHipdnnLogLevel) {
    setenv("HIPDNN_LOG_LEVEL", "  Error ", 1);
    EXPECT_EQ(logLevelFromEnvironment(), HIPDNN_SEV_ERROR);
    setenv("HIPDNN_LOG_LEVEL", "info", 1);
    EXPECT_EQ(logLevelFromEnvironment(), HIPDNN_SEV_INFO);
    setenv("HIPDNN_LOG_LEVEL", "loud", 1);
    EXPECT_EQ(logLevelFromEnvironment(), HIPDNN_SEV_OFF);
    unsetenv("HIPDNN_LOG_LEVEL");
    EXPECT_EQ(logLevelFromEnvironment(), HIPDNN_SEV_OFF);
}

}  // namespace
