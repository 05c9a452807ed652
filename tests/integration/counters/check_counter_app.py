#!/usr/bin/env python3
"""Per-kernel counters on the H100 through the public SDK counter API (issue 10, items 1, 6, 7):
runs tests/apps/counter_app under counter_check_tool (LD_PRELOAD) with the CUDA plugin injected
(CUDA_INJECTION64_PATH: on NVIDIA the driver loads the backend; a tool preloaded alone has no
backend to talk to, so this is what rocprofv3 and tests/integration/samples do too), and checks,
for every dispatch, against what the program says its kernels do:
  * SQ_WAVES and smsp__warps_launched.sum = the launched warps, exactly;
  * FFMA thread instructions of fma_loop, exactly;
  * FETCH_SIZE x 1024 and dram__bytes_read.sum, WRITE_SIZE x 1024 and dram__bytes_write.sum of
    the streaming copy = the bytes it moves, within 2 %;
  * every dispatch, the graph kernels' included (unless ROCPROF_CUDA_COUNT_GRAPHS=0), has every
    counter with the values expected of its kernel, and every counter row joins the kernel trace
    on dispatch id and correlation id;
  * a group that needs several passes (kernel replay) still gives every counter for every
    dispatch, with exact warps.
It prints each measured value's ratio to the expected one, the passes, and the wall times of
the program alone, under the tool with no dispatch selected, and with every dispatch counted.

usage: check_counter_app.py COUNTER_APP COUNTER_CHECK_TOOL WORK_DIR [CUDA_PLUGIN]
CUDA_PLUGIN defaults to rocprofiler-sdk/librocprofiler-sdk-cuda.so beside the tool (the build
tree's and the install's lib/ layout); the core is looked up beside the plugin's folder.
exit 77 (CTest skip) without a GPU.
"""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cuda"))
import cuda_checks as cc  # noqa: E402

ONE_PASS = ["SQ_WAVES", "smsp__warps_launched.sum", "smsp__inst_executed.sum",
            "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "FETCH_SIZE", "WRITE_SIZE",
            "dram__bytes_read.sum", "dram__bytes_write.sum"]
# Several passes on the H100 (cupti-notes' 12-metric group plus the warps).
MULTI_PASS = ["SQ_WAVES", "smsp__inst_executed.sum", "sm__cycles_elapsed.max",
              "dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sectors.sum",
              "lts__t_sectors_op_read.sum", "lts__t_sectors_op_write.sum",
              "l1tex__t_sectors.sum", "l1tex__t_requests.sum", "sm__inst_executed_pipe_fma.sum",
              "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "sm__warps_active.sum",
              "gpc__cycles_elapsed.max"]


PLUGIN = None


def run(app, tool, work, tag, counters, select="all", args=()):
    out = os.path.join(work, f"{tag}.jsonl")
    env = dict(os.environ)
    if tool:
        core_dir = os.path.dirname(os.path.dirname(os.path.abspath(PLUGIN)))
        env.update(LD_PRELOAD=tool, CUDA_INJECTION64_PATH=PLUGIN,
                   LD_LIBRARY_PATH=os.pathsep.join(
                       p for p in (core_dir, os.environ.get("LD_LIBRARY_PATH")) if p),
                   COUNTER_CHECK_OUTPUT=out, COUNTER_CHECK_COUNTERS=",".join(counters),
                   COUNTER_CHECK_SELECT=select)
    t0 = time.monotonic()
    p = subprocess.run([app, *args], env=env, capture_output=True, text=True, timeout=600)
    wall = time.monotonic() - t0
    print(f"-- {tag}: exit {p.returncode}, {wall:.3f} s")
    if p.returncode != 0:
        print(p.stdout[-3000:], p.stderr[-3000:])
    rows = []
    if tool and os.path.exists(out):
        with open(out) as f:
            rows = [json.loads(line) for line in f if line.strip()]
        cc.copy_to_out(out)
    return p, wall, rows


def by_dispatch(rows):
    symbols = {r["symbol"]: r["name"] for r in rows if "symbol" in r}
    kernels = {r["dispatch_id"]: r for r in rows if "kernel" in r}
    values = {}
    for r in rows:
        if "counter" in r:
            values.setdefault(r["dispatch_id"], {})[r["counter"]] = r
    return symbols, kernels, values


def kernel_kind(name, expect):
    for kind in expect:
        if kind in name:
            return kind
    return None


