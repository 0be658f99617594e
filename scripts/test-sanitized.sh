#!/usr/bin/env bash
# Builds the whole CPU tree (libraries, CPU plugins, tools, samples, benchmarks, tests and the
# libFuzzer target) with clang, AddressSanitizer and UndefinedBehaviorSanitizer, warnings as errors
# (preset `sanitize`), then runs the whole test suite under them (test preset `sanitize`):
#
#  - UBSan's enum-range check is on and every report stops the program (-fno-sanitize-recover=all);
#  - LeakSanitizer is on. Its __tls_get_addr interception is off (intercept_tls_get_addr=0): with
#    clang 14's runtime and Debian 12's glibc it reads garbage dynamic-TLS ranges of a thread of a
#    dlopen'ed plugin (oneDNN) and crashes the leak check. Heap blocks referenced only from a
#    plugin's dynamic TLS could then be reported as leaks; none are;
#  - tests/plugin_workflow builds the out-of-tree example with the same sanitizers;
#  - driver_floors_run_check is left out: it compares measured times with floors derived from the
#    driver's measured peaks, and the peaks are measured by instrumented code while oneDNN's
#    kernels are not, so the floors are meaningless here (driver_floors_run itself runs).
#
# Extra ASAN_OPTIONS / UBSAN_OPTIONS from the environment are appended (they win).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v clang++ >/dev/null; then
    echo "test-sanitized.sh: needs clang (scripts/install_deps.sh --with-extras installs it)" >&2
    exit 1
fi
"$root/scripts/build.sh" sanitize
cd "$root"
ctest --preset sanitize -j2
