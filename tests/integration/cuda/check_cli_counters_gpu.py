#!/usr/bin/env python3
"""`rocprofv3 --pmc` on the GPU (label gpu; exit 77 without one). Cases:

  agreement  per-kernel values against Nsight Compute on the same program
             (`ncu --metrics ... --csv --cache-control none --clock-control none`): instruction and
             warp counts exactly, DRAM bytes within 2 %, cycles within 10 %; 4 native metrics and
             4 rocprofv3 names (computed on the ncu side from the metrics their definitions use);
             every ratio printed, and how many kernels each metric was compared on. Both tools
             measure under the same conditions: the GPU's own clock (ncu's default `base` locks
             the base clock, so its cycle counts were 1.24-1.6x fewer than a run at boost clock)
             and warm caches (ncu's default `all` flushes the caches before each kernel; the range
             profiler does not, so a kernel's DRAM writes include write-backs of the previous
             kernel's dirty L2 lines and its reads miss less). DRAM bytes are compared only where
             the kernel's own traffic dominates what the 50 MiB L2 can shift between kernels
             (ncu's value >= 64 MiB); the smaller ones are printed, not judged. The issue's own
             check: FETCH_SIZE and WRITE_SIZE of counter_app's streaming copy equal the bytes it
             moves (its COUNTER_APP_EXPECT line) within 2 %. Cycle counts are judged in a second
             pair of runs with the cycle metrics alone (one pass, no replay: see CYCLES)
  cost       wall time of `rocprofv3 --pmc` against `ncu --metrics` with the same metrics on the
             same program, the cost of dispatches the kernel filter leaves out, and the overhead
             per counted kernel in microseconds; on counter_app judged without its graph (graph
             launches are counted with kernel replay), the whole program printed too
  modes      the collection modes of a one-pass group (ROCPROF_CUDA_COUNTER_MODE=kernel:
             Start/Stop and kernel replay around each launch; auto, the default: batched for a
             one-pass group without elapsed-time metrics, else kernel; kernel-batched: kernel
             replay, decoded once per batch of launches; user: Start/Stop per launch with user
             replay; batched: user replay, decoded once per batch): wall time of each, the
             phase timing table (ROCPROF_CUDA_COUNTER_TIMING=1), and the same instruction and
             warp counts for every dispatch in every mode (a batch that mapped a range to the
             wrong dispatch would differ)
  multipass  a group of several hardware passes (cuda_checks.MULTIPASS_GROUP) is refused without
             --replay-mode; with --replay-mode kernel, and as the suggested split in several --pmc
             flags: every counter for every selected dispatch (missing ones are counted)
  multiplex  pmc_groups [[SQ_WAVES, GRBM_COUNT], [GRBM_GUI_ACTIVE]]: group (Dispatch_Id - 1) % 2
             (rocprofv3's multiplex test), every counter present
  join       --kernel-trace with --pmc: every counter row joins kernel_trace.csv on Dispatch_Id
             (same kernel, correlation id and agent); the kernel filters and the iteration range
             choose the counted dispatches; kernels counted with kernel replay (GRBM_COUNT) carry
             their launch's start and their own duration in both files
  torch      PyTorch x @ x under --pmc SQ_WAVES GRBM_COUNT names its GEMM kernel with values

The program is tests/apps/counter_app when built (its kernels are known: a streaming copy, an FMA
loop, vec_add, a graph), else tests/apps/cuda_app. Prints "COUNTERS_GPU_RESULT {json}" lines with
the numbers (docs/gpu-verification.md, docs/performance.md).

usage: check_cli_counters_gpu.py CASE --rocprofv3 PATH --app PATH [--app-args ...] [--ncu PATH]
                                 [--work DIR] [--torch-script PATH]
"""
import argparse
import collections
import csv
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuda_checks as cc  # noqa: E402

# (name, ncu metrics it is built from, value from those metrics, tolerance: 0 exact, else relative)
NATIVE = [("smsp__inst_executed.sum", ["smsp__inst_executed.sum"], lambda m: m[0], 0.0),
          ("smsp__warps_launched.sum", ["smsp__warps_launched.sum"], lambda m: m[0], 0.0),
          ("dram__bytes_read.sum", ["dram__bytes_read.sum"], lambda m: m[0], 0.02),
          ("sm__cycles_elapsed.max", ["sm__cycles_elapsed.max"], lambda m: m[0], 0.10)]
