// The per-thread last error message behind hipdnnPluginGetLastErrorString.
#pragma once

#include <hipdnn_plugin_sdk/PluginApiDataTypes.h>

#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <string_view>

namespace hipdnn_plugin_sdk {

/// Each thread owns one fixed buffer of HIPDNN_PLUGIN_ERROR_STRING_MAX_LENGTH bytes, so setting
/// the message never allocates and can run inside a catch handler after std::bad_alloc.
/// Longer messages are truncated (never in the middle of a UTF-8 sequence).
class PluginLastError {
public:
    /// Stores the concatenation of `parts`, truncated to capacity().
    static void set(std::initializer_list<std::string_view> parts) noexcept {
        char* buffer = threadBuffer();
        std::size_t length = 0;
        for (std::string_view part : parts) {
            length = appendTruncated(buffer, length, part);
        }
        buffer[length] = '\0';
    }

    static void set(std::string_view message) noexcept { set({message}); }

    static void clear() noexcept { threadBuffer()[0] = '\0'; }

    /// The calling thread's message; valid until the thread next sets or clears it.
    static const char* get() noexcept { return threadBuffer(); }

    static constexpr std::size_t capacity() noexcept { return HIPDNN_PLUGIN_ERROR_STRING_MAX_LENGTH - 1; }

private:
    static char* threadBuffer() noexcept {
        thread_local char buffer[HIPDNN_PLUGIN_ERROR_STRING_MAX_LENGTH] = {};
        return buffer;
    }

    static std::size_t appendTruncated(char* buffer, std::size_t length, std::string_view text) noexcept {
        std::size_t count = text.size();
        if (count > capacity() - length) {
            count = capacity() - length;
            // Back off to a character boundary: UTF-8 continuation bytes are 10xxxxxx.
            while (count > 0 && (static_cast<unsigned char>(text[count]) & 0xC0U) == 0x80U) {
                --count;
            }
        }
        std::memcpy(buffer + length, text.data(), count);
        return length + count;
    }
};

}  // namespace hipdnn_plugin_sdk
