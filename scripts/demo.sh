#!/usr/bin/env bash
# The README's main job: install, build, then profile the bundled multi-threaded ROCTx sample
# with --sys-trace and print the summary. Outputs land in ./rocprof-demo/.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
build=${BUILD_DIR:-$root/build}
out=${DEMO_OUTPUT_DIR:-$PWD/rocprof-demo}
"$build/bin/rocprofv3" --sys-trace --summary --summary-output-file stdout \
  --output-format rocpd csv json pftrace otf2 -d "$out" -o demo -- "$build/bin/roctx_app" 4 1000
echo "outputs in $out:"
ls -R "$out"
