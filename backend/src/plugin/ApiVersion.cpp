#include "plugin/ApiVersion.hpp"

#include <charconv>

namespace hipdnn_backend::plugin {

std::optional<ApiVersion> parseApiVersion(std::string_view text) {
    uint32_t parts[3] = {};
    const char* cursor = text.data();
    const char* end = text.data() + text.size();
    for (int index = 0; index < 3; ++index) {
        if (cursor == end || *cursor < '0' || *cursor > '9') {
            return std::nullopt;
        }
        const auto [next, error] = std::from_chars(cursor, end, parts[index]);
        if (error != std::errc()) {
            return std::nullopt;
        }
        cursor = next;
        if (index < 2) {
            if (cursor == end || *cursor != '.') {
                return std::nullopt;
            }
            ++cursor;
        }
    }
    if (cursor != end) {
        return std::nullopt;
    }
    return ApiVersion{parts[0], parts[1], parts[2]};
}

}  // namespace hipdnn_backend::plugin
