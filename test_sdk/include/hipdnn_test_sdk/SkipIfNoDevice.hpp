// SKIP_IF_NO_DEVICE(): skips the current GoogleTest test when no CUDA device is present
// (header-only; part of the hipdnn_test_sdk_gtest target).
#pragma once

#include <hipdnn_test_sdk/DeviceDetection.hpp>

#include <gtest/gtest.h>

#define SKIP_IF_NO_DEVICE()                                                                \
    do {                                                                                   \
        if (::hipdnn_test_sdk::cudaDeviceCount() == 0) {                                   \
            GTEST_SKIP() << "No CUDA device was found (libcudart/libcuda not loadable or " \
                            "reporting zero devices); skipping this test";                 \
        }                                                                                  \
    } while (false)
