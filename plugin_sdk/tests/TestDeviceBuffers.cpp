#include <hipdnn_plugin_sdk/DeviceBuffers.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

namespace {

using hipdnn_plugin_sdk::DeviceBuffers;
using hipdnn_plugin_sdk::PluginError;
using ::testing::HasSubstr;

template <class Function>
PluginError captureError(Function&& function) {
    try {
        function();
    } catch (const PluginError& error) {
        return error;
    }
    ADD_FAILURE() << "no PluginError thrown";
    return PluginError(HIPDNN_PLUGIN_STATUS_SUCCESS, "");
}

TEST(DeviceBuffersTest, FindsPointersByUid) {
    int a = 0;
    int b = 0;
    const std::vector<hipdnnPluginDeviceBuffer_t> raw = {{10, &a}, {20, &b}, {30, nullptr}};
    const DeviceBuffers buffers(raw.data(), 3);
    EXPECT_EQ(buffers.size(), 3U);
    EXPECT_EQ(buffers.pointer(20), &b);
    EXPECT_EQ(buffers.find(10), &a);
    EXPECT_EQ(buffers.find(30), nullptr);
    EXPECT_FALSE(buffers.find(40).has_value());
}

TEST(DeviceBuffersTest, MissingOrNullBuffersAreBadParamNamingTheUid) {
    int a = 0;
    const std::vector<hipdnnPluginDeviceBuffer_t> raw = {{10, &a}, {30, nullptr}};
    const DeviceBuffers buffers(raw.data(), 2);
    PluginError missing = captureError([&] { buffers.pointer(40); });
    EXPECT_EQ(missing.status(), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_STREQ(missing.what(), "no device buffer for tensor uid 40");
    PluginError null = captureError([&] { buffers.pointer(30); });
    EXPECT_STREQ(null.what(), "device buffer for tensor uid 30 is null");
}

TEST(DeviceBuffersTest, RejectsNullArraysAndDuplicateUids) {
    EXPECT_NO_THROW(DeviceBuffers(nullptr, 0));
    EXPECT_THAT(captureError([] { DeviceBuffers(nullptr, 2); }).what(), HasSubstr("device_buffers is null"));
    int a = 0;
    const std::vector<hipdnnPluginDeviceBuffer_t> raw = {{5, &a}, {5, &a}};
    EXPECT_STREQ(captureError([&] { DeviceBuffers(raw.data(), 2); }).what(),
                 "device buffer for tensor uid 5 is given twice");
}

}  // namespace