NAMED = [("SQ_WAVES", ["smsp__warps_launched.sum"], lambda m: m[0], 0.0),
         ("SQ_INSTS_VMEM_RD", ["smsp__inst_executed_op_global_ld.sum",
                               "smsp__inst_executed_op_local_ld.sum",
                               "smsp__inst_executed_op_generic_ld.sum"], sum, 0.0),
         ("FETCH_SIZE", ["dram__bytes_read.sum"], lambda m: m[0] / 1024, 0.02),
         ("WRITE_SIZE", ["dram__bytes_write.sum"], lambda m: m[0] / 1024, 0.02),
         ("GRBM_COUNT", ["gpc__cycles_elapsed.max"], lambda m: m[0], 0.10)]

# Metrics in DRAM bytes (scale to bytes): compared only where ncu's value is at least
# DRAM_FLOOR bytes (see the docstring); smaller values are printed only.
DRAM_BYTES = {"dram__bytes_read.sum": 1, "FETCH_SIZE": 1024, "WRITE_SIZE": 1024}
DRAM_FLOOR = 64 << 20

ARGS = None


def result(case, **values):
    print("COUNTERS_GPU_RESULT " + json.dumps(dict(case=case, **values)))


def run(cmd, timeout=900, env=None):
    start = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    elapsed = time.perf_counter() - start
    print(f"$ {' '.join(cmd[:12])}{' ...' if len(cmd) > 12 else ''} -> {p.returncode} "
          f"({elapsed:.2f} s)")
    if p.returncode != 0:
        print(p.stdout[-2000:], p.stderr[-4000:])
    return p, elapsed


def app_cmd():
    return [ARGS.app] + ARGS.app_args


def rocprofv3(out, *options, env=None, app=None):
    shutil.rmtree(out, ignore_errors=True)
    return run([ARGS.rocprofv3, *options, "-f", "csv", "-d", out, "-o", "run", "--"]
               + (app or app_cmd()), env=env)


def csv_rows(out, stem):
    files = glob.glob(os.path.join(out, "**", f"run_{stem}.csv"), recursive=True)
    rows = []
    for path in sorted(files):
        with open(path, newline="") as f:
            rows += list(csv.DictReader(f))
    return rows


def base_name(kernel):
    """'void fill<float>(float*, float, int)' and ncu's 'fill<float>(float *, float, int)' -> fill."""
    kernel = re.sub(r"^void ", "", kernel.strip())
    return re.split(r"[<(]", kernel, 1)[0].strip()


def counter_values(rows):
    """{(kernel base name, occurrence): {counter: value}} in dispatch order."""
    by_dispatch = collections.OrderedDict()
    for r in sorted(rows, key=lambda r: int(r["Dispatch_Id"])):
        entry = by_dispatch.setdefault(int(r["Dispatch_Id"]), (r["Kernel_Name"], {}))
        entry[1][r["Counter_Name"]] = float(r["Counter_Value"])
    return by_occurrence(by_dispatch.values())


def by_occurrence(launches):
    """[(kernel name, values)] in launch order -> {(base name, n-th launch of it): values}."""
    seen = collections.Counter()
    out = {}
    for name, values in launches:
        key = (base_name(name), seen[base_name(name)])
        seen[base_name(name)] += 1
        out[key] = values
    return out


def ncu_values(metrics, app=None):
    """{(kernel base name, occurrence): {metric: value}} from ncu's CSV (thousands separators)."""
    # Same conditions as the app under rocprofv3: warm caches, the GPU's own clock (docstring).
    p, elapsed = run([ARGS.ncu, "--metrics", ",".join(metrics), "--csv", "--cache-control", "none",
                      "--clock-control", "none"] + (app or app_cmd()))
    text = p.stdout
    start = text.find('"ID","Process ID"')
    rows = list(csv.DictReader(text[start:].splitlines())) if start >= 0 else []
    launches = collections.OrderedDict()
    for r in rows:
        entry = launches.setdefault(int(r["ID"]), (r["Kernel Name"], {}))
        value = r["Metric Value"].replace(",", "")
        try:
            entry[1][r["Metric Name"]] = float(value)
        except ValueError:
            pass
    return by_occurrence(launches.values()), elapsed, p.returncode


# Cycle counts are judged in a run of their own (one pass, no replay, for both tools): in a
# replayed group the pass that reads them runs with whatever the previous pass left in the L2
# (ncu's and ours differ), so a kernel whose data fits the L2 (vec_add, 48 MiB) reads 0.75x the
# cycles in ncu's later pass. With one pass both see the program's own cache state.
CYCLES = {"sm__cycles_elapsed.max", "GRBM_COUNT"}


