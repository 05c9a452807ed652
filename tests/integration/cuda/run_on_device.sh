#!/usr/bin/env bash
# Everything the CUDA backend needs checked on the GPU machine, in one go (one device call):
# the gpu-labelled tests through ctest, the launch-overhead benchmark (20 000 launches, 3 runs per
# configuration), the PyTorch GPU-bound loop with and without tracing, and the outputs copied
# to $OUT. Run from the repository root on the GPU machine, after bundling (see
# ../shared/device/README.md):
#   source .gpu/cuda/bundle/env.sh; bash tests/integration/cuda/run_on_device.sh .gpu/cuda/bundle/root/prefix
# PREFIX holds bin/cuda_app, bin/counter_app, lib/libcounter_check_tool.so, bin/busy_idle,
# lib/libdevice_counting_tool.so, bin/cuda_launch_bench, lib/rocprofiler-sdk/librocprofiler-sdk-cuda.so,
# lib/librocprofiler-sdk-cuda-standalone.so (the test variant with the standalone sink),
# lib/libbare_cupti_collector.so, bin/v2_device_session_gpu with lib/librocprofiler64v2.so and
# the core and, when the CLI is part of the bundle, bin/rocprofv3.
set -u
root=$(pwd)
prefix=$(cd "${1:-.gpu/cuda/bundle/root/prefix}" && pwd)
out=${OUT:-/tmp/cuda-device-out}
work=/tmp/cuda-device-work
mkdir -p "$out" "$work"
log="$out/device_log.txt"
exec > >(tee "$log") 2>&1
export CUDA_TEST_OUT="$out" PYTHONUNBUFFERED=1
plugin="$prefix/lib/rocprofiler-sdk/librocprofiler-sdk-cuda.so"
standalone="$prefix/lib/librocprofiler-sdk-cuda-standalone.so"
cli="$prefix/bin/rocprofv3"
[ -x "$cli" ] && "$cli" --help > /dev/null 2>&1 || cli=""
py=$(command -v python3)
tests="$root/tests/integration/cuda"

echo "== device"; nvidia-smi -L; date -u
echo "== CLI: ${cli:-not bundled or not working}"

# The cost of one synchronous device counting sample (benchmarks/device_counting).
sync_cost() {
  if [ -x "$prefix/bin/busy_idle" ] && [ -f "$prefix/lib/libsync_sample_cost.so" ]; then
    echo "== device counting: cost of one synchronous sample call (benchmarks/device_counting)"
    # LD_PRELOAD reaches busy_idle only (a preloaded `timeout` would hold the device's PM sampler).
    timeout 120 env LD_PRELOAD="$prefix/lib/libsync_sample_cost.so" ROCPROFILER_LIBRARY_CTOR=1 \
      "$prefix/bin/busy_idle" --busy-ms 3000 > "$work/sync_sample_cost.txt" 2>&1
    echo "busy_idle exit status $?"
    if ! grep -E "SYNC_SAMPLE_COST|rocprofiler:|corruption|abort" "$work/sync_sample_cost.txt"; then
      echo "SYNC_SAMPLE_COST missing; the run's output:"; tail -20 "$work/sync_sample_cost.txt"
    fi
  fi
}
# GPU_SPM_LONG=1: also the 30-second --spm run (overhead at 10 kHz in interleaved pairs, the
# highest rate without loss; ~4-5 minutes); GPU_SPM_LONG=only: the synchronous sample cost and
# that run alone, then exit (about 5 minutes).
spm_long() {
  if [ -n "$cli" ] && [ -x "$prefix/bin/busy_idle" ]; then
    echo "== --spm on a 30-second GPU-bound run (benchmarks/spm/run_spm_overhead.py)"
    "$py" "$root/benchmarks/spm/run_spm_overhead.py" --rocprofv3 "$cli" --app "$prefix/bin/busy_idle" \
      --work "$work/spm_long" | grep -E "^SPM_OVERHEAD|rocprofv3:| exit " | tee "$out/spm_overhead.txt"
  else
    echo "SPM_OVERHEAD not run: needs the CLI and busy_idle in the bundle"
  fi
}
if [ "${GPU_SPM_LONG:-0}" = only ]; then sync_cost; spm_long; date -u; exit 0; fi

