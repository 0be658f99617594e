#!/usr/bin/env bash
# Builds the multi-threaded tests with ThreadSanitizer (the tsan preset: clang, backend, frontend,
# CPU plugins) and runs them: the eight-thread frontend stress test on the CPU reference plugin
# (repeated, for more interleavings) and the backend's concurrency test on the fake plugins. Any
# ThreadSanitizer report fails the run. Not part of CI (the build takes about ten minutes on two
# cores); run it after touching handles, plugin loading or logging.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
repeat=${1:-30}
cmake --preset tsan -S "$root" -DHIPDNN_BUILD_TOOLS=OFF >/dev/null
cmake --build --preset tsan --target hipdnn_frontend_stress_tests hipdnn_backend_execution_tests
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
HIPDNN_LOG_FILE=/dev/null "$root/build/tsan/bin/hipdnn_frontend_stress_tests" --gtest_repeat="$repeat"
"$root/build/tsan/bin/hipdnn_backend_execution_tests" --gtest_filter='Concurrency.*' --gtest_repeat="$repeat"
