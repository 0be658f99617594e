#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hipdnn_backend::plugin {

struct ApiVersion {
    uint32_t major = 1;
    uint32_t minor = 0;
    uint32_t patch = 0;

    auto operator<=>(const ApiVersion&) const = default;
    std::string toString() const {
        return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
    }
};

// Parses exactly "MAJOR.MINOR.PATCH" (decimal digits only); nullopt otherwise.
std::optional<ApiVersion> parseApiVersion(std::string_view text);

}  // namespace hipdnn_backend::plugin
