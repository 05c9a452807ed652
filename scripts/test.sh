#!/usr/bin/env bash
# The README's test command: install dependencies, build, run every test (unit, end-to-end,
# benchmarks in short mode). GPU tests skip visibly on machines without a GPU.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
build=${BUILD_DIR:-$root/build}
cd "$build"
ctest --output-on-failure -j "${JOBS:-$(nproc)}" --timeout 600
