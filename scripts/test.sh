#!/usr/bin/env bash
# Builds everything and runs the whole test suite: unit and integration tests of the release
# build (GPU tests skip without a device), then the whole CPU tree again built with clang,
# AddressSanitizer and UndefinedBehaviorSanitizer (-Werror) and its whole suite under them,
# LeakSanitizer included (scripts/test-sanitized.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" release
ctest --preset release -j2

"$root/scripts/test-sanitized.sh"
