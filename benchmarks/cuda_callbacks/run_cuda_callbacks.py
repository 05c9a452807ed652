#!/usr/bin/env python3
"""The profiler's CPU cost per CUDA API call, without a GPU: fake_cuda_app plays N runtime
launches (cudaLaunchKernel), each making one nested driver launch (cuLaunchKernel), through the
fake libcupti, which calls the subscribed profiler exactly as CUPTI's callback dispatch would.

In each process the same N pairs are timed three ways (fake_cupti_bench_api_pairs):
  empty     an empty callback (what dispatching to a callback costs; subtracted below)
  minimal   a minimal collector: a CLOCK_BOOTTIME read per callback and a 32-byte record per
            call into a preallocated ring (the baseline: what any tracer must do)
  profiler  the profiler under test
Configurations (median of --runs interleaved runs):
  plugin         our CUDA plugin injected alone, standalone sink (a preallocated array)
  plugin+core    the installed plugin, the profiler core and a tool that drops every record
  tool           rocprofv3 --sys-trace --cuda-api-args (plugin, core, the tool's journal on its
                 own thread; a callback per call)
  *-nested       the same with ROCPROF_CUDA_NESTED_DRIVER_API=1 (the driver calls recorded)
  tool-callstack the same with --kernel-host-callstack (each launch unwinds its stack)
Prints ns per call pair added over the empty callback and its ratio to the minimal collector's;
--json writes them. Runs on any Linux machine (CPU only).
--instructions runs each configuration once under valgrind's callgrind instead and reports
instructions per pair on the application's thread (deterministic: what to compare on a busy
machine, where wall-clock numbers swing with the load and with page-fault costs), and for the
rocprofv3 configurations the instructions per record on the core's delivery thread: the tool's
buffer callback (convert_records: conversion, argument text, journal append) over the records
the run made (one per runtime call, two per pair with the nested driver calls recorded).
It also runs rocprofv3 --kernel-trace on `fake_cuda_app kernels N` (N kernel records) and
reports the delivery thread's instructions per kernel record ("kernel-trace" in --only).
"""
import argparse
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile


def run(cmd, env, timeout=600):
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    for line in p.stdout.splitlines():
        if line.startswith("FAKE_CUPTI_BENCH "):
            return json.loads(line[len("FAKE_CUPTI_BENCH "):]), p
    return None, p


COUNTED = {"empty_ns": "bench_empty_pairs", "minimal_ns": "bench_minimal_pairs",
           "profiler_ns": "bench_profiler_pairs"}
# The tool's delivery-thread entry (rocprof::tool::convert_records), counted on its own thread.
DELIVERY = "convert_records"


def inclusive_counts(out_dir, functions):
    """{key: inclusive instructions of function name, summed over the threads' profiles}."""
    counts = {k: 0 for k in functions}
    for f in glob.glob(os.path.join(out_dir, "cg.*")):
        text = subprocess.run(["callgrind_annotate", "--inclusive=yes", f], capture_output=True,
                              text=True).stdout
        for key, fn in functions.items():
            # The function's own line (its callers' "=> fn" lines contain '=').
            m = re.search(r"^\s*([\d,]+) \([^)]*\)\s+[^\n=]*::" + fn + r"\(", text, re.M)
            if m:
                counts[key] += int(m.group(1).replace(",", ""))
    return counts


def run_counted(cmd, env, calls, records, out_dir):
    """Runs under callgrind; returns instructions per pair in the FAKE_CUPTI_BENCH keys, and
    per record on the delivery thread in "delivery_instr" when records > 0."""
    for f in glob.glob(os.path.join(out_dir, "cg.*")):
        os.remove(f)
    vg = ["valgrind", "--tool=callgrind", "--trace-children=yes", "--separate-threads=yes",
          "--toggle-collect=fake_cupti_bench_api_pairs",
          "--toggle-collect=rocprof::tool::" + DELIVERY + "*",
          "--callgrind-out-file=" + os.path.join(out_dir, "cg.%p")]
    result, p = run(vg + cmd, env, timeout=1800)
    if result is None:
        return None, p
    counts = inclusive_counts(out_dir, dict(COUNTED, delivery_instr=DELIVERY))
    result = {k: counts[k] / calls for k in COUNTED}
    if records > 0:
        result["delivery_instr"] = counts["delivery_instr"] / records
    return result, p