def agreement(c):
    groups = ((NATIVE + NAMED, "8+ metrics, kernel replay", lambda n: n not in CYCLES),
              ([m for m in NATIVE + NAMED if m[0] in CYCLES], "cycles alone, one pass",
               lambda n: n in CYCLES))
    worst = collections.defaultdict(float)
    compared = collections.Counter()
    for index, (group, label, judged_here) in enumerate(groups):
        ncu_metrics = sorted({m for _, ms, _, _ in group for m in ms})
        out = os.path.join(ARGS.work, f"agreement{index}")
        p, _ = rocprofv3(out, "--pmc", *[n for n, _, _, _ in group], "--replay-mode", "kernel")
        c.eq(p.returncode, 0, f"rocprofv3 --pmc ({label})")
        ours = counter_values(csv_rows(out, "counter_collection"))
        theirs, _, rc = ncu_values(ncu_metrics)
        c.eq(rc, 0, f"ncu exit status ({label})")
        compare(c, group, ours, theirs, judged_here, worst, compared)
        if index == 0:
            copy_bytes(c, p.stdout, ours)
            kernels = len(set(ours) & set(theirs))
    for name, _, _, _ in NATIVE + NAMED:
        print(f"  {name}: compared on {compared[name]} kernels, worst |ratio - 1| "
              f"{worst[name]:.4f}")
        c.check(compared[name] > 0, f"{name} compared on at least one kernel")
    result("agreement", kernels=kernels, compared=dict(compared),
           worst_relative_difference=dict(worst))


def compare(c, group, ours, theirs, judged_here, worst, compared):
    common = sorted(set(ours) & set(theirs))
    c.check(len(common) > 0, f"kernels profiled by both ({len(ours)} ours, {len(theirs)} ncu)")
    for key in common:
        for name, metrics, fn, tol in group:
            if name not in ours[key] or any(m not in theirs[key] for m in metrics):
                c.check(False, f"{key}: {name} missing")
                continue
            mine, ref = ours[key][name], fn([theirs[key][m] for m in metrics])
            ratio = mine / ref if ref else (1.0 if mine == 0 else float("inf"))
            why_not = ("" if judged_here(name) else " (not judged here: read in a replay pass)")
            if not why_not and name in DRAM_BYTES and ref * DRAM_BYTES[name] < DRAM_FLOOR:
                why_not = " (not judged: under 64 MiB)"
            print(f"  {key[0]}#{key[1]} {name}: ours {mine:.6g} ncu {ref:.6g} ratio {ratio:.4f}"
                  f"{why_not}")
            if why_not:
                continue
            compared[name] += 1
            worst[name] = max(worst[name], abs(ratio - 1.0))
            if tol == 0.0:
                c.check(mine == ref, f"{key} {name} exact ({mine} vs {ref})")
            else:
                c.check(abs(ratio - 1.0) <= tol, f"{key} {name} within {tol:.0%} ({ratio:.4f})")


def copy_bytes(c, stdout, ours):
    """The issue's check: the streaming copy's FETCH_SIZE and WRITE_SIZE (KiB) = the bytes it
    moves, within 2 % (counter_app prints them on its COUNTER_APP_EXPECT line)."""
    expect = cc.counter_app_expectations(stdout)
    if "stream_copy" not in expect:
        print("  no COUNTER_APP_EXPECT stream_copy line (not counter_app): copy check skipped")
        return
    e, got = expect["stream_copy"], ours.get(("stream_copy", 0), {})
    for name, want in (("FETCH_SIZE", e["dram_read"]), ("WRITE_SIZE", e["dram_write"])):
        value = got.get(name, float("nan")) * 1024
        ratio = value / want if want else float("nan")
        print(f"  stream_copy {name} x 1024 = {value:.6g} bytes, moved {want} bytes, "
              f"ratio {ratio:.4f}")
        c.check(abs(ratio - 1.0) <= 0.02, f"stream_copy {name} = the bytes it moves within 2 %")