def check_run(c, tag, rows, expect, summary, counters, exact_only=False):
    symbols, kernels, values = by_dispatch(rows)
    config = [r for r in rows if "config" in r]
    for r in config:
        print(f"   {tag}: config of agent {r['config']}: {r['passes']} pass(es); "
              f"missing: {r['missing'] or 'none'}")
        c.eq(r["missing"], "", f"{tag}: every requested counter exists")
    c.eq(len(kernels), summary["kernels"], f"{tag}: kernel trace has every dispatch")
    # Kernel replay must not add kernel records: one record per dispatch.
    c.eq(sum(1 for r in rows if "kernel" in r), summary["kernels"],
         f"{tag}: one kernel record per dispatch")
    graph = [d for d, k in kernels.items() if k["graph_id"] != 0]
    # Kernels run by CUDA graphs are counted too, unless ROCPROF_CUDA_COUNT_GRAPHS=0
    # (libprofiler/backends/cuda/counters/launch_counting.cpp).
    uncounted = 0 if os.environ.get("ROCPROF_CUDA_COUNT_GRAPHS") != "0" else len(graph)
    c.eq(len(values), len(kernels) - uncounted, f"{tag}: every dispatch has values"
         + ("" if uncounted == 0 else " but the graphs'"))
    joined = sum(1 for r in rows if "counter" in r and r["dispatch_id"] in kernels
                 and kernels[r["dispatch_id"]]["correlation_id"] == r["correlation_id"])
    total = sum(1 for r in rows if "counter" in r)
    c.eq(joined, total, f"{tag}: counter rows joining the kernel trace on dispatch and correlation id")
    c.eq(len(graph), summary["graph_kernels"], f"{tag}: graph kernels in the trace")
    c.eq(sum(1 for d in graph if d in values), len(graph) - uncounted,
         f"{tag}: graph kernels with values")
    ratios = {}
    for d, k in kernels.items():
        kind = kernel_kind(symbols.get(k["kernel"], ""), expect)
        if k["graph_id"] != 0 and uncounted:
            continue
        got = values.get(d, {})
        c.eq(sorted(got), sorted(set(counters)), f"{tag}: dispatch {d} has every counter")
        if kind is None:
            continue
        e = expect[kind]
        for name, want, scale, tolerance in (
                ("SQ_WAVES", e["warps"], 1, 0), ("smsp__warps_launched.sum", e["warps"], 1, 0),
                ("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", e["ffma"], 1, 0),
                ("FETCH_SIZE", e["dram_read"], 1024, 0.02), ("dram__bytes_read.sum", e["dram_read"], 1, 0.02),
                ("WRITE_SIZE", e["dram_write"], 1024, 0.02), ("dram__bytes_write.sum", e["dram_write"], 1, 0.02)):
            if name not in got or (exact_only and tolerance):
                continue
            if want == 0 and tolerance:
                continue  # only the copy's DRAM traffic is known
            value = got[name]["value"] * scale
            ratios.setdefault((kind, name), []).append(value / want if want else float(value == 0))
            ok = value == want if tolerance == 0 else abs(value - want) <= tolerance * want
            c.check(ok, f"{tag}: {kind} dispatch {d} {name} = {value:g}, want {want:g}"
                        f"{'' if tolerance == 0 else f' within {tolerance:.0%}'}")
    for (kind, name), rs in sorted(ratios.items()):
        print(f"   {tag}: {kind:12s} {name:52s} ratio to expected: min {min(rs):.4f} "
              f"max {max(rs):.4f} over {len(rs)} dispatches")


def main():
    global PLUGIN
    app, tool, work = sys.argv[1:4]
    PLUGIN = sys.argv[4] if len(sys.argv) > 4 else os.path.join(
        os.path.dirname(os.path.abspath(tool)), "rocprofiler-sdk", "librocprofiler-sdk-cuda.so")
    cc.require_gpu("counters.counter_app")
    print(f"   tool {tool}, CUDA plugin {PLUGIN}")
    if not os.path.exists(PLUGIN):
        print(f"FAIL the CUDA plugin {PLUGIN} does not exist")
        return 1
    os.makedirs(work, exist_ok=True)
    c = cc.checker("counter_app")

    base, t_base, _ = run(app, None, work, "baseline", [])
    c.eq(base.returncode, 0, "counter_app alone")
    expect = cc.counter_app_expectations(base.stdout)
    summary = cc.summary_from(base.stdout, "COUNTER_APP_SUMMARY")
    print(f"   expectations: {json.dumps(expect)}")

    p, t_none, rows = run(app, tool, work, "unselected", ONE_PASS, select="none")
    c.eq(p.returncode, 0, "under the tool, no dispatch selected")
    calls = [r["dispatch_callbacks"] for r in rows if "dispatch_callbacks" in r]
    # Graph kernels reach the dispatch callback too, unless graph counting is off (check_run).
    graphs_asked = os.environ.get("ROCPROF_CUDA_COUNT_GRAPHS") != "0"
    c.eq(calls, [summary["kernels"] - (0 if graphs_asked else summary["graph_kernels"])],
         "the dispatch callback ran once per kernel")
    c.eq(sum(1 for r in rows if "counter" in r), 0, "no values without a config")

    p, t_all, rows = run(app, tool, work, "one_pass", ONE_PASS)
    c.eq(p.returncode, 0, "under the tool, every dispatch counted (one-pass group)")
    check_run(c, "one_pass", rows, expect, summary, ONE_PASS)

    p, t_multi, rows = run(app, tool, work, "multi_pass", MULTI_PASS, args=["--iterations", "20"])
    c.eq(p.returncode, 0, "under the tool, a multi-pass group (kernel replay)")
    summary20 = dict(summary, kernels=summary["kernels"] - 2 * (summary["iterations"] - 20))
    check_run(c, "multi_pass", rows, expect, summary20, MULTI_PASS, exact_only=True)

    n = summary["kernels"]
    print(f"   wall: alone {t_base:.3f} s; tool, none selected {t_none:.3f} s "
          f"({(t_none - t_base) / n * 1e6:.1f} us per dispatch over the program alone, set-up "
          f"included); every dispatch counted {t_all:.3f} s "
          f"({(t_all - t_none) / n * 1e3:.2f} ms per counted dispatch); multi-pass "
          f"{t_multi:.3f} s for {summary20['kernels']} dispatches")
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