# The same tests CTest registers with the label gpu, pointed at the bundle's paths.
ct="$work/ctest"; mkdir -p "$ct"
{
  echo "add_test(cuda.plugin_without_gpu $py $tests/check_plugin_without_gpu.py $plugin $standalone $work)"
  echo "add_test(cuda.cuda_app_standalone $py $tests/check_cuda_app_standalone.py $prefix/bin/cuda_app $standalone $work)"
  echo "add_test(cuda.torch_matmul $py $tests/check_torch_matmul.py $root/tests/apps/torch_matmul/torch_matmul.py $standalone $work $cli)"
  echo "add_test(cuda.launch_overhead $py $root/benchmarks/cuda_launch/run_cuda_launch.py --bench $prefix/bin/cuda_launch_bench --plugin $standalone --bare $prefix/lib/libbare_cupti_collector.so --runs 1 --launches 2000)"
  echo 'set_tests_properties(cuda.cuda_app_standalone cuda.torch_matmul cuda.launch_overhead PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)'
  [ -n "$cli" ] && echo "add_test(cuda.cli_cuda_exact $py $tests/check_cli_cuda_exact.py $cli $prefix/bin/cuda_app $work $root/tests/data/perfetto/perfetto_trace.proto)"
  [ -n "$cli" ] && echo 'set_tests_properties(cuda.cli_cuda_exact PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)'
  [ -n "$cli" ] && echo "add_test(cuda.cli_host_callstack $py $tests/check_host_callstack.py $cli $prefix/bin/cuda_app $root/tests/apps/cuda_app/cuda_app.cu $work)"
  [ -n "$cli" ] && echo 'set_tests_properties(cuda.cli_host_callstack PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)'
  [ -n "$cli" ] && echo "add_test(cuda.cli_kernel_only_paths $py $tests/check_kernel_only_paths.py $cli $work/kernel_only_gpu --gpu -- $prefix/bin/cuda_app)"
  [ -n "$cli" ] && echo 'set_tests_properties(cuda.cli_kernel_only_paths PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)'
  [ -n "$cli" ] && echo "add_test(cuda.cli_api_records $py $tests/check_cuda_api_records.py $cli $work/api_records_gpu --gpu -- $prefix/bin/cuda_app)"
  [ -n "$cli" ] && echo 'set_tests_properties(cuda.cli_api_records PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)'
  [ -n "$cli" ] && echo "add_test(cuda.cli_api_exclude $py $tests/check_cuda_api_exclude.py $cli $work/api_exclude_gpu --gpu -- $prefix/bin/cuda_app queries)"
  [ -n "$cli" ] && echo 'set_tests_properties(cuda.cli_api_exclude PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)'
  # rocprofv3 --pmc: on counter_app when bundled (known kernels), else on cuda_app.
  counter_program="$prefix/bin/counter_app"; [ -x "$counter_program" ] || counter_program="$prefix/bin/cuda_app"
  if [ -n "$cli" ]; then
    for case in agreement cost modes multipass multiplex join torch; do
      echo "add_test(cuda.cli_counters_gpu.$case $py $tests/check_cli_counters_gpu.py $case --rocprofv3 $cli --work $work/counters --torch-script $root/tests/apps/torch_matmul/torch_matmul.py --app $counter_program)"
      echo "set_tests_properties(cuda.cli_counters_gpu.$case PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 900)"
    done
  fi
  # Per-kernel counters through the SDK counter API (tests/integration/counters).
  if [ -x "$prefix/bin/counter_app" ] && [ -f "$prefix/lib/libcounter_check_tool.so" ]; then
    echo "add_test(counters.counter_app $py $root/tests/integration/counters/check_counter_app.py $prefix/bin/counter_app $prefix/lib/libcounter_check_tool.so $work/counters_sdk $plugin)"
    echo 'set_tests_properties(counters.counter_app PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 600)'
  fi
  # The sample tools (tests/integration/samples), when the bundle carries them.
  [ -d "$prefix/lib/samples" ] && echo "add_test(samples.cuda_app $py $root/tests/integration/samples/check_samples_cuda_app.py $prefix/lib/samples $plugin $prefix/bin/cuda_app $out/samples)"
  [ -d "$prefix/lib/samples" ] && echo 'set_tests_properties(samples.cuda_app PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)'
  [ -d "$prefix/lib/samples" ] && echo "add_test(samples.deferred_correlation $py $root/tests/integration/samples/check_deferred_correlation.py $prefix/lib/samples $plugin $prefix/bin/cuda_app $out/deferred)"
  [ -d "$prefix/lib/samples" ] && echo 'set_tests_properties(samples.deferred_correlation PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)'
  # rocprofv3 --spm (PM sampling): overlap with the kernels, PyTorch, the rate figures.
  if [ -n "$cli" ] && [ -x "$prefix/bin/busy_idle" ]; then
    for case in overlap torch rate; do
      echo "add_test(cuda.cli_spm_gpu.$case $py $tests/check_cli_spm_gpu.py $case --rocprofv3 $cli --app $prefix/bin/busy_idle --work $work/spm --torch-script $root/tests/apps/torch_matmul/torch_matmul.py --proto $root/tests/data/perfetto/perfetto_trace.proto)"
      echo "set_tests_properties(cuda.cli_spm_gpu.$case PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 900)"
    done
  fi
  # Device counting through the SDK sample tool (samples/device_counting).
  if [ -x "$prefix/bin/busy_idle" ] && [ -f "$prefix/lib/libdevice_counting_tool.so" ]; then
    echo "add_test(samples.device_counting $py $root/samples/device_counting/check_device_counting.py $prefix/bin/busy_idle $prefix/lib/libdevice_counting_tool.so)"
    echo 'set_tests_properties(samples.device_counting PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 300)'
  fi
  # PC sampling (issue 12): each prints FIGURES lines.
  if [ -n "$cli" ] && [ -x "$prefix/bin/pc_sampling_app" ]; then
    ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
    for mode in stalls ncu overhead torch; do
      extra=""
      [ $mode = ncu ] && extra=$ncu
      [ $mode = torch ] && extra=$root/tests/apps/torch_matmul/torch_matmul.py
      echo "add_test(cuda.pc_sampling_$mode $py $tests/check_pc_sampling.py $mode $cli $prefix/bin/pc_sampling_app $work/pc_sampling $extra)"
      echo "set_tests_properties(cuda.pc_sampling_$mode PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 900)"
    done
    # rocpd convert / summary of the run's database against its live outputs.
    if [ -x "$prefix/bin/rocpd" ]; then
      echo "add_test(rocpd.pc_samples_gpu $py $root/tests/integration/rocpd/check_rocpd_pc_gpu.py $cli $prefix/bin/rocpd $prefix/bin/pc_sampling_app $work/rocpd_pc)"
      echo "set_tests_properties(rocpd.pc_samples_gpu PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 900)"
    fi
  fi
  echo 'set_tests_properties(cuda.plugin_without_gpu PROPERTIES LABELS gpu)'
  echo "add_test(v2.device_session_gpu $prefix/bin/v2_device_session_gpu)"
  echo 'set_tests_properties(v2.device_session_gpu PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)'
} > "$ct/CTestTestfile.cmake"
echo "== ctest -L gpu"
if command -v ctest > /dev/null; then
  # GPU_TESTS (a ctest -R regex) runs a subset, so that one device call stays under its limit.
  (cd "$ct" && ctest -L gpu ${GPU_TESTS:+-R "$GPU_TESTS"} --output-on-failure --timeout 300)
  ctest_rc=$?