def cost(c):
    """The goal is judged on counter_app without its graph (`--no-graph`): every kernel then
    takes the one-pass collection. A graph launch is counted with kernel replay (user replay
    fails there on the H100: launch_counting.hpp), as ncu counts every kernel; the whole
    program's figure is printed too, not judged."""
    one_pass = ["smsp__inst_executed.sum", "smsp__warps_launched.sum", "dram__bytes_read.sum"]
    programs = [("the whole program", app_cmd())]
    if os.path.basename(ARGS.app).startswith("counter_app"):
        programs.append(("without its graph", app_cmd() + ["--no-graph"]))
    for index, (label, app) in enumerate(programs):
        judged = index == len(programs) - 1
        out = os.path.join(ARGS.work, f"cost{index}")
        p_app, t_app = run(app)
        c.eq(p_app.returncode, 0, f"the program alone ({label})")
        p_ours, t_ours = rocprofv3(out, "--pmc", *one_pass, app=app)
        c.eq(p_ours.returncode, 0, f"rocprofv3 --pmc (one pass; {label})")
        counted = len({r["Dispatch_Id"] for r in csv_rows(out, "counter_collection")})
        p_none, t_none = rocprofv3(out + "_filtered", "--pmc", *one_pass, "--kernel-include-regex",
                                   "^no kernel has this name$", app=app)
        c.eq(p_none.returncode, 0, f"rocprofv3 --pmc with every dispatch filtered out ({label})")
        _, t_ncu, rc = ncu_values(one_pass, app)
        c.eq(rc, 0, f"ncu --metrics (same metrics; {label})")
        # For the record, not judged: ncu as most people run it (its defaults flush the caches
        # before each kernel and lock the clocks at base). The goal is judged against the
        # cheaper run above, the one whose values ours are compared with.
        _, t_ncu_default = run([ARGS.ncu, "--metrics", ",".join(one_pass), "--csv"] + app)
        speedup = t_ncu / t_ours if t_ours else 0.0
        per_kernel_us = (t_ours - t_none) / counted * 1e6 if counted else 0.0
        filtered_ms = (t_none - t_app) * 1e3
        print(f"  {label}: program alone {t_app:.3f} s; rocprofv3 --pmc {t_ours:.3f} s ({counted} "
              f"counted dispatches); all filtered out {t_none:.3f} s; ncu {t_ncu:.3f} s")
        print(f"  {label}: rocprofv3 is {speedup:.2f}x faster than ncu{'' if judged else ' (not judged)'}; "
              f"{per_kernel_us:.0f} us per counted kernel; filtered-out run costs "
              f"{filtered_ms:.0f} ms over the program alone")
        print(f"  {label}: ncu with its default cache and clock control {t_ncu_default:.3f} s "
              f"(rocprofv3 {t_ncu_default / t_ours if t_ours else 0.0:.2f}x faster; not judged)")
        c.check(counted > 0, f"dispatches were counted ({label})")
        if judged:
            c.check(speedup >= 3.0,
                    f"at least 3x faster than ncu for a one-pass group ({speedup:.2f}x)")
        result("cost", program=label, judged=judged, program_s=t_app, rocprofv3_s=t_ours,
               filtered_s=t_none, ncu_s=t_ncu, ncu_default_controls_s=t_ncu_default,
               counted=counted, speedup=speedup, per_counted_kernel_us=per_kernel_us,
               filtered_extra_ms=filtered_ms)


MODES = ("kernel", "auto", "kernel-batched", "user", "batched", "app", "app-batched")


def modes(c):
    exact = ["smsp__inst_executed.sum", "smsp__warps_launched.sum"]
    group = exact + ["dram__bytes_read.sum"]
    _, t_app = run(app_cmd())
    values, times = {}, {}
    for mode in MODES:
        env = dict(os.environ, ROCPROF_CUDA_COUNTER_MODE=mode, ROCPROF_CUDA_COUNTER_TIMING="1")
        out = os.path.join(ARGS.work, f"modes_{mode}")
        p, times[mode] = rocprofv3(out, "--pmc", *group, env=env)
        c.eq(p.returncode, 0, f"rocprofv3 --pmc in mode {mode}")
        table = [line for line in p.stderr.splitlines()
                 if "counter timing" in line or line.startswith("  ")]
        print(f"  mode {mode}: {times[mode]:.3f} s\n" + "\n".join(table[-16:]))
        for line in p.stderr.splitlines():
            if "counters:" in line:
                print(f"  mode {mode} warned: {line}")
        rows = csv_rows(out, "counter_collection")
        values[mode] = counter_values(rows)
        per_dispatch = collections.defaultdict(set)
        for r in rows:
            per_dispatch[r["Dispatch_Id"]].add(r["Counter_Name"])
        missing = missing_counters(per_dispatch, group)
        c.check(per_dispatch and not missing, f"{mode}: every counter for every dispatch "
                                              f"({len(per_dispatch)} dispatches)")
    reference = values["kernel"]
    for mode in MODES[1:]:
        c.eq(sorted(values[mode]), sorted(reference), f"{mode}: the same dispatches as kernel mode")
        differ = [(k, m) for k in reference for m in exact
                  if k in values[mode] and values[mode][k].get(m) != reference[k].get(m)]
        for k, m in differ[:10]:
            print(f"  {mode} {k[0]}#{k[1]} {m}: {values[mode][k].get(m)} vs kernel mode "
                  f"{reference[k].get(m)}")
        c.check(not differ, f"{mode}: instruction and warp counts equal kernel mode's on every "
                            f"dispatch ({len(differ)} differ)")
    counted = len(reference)
    per_kernel = {m: (times[m] - t_app) / counted * 1e6 if counted else 0.0 for m in MODES}
    print("  " + "; ".join(f"{m} {times[m]:.3f} s ({per_kernel[m]:.0f} us per counted kernel "
                           f"over the program alone, {t_app:.3f} s)" for m in MODES))
    result("modes", program_s=t_app, counted=counted, seconds=times,
           per_counted_kernel_us=per_kernel)


