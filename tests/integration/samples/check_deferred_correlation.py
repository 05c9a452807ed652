#!/usr/bin/env python3
"""GPU only (exit 77 without one): which way of the deferred tool start gives GPU records their
launch's correlation ids. The buffered-tracing sample is preloaded into cuda_app with the CUDA
plugin injected and no ROCPROFILER_LIBRARY_CTOR (the tools start at the first API call after
cuInit, libprofiler/backends/cuda/cupti_session_deferral.cpp), once per way:

  first-way     ROCPROF_CUDA_DEFERRED_ACTIVITY=hook  ROCPROF_CUDA_DEFERRED_DOMAINS_OFF=enter
                (the H100 runs that gave every kernel the program's last call's id)
  early-kinds   GPU kinds enabled at start(), catch-all callbacks off in the hook's ENTER
  off-at-exit   kinds enabled in the hook, catch-all callbacks off at the hook call's EXIT
  default       early kinds and off at exit (what the plugin does unless told otherwise)
  never-off     kinds in the hook, catch-all callbacks never switched off
  ctor          ROCPROFILER_LIBRARY_CTOR=1 (no deferral: the reference)

One line per way:
  DEFERRED way=<w> kernels=N launch_id=A other_call_id=B own_id=C
           records known= unseen= zero= shared=; callbacks zero= shared=
launch_id: kernels carrying their cudaLaunchKernel/cudaGraphLaunch's id (right); other_call_id:
another API call's id (wrong, never acceptable); own_id: an id no API call has (not attributed:
what the plugin does when CUPTI's ids cannot be trusted). The "callbacks" counts say what CUPTI
handed the API callbacks: zero = correlation id 0, shared = one id seen with several calls. Then
  DEFERRED_VERDICT cupti=<what CUPTI did in the first way> fixed_by=<ways with every kernel right>
cupti= one-id-for-several-calls (callbacks and records share one id: the plugin now attributes
such records to no launch), id-zero, callbacks-distinct-records-carry-another-calls-id (not
caught by the plugin: kernels would show other_call_id), or distinct-ids.
The same lines go to OUT_DIR/DEFERRED.txt. Fails when any way gives a kernel another call's id, or when the default way leaves a kernel
without its launch's id.

usage: check_deferred_correlation.py SAMPLE_TOOLS_DIR CUDA_PLUGIN CUDA_APP OUT_DIR
"""
import os
import re
import sys

from samples_checks import checker, of, preloaded, require_gpu, run_with_tool

WAYS = [
    ("first-way", {"ROCPROF_CUDA_DEFERRED_ACTIVITY": "hook",
                   "ROCPROF_CUDA_DEFERRED_DOMAINS_OFF": "enter"}),
    ("early-kinds", {"ROCPROF_CUDA_DEFERRED_DOMAINS_OFF": "enter"}),
    ("off-at-exit", {"ROCPROF_CUDA_DEFERRED_ACTIVITY": "hook"}),
    ("default", {}),
    ("never-off", {"ROCPROF_CUDA_DEFERRED_ACTIVITY": "hook",
                   "ROCPROF_CUDA_DEFERRED_DOMAINS_OFF": "never"}),
    ("ctor", {"ROCPROFILER_LIBRARY_CTOR": "1"}),
]
COUNTS = re.compile(r"correlation: records known=(\d+) unseen=(\d+) zero=(\d+) shared=(\d+); "
                    r"callbacks zero=(\d+) shared=(\d+)")


def base_name(op):
    return re.sub(r"_v\d+$", "", op or "")


def main():
    require_gpu("samples_deferred_correlation")
    tools, plugin, app, out = sys.argv[1:5]
    c = checker("samples_deferred_correlation")
    os.makedirs(out, exist_ok=True)
    core_dir = os.path.dirname(os.path.dirname(os.path.abspath(plugin)))
    tool = os.path.join(tools, "librocprof-sample-buffered-tracing.so")
    right_ways, first_counts, first_wrong, report = [], None, 0, []
    for way, extra in WAYS:
        env = dict(preloaded(tool), CUDA_INJECTION64_PATH=plugin, ROCPROF_CUDA_VERBOSE="1",
                   LD_LIBRARY_PATH=os.pathsep.join(
                       p for p in (core_dir, os.environ.get("LD_LIBRARY_PATH")) if p))
        for name in ("ROCPROFILER_LIBRARY_CTOR", "ROCPROF_CUDA_DEFERRED_ACTIVITY",
                     "ROCPROF_CUDA_DEFERRED_DOMAINS_OFF"):
            os.environ.pop(name, None)
        env.update(extra)
        p, lines = run_with_tool([app], env, os.path.join(out, f"deferred-{way}.txt"), timeout=300)
        with open(os.path.join(out, f"deferred-{way}.stderr.txt"), "w") as f:
            f.write(p.stderr)
        c.eq(p.returncode, 0, f"{way}: program exit status")
        calls = of(lines, "record", kind="CUDA_RUNTIME_API")
        launch_ids = {k.get("cid") for k in calls
                      if base_name(k.get("op")) in ("cudaLaunchKernel", "cudaGraphLaunch")}
        call_ids = {k.get("cid") for k in calls}
        kernels = of(lines, "record", kind="KERNEL_DISPATCH")
        right = sum(1 for k in kernels if k.get("cid") in launch_ids)
        wrong = sum(1 for k in kernels if k.get("cid") in call_ids - launch_ids)
        own = len(kernels) - right - wrong
        found = COUNTS.findall(p.stderr)
        counts = found[-1] if found else ("?",) * 6
        if way == "first-way":
            first_counts, first_wrong = counts, wrong
        report.append(f"DEFERRED way={way} kernels={len(kernels)} launch_id={right} "
                      f"other_call_id={wrong} own_id={own} records known={counts[0]} "
                      f"unseen={counts[1]} zero={counts[2]} shared={counts[3]}; "
                      f"callbacks zero={counts[4]} shared={counts[5]}")
        print(report[-1])
        c.check(len(kernels) > 0, f"{way}: kernel records")
        c.eq(wrong, 0, f"{way}: kernels with another API call's correlation id")
        if kernels and right == len(kernels):
            right_ways.append(way)
        if way == "default":
            c.eq(right, len(kernels), "default: kernels with their launch's correlation id")
    cupti = "unknown"
    if first_counts and first_counts[0] != "?":
        zero_cb, shared_cb = int(first_counts[4]), int(first_counts[5])
        zero_rec, shared_rec = int(first_counts[2]), int(first_counts[3])
        if shared_cb or shared_rec:
            cupti = "one-id-for-several-calls"
        elif zero_cb or zero_rec:
            cupti = "id-zero"
        elif first_wrong:
            cupti = "callbacks-distinct-records-carry-another-calls-id"
        else:
            cupti = "distinct-ids"
    report.append(f"DEFERRED_VERDICT cupti={cupti} fixed_by={','.join(right_ways) or 'none'}")
    print(report[-1])
    # ctest shows a passing test's output only with -V: the lines are kept beside the runs.
    with open(os.path.join(out, "DEFERRED.txt"), "w") as f:
        f.write("\n".join(report) + "\n")
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
