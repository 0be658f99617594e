#!/usr/bin/env bash
# Configures and builds one preset (default: release) with Ninja, two jobs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
preset=${1:-release}
"$root/scripts/install_deps.sh"
cmake --preset "$preset" -S "$root" >/dev/null
cmake --build --preset "$preset"
