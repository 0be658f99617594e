// GoogleTest assertions over allClose() whose failure message is the full report (header-only;
// part of hipdnn_test_sdk_gtest).
#pragma once

#include <hipdnn_test_sdk/AllClose.hpp>

#include <gtest/gtest.h>

/// EXPECT/ASSERT that `actual` matches `expected` (ErasedTensorView) within `tolerance`.
#define HIPDNN_EXPECT_ALL_CLOSE(expected, actual, tolerance)                                        \
    do {                                                                                            \
        const auto hipdnnAllCloseReport = ::hipdnn_test_sdk::allClose(expected, actual, tolerance); \
        EXPECT_TRUE(hipdnnAllCloseReport.passed) << hipdnnAllCloseReport.describe();                \
    } while (false)

#define HIPDNN_ASSERT_ALL_CLOSE(expected, actual, tolerance)                                        \
    do {                                                                                            \
        const auto hipdnnAllCloseReport = ::hipdnn_test_sdk::allClose(expected, actual, tolerance); \
        ASSERT_TRUE(hipdnnAllCloseReport.passed) << hipdnnAllCloseReport.describe();                \
    } while (false)
