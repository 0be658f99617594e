#include <hipdnn_test_sdk/Seed.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <iostream>
#include <random>
#include <stdexcept>
#include <string>

namespace hipdnn_test_sdk {

namespace {
constexpr uint32_t defaultSeed = 1;
constexpr std::string_view seedVariable = "HIPDNN_GLOBAL_TEST_SEED";

bool equalsIgnoreCase(std::string_view left, std::string_view right) {
    return left.size() == right.size() &&
           std::equal(left.begin(), left.end(), right.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) ==
                      std::tolower(static_cast<unsigned char>(b));
           });
}
}  // namespace

std::optional<uint32_t> parseTestSeed(std::optional<std::string_view> environmentValue) {
    if (!environmentValue || environmentValue->empty()) {
        return defaultSeed;
    }
    const std::string_view text = *environmentValue;
    if (equalsIgnoreCase(text, "RANDOM")) {
        return std::nullopt;
    }
    uint32_t seed = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seed);
    if (error != std::errc() || end != text.data() + text.size()) {
        throw std::invalid_argument(std::string(seedVariable) + "='" + std::string(text) +
                                    "' is neither a number from 0 to 4294967295 nor RANDOM");
    }
    return seed;
}

uint32_t globalTestSeed() {
    // A function-local static is initialised once even when tests run on several threads.
    static const uint32_t seed = [] {
        const char* value = std::getenv(std::string(seedVariable).c_str());
        const auto parsed = parseTestSeed(value ? std::optional<std::string_view>(value) : std::nullopt);
        if (parsed) {
            return *parsed;
        }
        const uint32_t drawn = std::random_device{}();
        std::cerr << seedVariable << "=RANDOM: using seed " << drawn << " (rerun with " << seedVariable << "="
                  << drawn << " to reproduce)\n";
        return drawn;
    }();
    return seed;
}

}  // namespace hipdnn_test_sdk