else
  echo "no ctest here: running the same commands directly"
  ctest_rc=0
  while read -r line; do
    case "$line" in add_test\(*) set -- ${line#add_test(}; name=$1; shift
      "${@%)}"; rc=$?; echo "$name: rc=$rc"; [ $rc -ne 0 ] && [ $rc -ne 77 ] && ctest_rc=1;; esac
  done < "$ct/CTestTestfile.cmake"
fi

# GPU_BENCHMARKS=0 skips the benchmarks below (a call that only runs tests).
if [ "${GPU_BENCHMARKS:-1}" = 0 ]; then date -u; exit $ctest_rc; fi
echo "== launch overhead: 20000 launches, median of 5 per configuration"
bench_args=(--bench "$prefix/bin/cuda_launch_bench" --plugin "$standalone"
            --bare "$prefix/lib/libbare_cupti_collector.so" --runs 5 --json "$out/launch_overhead.json")
[ -n "$cli" ] && bench_args+=(--rocprofv3 "$cli")
"$py" "$root/benchmarks/cuda_launch/run_cuda_launch.py" "${bench_args[@]}"

echo "== GPU-bound PyTorch loop (200 x 4096^2 GEMM): wall time of the loop"
torch_script="$root/tests/apps/torch_matmul/torch_matmul.py"
for i in 1 2; do
  echo "-- round $i"
  "$py" "$torch_script" --iterations 200 | grep SUMMARY | sed 's/^/baseline: /'
  CUDA_INJECTION64_PATH="$standalone" ROCPROF_CUDA_STANDALONE_OUTPUT="$work/torch_loop.json" \
    "$py" "$torch_script" --iterations 200 | grep SUMMARY | sed 's/^/plugin all domains: /'
  if [ -n "$cli" ]; then
    "$cli" --sys-trace -d "$work/torch_loop_cli" -o loop -- "$py" "$torch_script" --iterations 200 \
      | grep SUMMARY | sed 's/^/rocprofv3 --sys-trace: /'
  fi
done

if [ -n "$cli" ]; then
  echo "== launch-bound PyTorch loop: no tool / torch.profiler / rocprofv3, added us per op"
  "$py" "$root/benchmarks/torch_overhead/run_torch_overhead.py" --rocprofv3 "$cli" --rounds 5 \
    --work "$work/torch_overhead" | tee "$out/torch_overhead.txt"
fi
sync_cost
[ "${GPU_SPM_LONG:-0}" = 1 ] && spm_long
if [ -n "$cli" ] && [ -x "$prefix/bin/busy_idle" ]; then
  echo "== --spm: samples lost at 100, 10, 1 us and the wall time at 10 kHz"
  "$py" "$tests/check_cli_spm_gpu.py" rate --rocprofv3 "$cli" --app "$prefix/bin/busy_idle" \
    --work "$work/spm_rate" | grep -E "^RATE"
fi
date -u
exit $ctest_rc