def missing_counters(per_dispatch, want):
    """{counter: dispatches without it}, printed so that a failure says what is missing."""
    missing = collections.Counter()
    for names in per_dispatch.values():
        for name in set(want) - names:
            missing[name] += 1
    for name, n in sorted(missing.items()):
        print(f"  {name}: missing on {n} of {len(per_dispatch)} dispatches")
    return missing


def multipass(c):
    group = cc.MULTIPASS_GROUP  # 2 hardware passes (CUPTI's plan for GH100)
    out = os.path.join(ARGS.work, "multipass")
    p, _ = rocprofv3(out + "_refused", "--pmc", *group)
    c.check(p.returncode != 0 and "hardware passes" in p.stderr,
            "without --replay-mode the group is refused before launch")
    p, _ = rocprofv3(out, "--pmc", *group, "--replay-mode", "kernel")
    c.eq(p.returncode, 0, "--replay-mode kernel")
    rows = csv_rows(out, "counter_collection")
    per_dispatch = collections.defaultdict(set)
    for r in rows:
        per_dispatch[r["Dispatch_Id"]].add(r["Counter_Name"])
    missing_counters(per_dispatch, group)
    c.check(per_dispatch and all(v == set(group) for v in per_dispatch.values()),
            f"every counter for every dispatch ({len(per_dispatch)} dispatches)")
    split = os.path.join(ARGS.work, "multipass_flags")
    p, _ = rocprofv3(split, *[a for g in cc.MULTIPASS_SPLIT for a in ("--pmc", *g)])
    c.eq(p.returncode, 0, "several --pmc flags (the split the refusal suggests)")
    passes = sorted(glob.glob(os.path.join(split, "pass_*")))
    c.eq(len(passes), len(cc.MULTIPASS_SPLIT), "one run per --pmc flag")
    for want, d in zip(cc.MULTIPASS_SPLIT, passes):
        rows = []
        for path in glob.glob(os.path.join(d, "**", "run_counter_collection.csv"), recursive=True):
            with open(path, newline="") as f:
                rows += list(csv.DictReader(f))
        got = collections.defaultdict(set)
        for r in rows:
            got[r["Dispatch_Id"]].add(r["Counter_Name"])
        missing_counters(got, want)
        c.check(got and all(v == set(want) for v in got.values()),
                f"{d}: every counter of its group ({len(got)} dispatches)")
    result("multipass", dispatches=len(per_dispatch), counters=len(group))


def multiplex(c):
    out = os.path.join(ARGS.work, "multiplex")
    os.makedirs(ARGS.work, exist_ok=True)
    jobs = os.path.join(ARGS.work, "multiplex.yaml")
    with open(jobs, "w") as f:
        f.write("jobs:\n  - pmc_groups: [[SQ_WAVES, GRBM_COUNT], [GRBM_GUI_ACTIVE]]\n"
                "    pmc_group_interval: 1\n")
    p, _ = run([ARGS.rocprofv3, "-i", jobs, "-f", "csv", "-d", out, "-o", "run", "--"] + app_cmd())
    c.eq(p.returncode, 0, "pmc_groups run")
    rows = csv_rows(out, "counter_collection")
    groups = [{"SQ_WAVES", "GRBM_COUNT"}, {"GRBM_GUI_ACTIVE"}]
    per_dispatch = collections.defaultdict(set)
    for r in rows:
        per_dispatch[int(r["Dispatch_Id"])].add(r["Counter_Name"])
    wrong = [d for d, names in per_dispatch.items() if names != groups[(d - 1) % 2]]
    c.check(per_dispatch and not wrong, f"group (Dispatch_Id - 1) % 2 (wrong: {wrong[:5]})")
    c.check(set().union(*per_dispatch.values()) == groups[0] | groups[1], "every counter appears")
    result("multiplex", dispatches=len(per_dispatch))


