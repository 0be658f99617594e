#!/usr/bin/env bash
# The main job: builds everything and runs the driver's demo on the best engines available on
# this machine (the GPU when there is one, else the CPU engines), validated against the CPU
# reference.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" release
exec "$root/build/release/bin/hipdnn-driver" demo "$@"
