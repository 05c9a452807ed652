#!/usr/bin/env python3
"""Side-by-side overhead of tracing a launch-bound PyTorch loop (torch_loop.py) on one GPU:
no tool, torch.profiler (CPU + CUDA activities), rocprofv3 --kernel-trace,
rocprofv3 --sys-trace (CUDA API calls from CUPTI's API activity records, the default since issue
15; since session 11 without the state queries such as cudaGetDevice, as torch.profiler),
rocprofv3 --sys-trace --cuda-api-queries ("--sys-trace, every call": the queries too, eleven API
calls per kernel of this loop, the default before), rocprofv3 --sys-trace --cuda-api-args
("--sys-trace, api args": a callback per CUDA API call, arguments recorded), and rocprofv3
--sys-trace --cuda-api-include with
the CUDA API functions torch.profiler records of this loop ("--sys-trace, torch.profiler's calls":
on the H100 with torch 2.11 its trace holds cudaLaunchKernel and cudaDeviceSynchronize only, one
API call per kernel where --sys-trace records eleven; the like-for-like comparison).
Configurations are interleaved round by round
(so drift hits all of them alike), in an order shuffled each round (seeded: --seed; no
configuration always runs first or after the same one), each process pinned to the same two
cores; the median µs per iteration of each is reported with its ADDED cost over "no tool" and
the ratios of our added costs to torch.profiler's (issue 15's goals: --sys-trace <= 0.8x,
--kernel-trace <= 0.3x). The same from each configuration's fastest round is printed beside it.
A second table does the same with each process's median part of the loop (torch_loop.py times
--segments equal parts): on the H100 VM the pace of one process moves by up to 2x from one part
to the next (2026-11-25, session 10: 14.2 to 37.4 us per iteration within one "no tool"
process), so the whole loop's time mixes the tool's cost with how long the machine was slow
during it; the median part leaves out parts slowed for a while, and what a tool costs on every
launch stays in every part. Each round line also shows the CPU time the hypervisor took
(/proc/stat steal) while that process ran.

usage: run_torch_overhead.py --rocprofv3 PATH [--rounds 5] [--iterations 20000] [--work DIR]
                             [--segments 20] [--bare LIB] [--plugin LIB] [--only REGEX]
--bare adds the bare CUPTI collector's floors (kernels only; API calls from activity records),
--plugin the CUDA plugin alone (standalone, no CLI, no tool library) in the records mode
(ROCPROF_CUDA_API_RECORDS=1; the plugin alone defaults to callbacks): they
separate what CUPTI costs from what the plugin and the tool add. --only keeps the configurations
whose names match (the "no tool" and torch.profiler baselines always run).
Ends with one line "TORCH_OVERHEAD_RESULT {json}". Exit 77 without a GPU or PyTorch.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "cuda_launch"))
# The same cores (or the machine's first) and the same shuffled order of rounds.
from run_cuda_launch import pin_command, shuffled_rounds  # noqa: E402
SKIP = 77
# The CUDA API functions torch.profiler's trace of this loop holds (H100, torch 2.11).
TORCH_PROFILER_CALLS = ["cudaLaunchKernel", "cudaDeviceSynchronize"]


def cpu_times():
    """(steal, total) jiffies of all CPUs from /proc/stat; (0, 0) where it cannot be read."""
    try:
        with open("/proc/stat") as f:
            fields = [int(v) for v in f.readline().split()[1:]]
    except (OSError, ValueError):
        return 0, 0
    return (fields[7] if len(fields) > 7 else 0), sum(fields[:8])


def run_once(cmd, env):
    """(whole loop µs per iteration, its parts' µs per iteration, steal %) or SKIP."""
    steal0, total0 = cpu_times()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    steal1, total1 = cpu_times()
    if p.returncode == SKIP:
        return SKIP
    whole, parts = None, []
    for line in p.stdout.splitlines():
        if line.startswith("TORCH_LOOP_US_PER_OP "):
            whole = float(line.split()[1])
        elif line.startswith("TORCH_LOOP_SEGMENTS_US "):
            parts = [float(v) for v in line.split()[1:]]
    if whole is None:
        raise RuntimeError(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stdout[-2000:]}\n"
                           f"{p.stderr[-3000:]}")
    steal = 100.0 * (steal1 - steal0) / (total1 - total0) if total1 > total0 else 0.0
    return whole, parts or [whole], steal


