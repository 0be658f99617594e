#!/usr/bin/env bash
# Builds the backend, its fake plugins, its API tests and the libFuzzer target with clang, ASan
# and UBSan, and runs them (the fuzzer for a bounded time). Only these executables are built, so
# the other registered tests are placeholders without labels and the label filter skips them.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cmake --preset sanitize -S "$root" -DHIPDNN_BUILD_TOOLS=OFF -DHIPDNN_BUILD_SAMPLES=OFF >/dev/null
cmake --build --preset sanitize --target hipdnn_backend_sanitized_tests
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir "$root/build/sanitize" -L "integration|fuzz" -E plugin_workflow -j2 --output-on-failure
