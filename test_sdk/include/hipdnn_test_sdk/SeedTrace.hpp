// GoogleTest helpers that make the seed part of every failure message (header-only; part of the
// hipdnn_test_sdk_gtest target).
#pragma once

#include <hipdnn_test_sdk/Seed.hpp>

#include <gtest/gtest.h>

#include <string>

/// Adds "HIPDNN_GLOBAL_TEST_SEED=<seed>" to every assertion failure in the current scope.
#define HIPDNN_SCOPED_SEED_TRACE() \
    SCOPED_TRACE("HIPDNN_GLOBAL_TEST_SEED=" + std::to_string(::hipdnn_test_sdk::globalTestSeed()))

namespace hipdnn_test_sdk {

/// Prints the seed once after any failed test, for suites that do not use the scoped trace.
/// Install with installSeedReportingListener() (for example from a custom main or a global
/// test environment).
class SeedReportingListener : public ::testing::EmptyTestEventListener {
public:
    void OnTestEnd(const ::testing::TestInfo& testInfo) override {
        if (testInfo.result() != nullptr && testInfo.result()->Failed()) {
            std::cout << "[  SEED    ] " << testInfo.test_suite_name() << "." << testInfo.name()
                      << " failed with HIPDNN_GLOBAL_TEST_SEED=" << globalTestSeed() << '\n';
        }
    }
};

/// Appends a SeedReportingListener to GoogleTest's listeners (which then own it).
inline void installSeedReportingListener() {
    ::testing::UnitTest::GetInstance()->listeners().Append(new SeedReportingListener());
}

}  // namespace hipdnn_test_sdk
