#!/usr/bin/env bash
# Builds the backend, its fake plugins and its API tests with ASan + UBSan, and runs them.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cmake --preset sanitize -S "$root" -DHIPDNN_BUILD_TOOLS=OFF -DHIPDNN_BUILD_SAMPLES=OFF >/dev/null
cmake --build --preset sanitize --target hipdnn_backend_sanitized_tests
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir "$root/build/sanitize" -L backend -j2 --output-on-failure
