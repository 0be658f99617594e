#include <hipdnn_plugin_sdk/PluginLastError.hpp>

#include <gtest/gtest.h>

#include <string>
#include <thread>

namespace {

using hipdnn_plugin_sdk::PluginLastError;

TEST(PluginLastErrorTest, SetConcatenatesAndClearEmpties) {
    PluginLastError::set({"prefix: ", "message"});
    EXPECT_STREQ(PluginLastError::get(), "prefix: message");
    PluginLastError::clear();
    EXPECT_STREQ(PluginLastError::get(), "");
}

TEST(PluginLastErrorTest, LongMessagesAreTruncatedToTheBuffer) {
    PluginLastError::set(std::string(5000, 'x'));
    EXPECT_EQ(std::string(PluginLastError::get()),
              std::string(HIPDNN_PLUGIN_ERROR_STRING_MAX_LENGTH - 1, 'x'));
}

TEST(PluginLastErrorTest, TruncationKeepsUtf8SequencesWhole) {
    // Two-byte characters after an odd-length prefix: the cut would split the last character.
    const std::string prefix(HIPDNN_PLUGIN_ERROR_STRING_MAX_LENGTH - 2, 'a');
    PluginLastError::set({prefix, "\xC3\xA9\xC3\xA9"});
    EXPECT_EQ(std::string(PluginLastError::get()), prefix);
}

TEST(PluginLastErrorTest, EachThreadHasItsOwnMessage) {
    PluginLastError::set("main thread");
    std::string seen = "<unset>";
    std::thread other([&] {
        seen = PluginLastError::get();
        PluginLastError::set("other thread");
    });
    other.join();
    EXPECT_EQ(seen, "");
    EXPECT_STREQ(PluginLastError::get(), "main thread");
}

}  // namespace