def join(c):
    out = os.path.join(ARGS.work, "join")
    p, _ = rocprofv3(out, "--kernel-trace", "--pmc", "SQ_WAVES", "smsp__inst_executed.sum")
    c.eq(p.returncode, 0, "--kernel-trace --pmc")
    kernel_rows = csv_rows(out, "kernel_trace")
    kernels = {r["Dispatch_Id"]: r for r in kernel_rows}
    # Under user replay the range profiler runs a kernel of its own in each counted launch
    # (CUPTI's WaitNs on the H100), with the launch's ids: it must not share the dispatch id.
    twice = collections.Counter(r["Dispatch_Id"] for r in kernel_rows)
    c.check(all(n == 1 for n in twice.values()),
            f"one kernel record per dispatch id ({sum(n > 1 for n in twice.values())} repeat)")
    # This group is collected without replay by default, and its kernels keep their times.
    # Graph launches are counted with kernel replay, whose kernel records carry none: their
    # nodes take spans laid out from their own durations (graph_counting.hpp).
    per_launch = collections.Counter(r["Correlation_Id"] for r in kernel_rows)
    untimed = [r for r in kernel_rows if per_launch[r["Correlation_Id"]] == 1 and
               (int(r["Start_Timestamp"]) <= 0 or int(r["End_Timestamp"]) < int(r["Start_Timestamp"]))]
    c.check(kernel_rows and not untimed,
            f"every kernel record outside graph launches has its times ({len(untimed)} lack them)")
    rows = csv_rows(out, "counter_collection")
    replayed_graph_times(c, kernel_rows, rows)
    bad = [r for r in rows if r["Dispatch_Id"] not in kernels
           or kernels[r["Dispatch_Id"]]["Kernel_Name"] != r["Kernel_Name"]
           or kernels[r["Dispatch_Id"]]["Correlation_Id"] != r["Correlation_Id"]
           or kernels[r["Dispatch_Id"]]["Agent_Id"] != r["Agent_Id"]]
    c.check(rows and not bad, f"every counter row joins the kernel trace ({len(bad)} do not)")
    counted = {r["Dispatch_Id"] for r in rows}
    # Per kernel: dispatches in the trace and counted ones (says which kernels a count misses).
    traced_by_name = collections.Counter(base_name(k["Kernel_Name"]) for k in kernels.values())
    counted_by_name = collections.Counter(base_name(kernels[d]["Kernel_Name"]) for d in counted
                                          if d in kernels)
    for name in sorted(traced_by_name):
        print(f"  {name}: {traced_by_name[name]} in the trace, {counted_by_name[name]} counted")
    # Graph kernels are counted too (unless ROCPROF_CUDA_COUNT_GRAPHS=0), and counting adds no
    # kernel of its own to the trace.
    summary = (cc.summary_from(p.stdout, "COUNTER_APP_SUMMARY")
               if "COUNTER_APP_SUMMARY" in p.stdout else None)
    graphs_counted = os.environ.get("ROCPROF_CUDA_COUNT_GRAPHS") != "0"
    if summary:
        c.eq(len(kernels), summary["kernels"], "the trace holds the program's kernels only")
        c.eq(len(counted), summary["kernels"] - (0 if graphs_counted else summary["graph_kernels"]),
             "every dispatch counted" + ("" if graphs_counted else " but the graph kernels"))
    else:
        c.eq(len(counted), len(kernels), "every dispatch counted")
    # Filters: the first kernel's base name only, and only its 2nd and 3rd iterations.
    first = base_name(sorted(kernels.values(), key=lambda r: int(r["Dispatch_Id"]))[0]["Kernel_Name"])
    out = os.path.join(ARGS.work, "join_filtered")
    p, _ = rocprofv3(out, "--kernel-trace", "--pmc", "SQ_WAVES", "--kernel-include-regex",
                     "^" + re.escape(first), "--kernel-iteration-range", "[2-3]")
    kernels = csv_rows(out, "kernel_trace")
    rows = csv_rows(out, "counter_collection")
    wanted = [k["Dispatch_Id"] for k in sorted(kernels, key=lambda r: int(r["Dispatch_Id"]))
              if base_name(k["Kernel_Name"]) == first][1:3]
    c.eq(sorted(r["Dispatch_Id"] for r in rows), sorted(wanted),
         "only iterations 2 and 3 of the included kernel are counted; the trace keeps all")
    replayed = replayed_kernel_times(c, kernel_rows)
    parallel_nodes = parallel_graph_values(c)
    result("join", counted=len(rows), kernels=len(kernels), replayed=replayed,
           parallel_graph_nodes=parallel_nodes)