def kernel_record_instructions(args, base, out_dir):
    """rocprofv3 --kernel-trace on `fake_cuda_app kernels N` under callgrind: the tool's
    delivery-thread instructions per kernel record."""
    for f in glob.glob(os.path.join(out_dir, "cg.*")):
        os.remove(f)
    cmd = ["valgrind", "--tool=callgrind", "--trace-children=yes", "--separate-threads=yes",
           "--toggle-collect=rocprof::tool::" + DELIVERY + "*",
           "--callgrind-out-file=" + os.path.join(out_dir, "cg.%p"), args.rocprofv3,
           "--kernel-trace", "--output-format", "csv", "-d", os.path.join(out_dir, "kernels"),
           "-o", "run", "--", args.app, "kernels", str(args.calls)]
    p = subprocess.run(cmd, env=base, capture_output=True, text=True, timeout=1800)
    if p.returncode != 0:
        return None, p
    return inclusive_counts(out_dir, {"delivery": DELIVERY})["delivery"] / args.calls, p


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--app", required=True, help="fake_cuda_app")
    ap.add_argument("--fake", required=True, help="the fake libcupti.so.13")
    ap.add_argument("--standalone", required=True, help="librocprofiler-sdk-cuda-standalone.so")
    ap.add_argument("--plugin", required=True, help="librocprofiler-sdk-cuda.so")
    ap.add_argument("--discard-tool", required=True, help="libcuda_callbacks_discard_tool.so")
    ap.add_argument("--rocprofv3", required=True)
    ap.add_argument("--calls", type=int, default=1000000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", help="comma list of configurations to run")
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--distinct-args", action="store_true",
                    help="every call launches another grid: no argument list repeats")
    ap.add_argument("--instructions", action="store_true",
                    help="instructions per pair under callgrind (one run each)")
    args = ap.parse_args()
    if args.instructions:
        args.runs = 1

    work = tempfile.mkdtemp(prefix="cuda_callbacks_")
    base = dict(os.environ, CUPTI_LIB=args.fake)
    base.pop("FAKE_CUPTI_BENCH_DISTINCT_ARGS", None)
    if args.distinct_args:
        base["FAKE_CUPTI_BENCH_DISTINCT_ARGS"] = "1"
    for k in ("CUDA_INJECTION64_PATH", "ROCPROF_CUDA_DOMAINS", "ROCPROF_CUDA_NESTED_DRIVER_API",
              "LD_PRELOAD", "ROCP_TOOL_LIBRARIES", "ROCPROFILER_LIBRARY_CTOR"):
        base.pop(k, None)
    app = [args.app, "bench", str(args.calls)]

    def plugin(nested):
        env = dict(base, CUDA_INJECTION64_PATH=args.standalone,
                   ROCPROF_CUDA_STANDALONE_OUTPUT=os.path.join(work, "standalone.json"))
        if nested:
            env["ROCPROF_CUDA_NESTED_DRIVER_API"] = "1"
        return app, env

    def core(nested):
        env = dict(base, CUDA_INJECTION64_PATH=args.plugin, LD_PRELOAD=args.discard_tool,
                   ROCPROFILER_LIBRARY_CTOR="1")
        if nested:
            env["ROCPROF_CUDA_NESTED_DRIVER_API"] = "1"
        return app, env

    def tool(nested, callstack=False):
        # --cuda-api-args: the callback per call this benchmark measures (the default since
        # issue 15 takes the API calls from CUPTI's activity records, without callbacks).
        cmd = [args.rocprofv3, "--sys-trace", "--cuda-api-args", "--output-format", "csv", "-d",
               os.path.join(work, "tool"), "-o", "run"]
        if nested:
            cmd.append("--cuda-nested-driver-trace")
        if callstack:
            cmd.append("--kernel-host-callstack")
        return cmd + ["--"] + app, dict(base)

    configs = {"plugin": lambda: plugin(False), "plugin-nested": lambda: plugin(True),
               "plugin+core": lambda: core(False), "plugin+core-nested": lambda: core(True),
               "tool": lambda: tool(False), "tool-nested": lambda: tool(True),
               "tool-callstack": lambda: tool(False, callstack=True)}
    if args.only:
        configs = {k: v for k, v in configs.items() if k in args.only.split(",")}
    samples = {k: [] for k in configs}
    for _ in range(args.runs):
        for name, make in configs.items():
            cmd, env = make()
            # Records the tool's delivery thread converts: one per runtime call, plus one per
            # nested driver call when those are recorded.
            records = (args.calls * (2 if name.endswith("nested") else 1)
                       if name.startswith("tool") else 0)
            result, p = (run_counted(cmd, env, args.calls, records, work) if args.instructions
                         else run(cmd, env))
            if result is None or result["profiler_ns"] <= 0:
                print(f"{name}: no result (exit {p.returncode})\n{p.stdout[-1500:]}"
                      f"\n{p.stderr[-1500:]}", file=sys.stderr)
                return 1
            samples[name].append(result)

    results = {}
    if args.instructions and (not args.only or "kernel-trace" in args.only.split(",")):
        per_kernel, p = kernel_record_instructions(args, base, work)
        if per_kernel is None:
            print(f"kernel-trace: no result (exit {p.returncode})\n{p.stderr[-1500:]}",
                  file=sys.stderr)
            return 1
        results["kernel-trace"] = {"delivery_instr_per_record": round(per_kernel, 1)}
        print(f"rocprofv3 --kernel-trace, {args.calls} kernel records: "
              f"{per_kernel:.1f} delivery instr/record")
    unit = "instr" if args.instructions else "ns"
    print(f"CUDA API callback cost, {args.calls} runtime calls each with one nested driver call"
          f"{', no two with the same arguments' if args.distinct_args else ''}, "
          f"median of {args.runs}")
    delivery = any("delivery_instr" in r for runs in samples.values() for r in runs)
    print(f"{'configuration':<20} {unit + '/pair':>11} {'minimal':>9} {'ratio':>7}" +
          (f" {'delivery instr/record':>22}" if delivery else ""))
    for name, runs in samples.items():
        added = statistics.median(r["profiler_ns"] - r["empty_ns"] for r in runs)
        minimal = statistics.median(r["minimal_ns"] - r["empty_ns"] for r in runs)
        ratio = added / minimal if minimal > 0 else float("inf")
        results[name] = {"added_" + unit: round(added, 1), "minimal_" + unit: round(minimal, 1),
                         "ratio_to_minimal": round(ratio, 2)}
        line = f"{name:<20} {added:>11.1f} {minimal:>9.1f} {ratio:>6.2f}x"
        if any("delivery_instr" in r for r in runs):
            per_record = statistics.median(r["delivery_instr"] for r in runs)
            results[name]["delivery_instr_per_record"] = round(per_record, 1)
            line += f" {per_record:>22.1f}"
        print(line)
    print("CUDA_CALLBACKS_BENCH " + json.dumps(results))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
