#!/usr/bin/env bash
# Builds everything and runs the whole test suite: unit and integration tests of the release
# build (GPU tests skip without a device), the Python package's tests against that build, then the
# backend's API tests again under AddressSanitizer and UndefinedBehaviorSanitizer.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" release
ctest --preset release -j2
"$root/scripts/test-python.sh" "$root/build/release"

"$root/scripts/build-sanitized-backend-tests.sh"
