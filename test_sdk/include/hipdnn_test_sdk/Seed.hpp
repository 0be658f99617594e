// The seed every randomized test derives its inputs from, so that a failing run can be
// reproduced exactly: HIPDNN_GLOBAL_TEST_SEED=<number> | RANDOM (default 1).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace hipdnn_test_sdk {

/// Parses a HIPDNN_GLOBAL_TEST_SEED value: unset or empty -> 1, a decimal number (0 to 2^32-1)
/// -> that number, "RANDOM" (any case) -> std::nullopt (the caller draws one). Anything else
/// throws std::invalid_argument naming the value.
std::optional<uint32_t> parseTestSeed(std::optional<std::string_view> environmentValue);

/// The process-wide seed, computed once from HIPDNN_GLOBAL_TEST_SEED. With RANDOM a seed is
/// drawn from std::random_device and printed to stderr so that the run can be repeated.
uint32_t globalTestSeed();

}  // namespace hipdnn_test_sdk
