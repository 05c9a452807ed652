#!/usr/bin/env bash
# Builds the folder that travels to the GPU machine for run_on_device.sh: a prefix with the
# CUDA plugin (and its test variant with the standalone sink), the sample and benchmark programs, the bare CUPTI collector and, when built, the
# CLI with its libraries; then bundles it with the shared bundle.sh (which adds the Debian
# libraries the GPU machine lacks). Kept under .gpu/cuda so other bundles in .gpu stay intact.
#   usage: make_device_bundle.sh BUILD_DIR [BUNDLE_SH]     (from the repository root)
set -euo pipefail
build=${1:?build dir}
bundle_sh=${2:-../shared/device/bundle.sh}
dest=.gpu/cuda
rm -rf "$dest"
mkdir -p "$dest/prefix/bin" "$dest/prefix/lib/rocprofiler-sdk"
cp "$build/bin/cuda_app" "$build/bin/cuda_launch_bench" "$dest/prefix/bin/"
# The PC sampling workload (-lineinfo kept: strip --strip-debug below leaves .nv_debug_line_sass
# of the embedded cubin alone, which is what CUPTI's SASS-to-source reads).
[ -x "$build/bin/pc_sampling_app" ] && cp "$build/bin/pc_sampling_app" "$dest/prefix/bin/"
cp "$build/lib/rocprofiler-sdk/librocprofiler-sdk-cuda.so" "$dest/prefix/lib/rocprofiler-sdk/"
# The test variant with the standalone sink, for the tests that inject the plugin alone.
cp "$build/tests/lib/librocprofiler-sdk-cuda-standalone.so" "$dest/prefix/lib/"
cp "$build/lib/libbare_cupti_collector.so" "$dest/prefix/lib/"
# Per-kernel counters: the sample and the SDK tool of tests/integration/counters (the tool needs
# the core, copied below with the CLI, or beside it).
[ -x "$build/bin/counter_app" ] && cp "$build/bin/counter_app" "$dest/prefix/bin/"
[ -f "$build/lib/libcounter_check_tool.so" ] && cp "$build/lib/libcounter_check_tool.so" "$dest/prefix/lib/"
# The v2 library's device-session check (tests/unit/v2) with the v2 library and the core.
cp "$build/bin/v2_device_session_gpu" "$dest/prefix/bin/"
cp -a "$build"/lib/librocprofiler64v2.so "$build"/lib/librocprofiler-sdk.so* "$dest/prefix/lib/"
# Device counting: the sample tool of samples/device_counting and its busy/idle program.
[ -x "$build/bin/busy_idle" ] && cp "$build/bin/busy_idle" "$dest/prefix/bin/"
[ -f "$build/lib/libdevice_counting_tool.so" ] && cp "$build/lib/libdevice_counting_tool.so" "$dest/prefix/lib/"
[ -f "$build/lib/libsync_sample_cost.so" ] && cp "$build/lib/libsync_sample_cost.so" "$dest/prefix/lib/"
if [ -x "$build/bin/rocprofv3" ]; then
  cp "$build/bin/rocprofv3" "$dest/prefix/bin/"
  [ -x "$build/bin/rocpd" ] && cp "$build/bin/rocpd" "$dest/prefix/bin/"
  cp -a "$build"/lib/librocprofiler-sdk*.so* "$dest/prefix/lib/" 2>/dev/null || true
  cp -a "$build"/lib/rocprofiler-sdk/*.so "$dest/prefix/lib/rocprofiler-sdk/" 2>/dev/null || true
  cp -a "$build"/lib/libroctx*.so* "$build"/lib/librocprof*.so* "$dest/prefix/lib/" 2>/dev/null || true
fi
# The sample tools built against a fresh install by ctest's samples.install_and_build, when it ran
# (tests/integration/samples; run_on_device.sh runs them on cuda_app). Rebuilt here first when
# sources of the samples or the SDK headers are newer than them: stale tools in a bundle once
# looked like a bug of the core on the GPU.
samples="$build/tests/integration/samples/work/samples-build"
newest_tool=$(ls -t "$samples"/librocprof-sample-*.so 2>/dev/null | head -1 || true)
if [ -n "$newest_tool" ] && [ -n "$(find samples libprofiler/include -newer "$newest_tool" -type f 2>/dev/null | head -1)" ]; then
  echo "bundle: sample tools older than their sources: running samples.install_and_build"
  ctest --test-dir "$build" -R '^samples\.install_and_build$' > /dev/null 2>&1 ||
    echo "bundle: samples.install_and_build failed; the sample tools may be stale" >&2
fi
if ls "$samples"/librocprof-sample-*.so > /dev/null 2>&1; then
  mkdir -p "$dest/prefix/lib/samples"
  cp "$samples"/librocprof-sample-*.so "$dest/prefix/lib/samples/"
fi
# Counter definitions (rocprofv3's names over NVIDIA metrics): the core and the CLI read them from
# <prefix>/share/rocprofiler-sdk/, beside bin/ and lib/.
mkdir -p "$dest/prefix/share/rocprofiler-sdk"
cp "$build/share/rocprofiler-sdk/counter_defs.yaml" "$dest/prefix/share/rocprofiler-sdk/"
# Debug info stays here: the folder that travels has a size limit. cuda_app keeps its own: the
# host call stack check (check_host_callstack.py) resolves its launch lines on the GPU machine.
find "$dest/prefix" -type f \( -name "*.so*" -o -perm -u+x \) ! -name cuda_app -exec strip --strip-debug {} + 2>/dev/null || true
# bundle.sh can stop early under its own `set -e` when the last dependency it looks at is
# already present (its loop then ends with a failed test); the copies are made by then, so the
# environment file it would have written last is written here in that case.
bash "$bundle_sh" "$dest/bundle" "$dest/prefix" || true
if [ ! -f "$dest/bundle/env.sh" ]; then
  {
    echo '# source this file on the GPU machine'
    echo 'b=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)'
    printf 'export LD_LIBRARY_PATH="$b/deps'
    (cd "$dest/bundle/root" && find . -name '*.so*' -printf '%h\n' | sort -u) |
      while read -r d; do printf ':$b/root/%s' "${d#./}"; done
    echo '${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"'
  } > "$dest/bundle/env.sh"
fi
echo "bundle: $(du -sh "$dest/bundle" | cut -f1), $(ls "$dest/bundle/deps" | wc -l) dependency libraries"
# The core finds its plugins beside its own file (lib/rocprofiler-sdk/): the copy bundle.sh put
# in deps/ (found through the tool's RUNPATH) would hide them, so only the prefix's copy stays.
rm -f "$dest"/bundle/deps/librocprofiler-sdk*
rm -rf "$dest/prefix"
du -sh "$dest"
