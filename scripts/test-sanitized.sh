#!/usr/bin/env bash
# Builds everything the CPU suite needs with clang, AddressSanitizer and UndefinedBehaviorSanitizer
# (the sanitize-fast preset: -O1 -g, every check of -fsanitize=undefined, the enum-range one
# among them — the C API's enums have int as their fixed underlying type in C++,
# hipdnn_data_sdk/CEnum.h, so any integer a C caller passes is a value — and no recovery) and
# runs the whole ctest suite with LeakSanitizer on. Any
# sanitizer report fails its test. Not part of CI: the build takes about an hour on two cores.
#   scripts/test-sanitized.sh [ctest arguments, e.g. -R Attention]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cmake --preset sanitize-fast -S "$root" >/dev/null
cmake --build --preset sanitize-fast
# intercept_tls_get_addr=0: LeakSanitizer's interception of __tls_get_addr crashes its tracer on
# the thread-local storage of dlopen'd plugins (oneDNN's OpenMP threads); leaks are still checked.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:intercept_tls_get_addr=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
ctest --test-dir "$root/build/sanitize-fast" -j"${HIPDNN_TEST_JOBS:-2}" --timeout 1200 --output-on-failure "$@"