def median_durations(rows):
    """Median duration (ns) per kernel base name of kernel rows that carry times."""
    by_name = collections.defaultdict(list)
    for r in rows:
        if int(r["Start_Timestamp"]) > 0:
            by_name[base_name(r["Kernel_Name"])].append(
                int(r["End_Timestamp"]) - int(r["Start_Timestamp"]))
    return {name: sorted(v)[len(v) // 2] for name, v in by_name.items()}


def durations_are_their_own(c, label, replayed_rows, recorded_rows):
    """Per kernel name: the median duration of rows timed under kernel replay is within 0.5-2x
    of the median CUPTI recorded for the same kernel without replay (`recorded_rows`)."""
    recorded = median_durations(recorded_rows)
    for name, duration in sorted(median_durations(replayed_rows).items()):
        if recorded.get(name, 0) <= 0:
            continue
        ratio = duration / recorded[name]
        print(f"  {label}{name}: {duration / 1e3:.1f} us under kernel replay, "
              f"{recorded[name] / 1e3:.1f} us recorded by CUPTI without it ({ratio:.2f}x)")
        c.check(0.5 <= ratio <= 2.0, f"{label}{name}'s duration under kernel replay is its own "
                f"({ratio:.2f}x CUPTI's record)")


def replayed_kernel_times(c, recorded_rows):
    """An elapsed-time counter is collected with kernel replay, whose kernel records carry no
    times: each kernel row takes its launch's start and the kernel's own duration
    (gpu__time_duration), as its counter rows do; not the replayed launch's span (6-12 ms on the
    H100). `recorded_rows`: kernel rows of a run counted without replay, whose times CUPTI
    recorded; per kernel the durations must be near those. Returns the replayed dispatches."""
    out = os.path.join(ARGS.work, "join_replayed")
    p, _ = rocprofv3(out, "--kernel-trace", "--pmc", "GRBM_COUNT",
                     app=[ARGS.app, "--no-graph", "--iterations", "10"])
    c.eq(p.returncode, 0, "--kernel-trace --pmc GRBM_COUNT")
    replayed = {r["Dispatch_Id"]: r for r in csv_rows(out, "kernel_trace")}
    untimed = [r for r in replayed.values()
               if int(r["Start_Timestamp"]) <= 0 or int(r["End_Timestamp"]) <= int(r["Start_Timestamp"])]
    c.check(replayed and not untimed,
            f"kernels counted with kernel replay have times ({len(untimed)} of {len(replayed)} lack them)")
    replayed_rows = csv_rows(out, "counter_collection")
    apart = [r for r in replayed_rows if r["Dispatch_Id"] not in replayed
             or r["Start_Timestamp"] != replayed[r["Dispatch_Id"]]["Start_Timestamp"]
             or r["End_Timestamp"] != replayed[r["Dispatch_Id"]]["End_Timestamp"]]
    c.check(replayed_rows and not apart,
            f"counter rows and kernel rows of a replayed dispatch share its span ({len(apart)} differ)")
    durations_are_their_own(c, "", replayed.values(), recorded_rows)
    return len(replayed)


def replayed_graph_times(c, kernel_rows, counter_rows):
    """Graph nodes counted with kernel replay (their records untimed) take spans laid out from
    their launch's start and the ranges' durations: every node row is timed, the nodes of one
    launch follow each other without overlap, each node's counter rows carry its kernel row's
    span, and each kernel's duration is near the one CUPTI recorded for it outside the graph
    (`kernel_rows` of a run whose other kernels are counted without replay)."""
    per_launch = collections.defaultdict(list)
    for r in kernel_rows:
        per_launch[r["Correlation_Id"]].append(r)
    nodes = [r for rows in per_launch.values() if len(rows) > 1 for r in rows]
    if not nodes:
        return
    untimed = [r for r in nodes if int(r["Start_Timestamp"]) <= 0
               or int(r["End_Timestamp"]) <= int(r["Start_Timestamp"])]
    c.check(not untimed, f"graph nodes counted with kernel replay have times "
            f"({len(untimed)} of {len(nodes)} lack them)")
    overlapping = 0
    for rows in per_launch.values():
        timed = sorted((int(r["Start_Timestamp"]), int(r["End_Timestamp"])) for r in rows
                       if len(rows) > 1 and int(r["Start_Timestamp"]) > 0)
        overlapping += sum(timed[i][1] > timed[i + 1][0] for i in range(len(timed) - 1))
    c.eq(overlapping, 0, "the nodes of a replayed graph launch follow each other")
    spans = {r["Dispatch_Id"]: (r["Start_Timestamp"], r["End_Timestamp"]) for r in nodes}
    apart = [r for r in counter_rows if r["Dispatch_Id"] in spans
             and (r["Start_Timestamp"], r["End_Timestamp"]) != spans[r["Dispatch_Id"]]]
    c.check(not apart, f"graph nodes' counter rows carry their kernel rows' spans "
            f"({len(apart)} differ)")
    durations_are_their_own(c, "graph node ", nodes,
                            [r for rows in per_launch.values() if len(rows) == 1 for r in rows])


def parallel_graph_values(c):
    """A graph of parallel branches (no copy node): under kernel replay its kernel records carry
    no times, and their arrival order tells which range is whose. Every node of every launch
    gets values, and SQ_WAVES is each kernel's launched warps (vec_add 131 072, fma_loop 256: a
    swapped pair would show). Returns the graph nodes seen."""
    out = os.path.join(ARGS.work, "join_parallel_graph")
    p, _ = rocprofv3(out, "--kernel-trace", "--pmc", "SQ_WAVES",
                     app=[ARGS.app, "--parallel-graph", "--iterations", "2", "--graph-launches", "40"])
    c.eq(p.returncode, 0, "--pmc SQ_WAVES on counter_app --parallel-graph")
    warps = {kernel: e["warps"] for kernel, e in cc.counter_app_expectations(p.stdout).items()}
    parallel = {r["Dispatch_Id"]: r for r in csv_rows(out, "kernel_trace")}
    per_launch = collections.Counter(r["Correlation_Id"] for r in parallel.values())
    graph_ids = {d for d, r in parallel.items() if per_launch[r["Correlation_Id"]] > 1}
    values = {r["Dispatch_Id"]: float(r["Counter_Value"]) for r in csv_rows(out, "counter_collection")}
    missing = [d for d in graph_ids if d not in values]
    wrong = [d for d in graph_ids if d in values and
             values[d] != warps.get(base_name(parallel[d]["Kernel_Name"]))]
    c.eq(len(graph_ids), 80, "80 graph kernels (40 launches of two parallel nodes)")
    c.check(not missing, f"every parallel graph node has values ({len(missing)} lack them)")
    c.check(not wrong, f"every parallel graph node has its own kernel's SQ_WAVES ({len(wrong)} do not)")
    replayed_graph_times(c, list(parallel.values()), csv_rows(out, "counter_collection"))
    return len(graph_ids)


def torch(c):
    script = ARGS.torch_script
    if not script or subprocess.run([sys.executable, "-c", "import torch"]).returncode != 0:
        print("SKIP torch: PyTorch or the script is missing")
        return
    out = os.path.join(ARGS.work, "torch")
    shutil.rmtree(out, ignore_errors=True)
    p, _ = run([ARGS.rocprofv3, "--pmc", "SQ_WAVES", "GRBM_COUNT", "-f", "csv", "-d", out, "-o",
                "run", "--", sys.executable, script])
    c.eq(p.returncode, 0, "rocprofv3 --pmc SQ_WAVES GRBM_COUNT python torch_matmul.py")
    rows = csv_rows(out, "counter_collection")
    gemm = [r for r in rows if "gemm" in r["Kernel_Name"].lower()]
    for r in gemm[:4]:
        print(f"  {r['Kernel_Name'][:120]} {r['Counter_Name']} = {r['Counter_Value']}")
    c.check({r["Counter_Name"] for r in gemm} == {"SQ_WAVES", "GRBM_COUNT"},
            "the GEMM kernel with both counters")
    c.check(all(float(r["Counter_Value"]) > 0 for r in gemm), "non-zero values")
    result("torch", gemm_rows=len(gemm))


CASES = {f.__name__: f for f in (agreement, cost, modes, multipass, multiplex, join, torch)}


def main():
    global ARGS
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("case", choices=sorted(CASES))
    parser.add_argument("--rocprofv3", required=True)
    parser.add_argument("--app", required=True)
    parser.add_argument("--app-args", nargs=argparse.REMAINDER, default=[])
    parser.add_argument("--ncu", default=shutil.which("ncu") or "/usr/local/cuda/bin/ncu")
    parser.add_argument("--work", default="/tmp/cli-counters-gpu")
    parser.add_argument("--torch-script")
    ARGS = parser.parse_args()
    cc.require_gpu(f"cli_counters_gpu.{ARGS.case}")
    if ARGS.case in ("agreement", "cost") and not os.path.exists(ARGS.ncu):
        print(f"SKIP {ARGS.case}: ncu not found at {ARGS.ncu}")
        return cc.SKIP
    os.makedirs(ARGS.work, exist_ok=True)
    c = cc.checker(f"cli_counters_gpu.{ARGS.case}")
    CASES[ARGS.case](c)
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