def added_table(title, per_process, configs):
    """Prints µs per iteration (median over rounds of `per_process`), the added cost over no
    tool and its ratio to torch.profiler's, with the same from the fastest round; returns
    (median, added, ratios, fastest added, fastest ratios)."""
    median = {name: statistics.median(v) for name, v in per_process.items()}
    fastest = {name: min(v) for name, v in per_process.items()}
    added = {n: median[n] - median["no tool"] for n in configs if n != "no tool"}
    added_fastest = {n: fastest[n] - fastest["no tool"] for n in configs if n != "no tool"}
    print(f"\n{title}")
    print(f"{'configuration':36s} {'us/op':>8s} {'added us/op':>12s} {'vs torch.profiler':>18s}"
          f" {'fastest added':>14s} {'vs torch':>9s}")
    print(f"{'no tool':36s} {median['no tool']:8.3f} {'':>12s}")
    ratios, ratios_fastest = {}, {}
    for name, value in added.items():
        t, tf = added["torch.profiler"], added_fastest["torch.profiler"]
        ratios[name] = value / t if t > 0 else float("nan")
        ratios_fastest[name] = added_fastest[name] / tf if tf > 0 else float("nan")
        print(f"{name:36s} {median[name]:8.3f} {value:12.3f} {ratios[name]:17.2f}x"
              f" {added_fastest[name]:14.3f} {ratios_fastest[name]:8.2f}x")
    return median, added, ratios, added_fastest, ratios_fastest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rocprofv3", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=20000)
    parser.add_argument("--work", default=None)
    parser.add_argument("--cores", default="2,3")
    parser.add_argument("--bare", default=None, help="libbare_cupti_collector.so")
    parser.add_argument("--plugin", default=None, help="librocprofiler-sdk-cuda-standalone.so")
    parser.add_argument("--only", default=None, help="regex of configurations to run")
    parser.add_argument("--seed", type=int, default=1, help="seed of the rounds' order")
    parser.add_argument("--segments", type=int, default=20,
                        help="parts of the loop timed apart (torch_loop.py --segments)")
    args = parser.parse_args()
    if not os.path.exists("/dev/nvidia0"):
        print("SKIP torch_overhead: no NVIDIA GPU (/dev/nvidia0)")
        return SKIP
    work = args.work or tempfile.mkdtemp(prefix="torch_overhead_")
    pin = pin_command(args.cores)
    loop = [sys.executable, os.path.join(HERE, "torch_loop.py"),
            "--iterations", str(args.iterations), "--segments", str(args.segments)]
    configs = {
        "no tool": loop + ["--profiler", "none"],
        "torch.profiler": loop + ["--profiler", "torch"],
        "rocprofv3 --kernel-trace": [args.rocprofv3, "--kernel-trace", "-d",
                                     os.path.join(work, "kernel"), "--"] + loop,
        # The kernel-only path before issue 15 (a launch callback per launch), for comparison.
        "--kernel-trace, callbacks": ["env", "ROCPROF_CUDA_LAUNCH_CALLBACKS=1", args.rocprofv3,
                                      "--kernel-trace", "-d", os.path.join(work, "kernel_cb"),
                                      "--"] + loop,
        # API calls from CUPTI's API activity records, no callback per call (the default).
        "rocprofv3 --sys-trace": [args.rocprofv3, "--sys-trace", "-d",
                                  os.path.join(work, "sys"), "--"] + loop,
        # Every API call, the state queries included (the default before session 11).
        "--sys-trace, every call": [args.rocprofv3, "--sys-trace", "--cuda-api-queries", "-d",
                                    os.path.join(work, "sys_every"), "--"] + loop,
        # A callback per API call with its arguments (the default before issue 15's records).
        "--sys-trace, api args": [args.rocprofv3, "--sys-trace", "--cuda-api-args",
                                  "-d", os.path.join(work, "sys_args"), "--"] + loop,
        # The API calls torch.profiler records, and everything else of --sys-trace.
        "--sys-trace, torch.profiler's calls": [args.rocprofv3, "--sys-trace",
                                                "--cuda-api-include", *TORCH_PROFILER_CALLS,
                                                "-d", os.path.join(work, "sys_torch_calls"),
                                                "--"] + loop,
    }
    sys_domains = "runtime,driver,kernel,memcpy,memset,alloc,code"
    if args.bare:
        configs["bare CUPTI, kernels"] = ["env", f"CUDA_INJECTION64_PATH={args.bare}",
                                          "BARE_CUPTI_MODE=kernel"] + loop
        configs["bare CUPTI, api records"] = ["env", f"CUDA_INJECTION64_PATH={args.bare}",
                                              "BARE_CUPTI_MODE=records"] + loop
        # The same with system thread ids (gettid), which the plugin asks CUPTI for.
        configs["bare CUPTI, api records, system tids"] = [
            "env", f"CUDA_INJECTION64_PATH={args.bare}", "BARE_CUPTI_MODE=records",
            "BARE_CUPTI_SYSTEM_TIDS=1"] + loop
        configs["bare CUPTI, torch.profiler's calls"] = [
            "env", f"CUDA_INJECTION64_PATH={args.bare}", "BARE_CUPTI_MODE=records",
            "BARE_CUPTI_SYSTEM_TIDS=1", "BARE_CUPTI_TORCH_SET=1"] + loop
    if args.plugin:
        configs["plugin alone, api records"] = [
            "env", f"CUDA_INJECTION64_PATH={args.plugin}", "ROCPROF_CUDA_API_RECORDS=1",
            f"ROCPROF_CUDA_DOMAINS={sys_domains}",
            f"ROCPROF_CUDA_STANDALONE_OUTPUT={os.path.join(work, 'plugin_records.json')}"] + loop
    if args.only:
        keep = re.compile(args.only)
        configs = {name: cmd for name, cmd in configs.items()
                   if name in ("no tool", "torch.profiler") or keep.search(name)}
    samples = {name: [] for name in configs}  # whole loop, µs per iteration, one per round
    part_medians = {name: [] for name in configs}  # each process's median part
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    # (A rotation instead of the shuffle kept --kernel-trace after torch.profiler in most rounds.)
    for r, order in enumerate(shuffled_rounds(list(configs), args.rounds, args.seed)):
        for name in order:
            measured = run_once(pin + configs[name], env)
            if measured == SKIP:
                print("SKIP torch_overhead: PyTorch or CUDA unavailable")
                return SKIP
            whole, parts, steal = measured
            samples[name].append(whole)
            part_medians[name].append(statistics.median(parts))
            print(f"round {r + 1}: {name:36s} {whole:8.3f} us/op, median part "
                  f"{statistics.median(parts):8.3f} (parts {min(parts):.1f}-{max(parts):.1f}), "
                  f"steal {steal:.1f}%", flush=True)
    median, added, ratios, added_fastest, ratios_fastest = added_table(
        f"median of {args.rounds} interleaved rounds, {args.iterations} iterations each, whole "
        "loop (fastest rounds: the last two columns)", samples, configs)
    p_median, p_added, p_ratios, _, _ = added_table(
        f"the same from each process's median part ({args.segments} parts of the loop)",
        part_medians, configs)
    result = {"iterations": args.iterations, "rounds": args.rounds, "seed": args.seed,
              "segments": args.segments,
              "median_us_per_op": median, "fastest_us_per_op": {n: min(v) for n, v in
                                                                 samples.items()},
              "added_us_per_op": added, "added_vs_torch_profiler": ratios,
              "fastest_added_us_per_op": added_fastest,
              "fastest_added_vs_torch_profiler": ratios_fastest,
              "median_part_us_per_op": p_median, "median_part_added_us_per_op": p_added,
              "median_part_added_vs_torch_profiler": p_ratios,
              "goals": {"rocprofv3 --sys-trace": 0.8, "--sys-trace, torch.profiler's calls": 0.8,
                        "rocprofv3 --kernel-trace": 0.3}}
    print("TORCH_OVERHEAD_RESULT " + json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
