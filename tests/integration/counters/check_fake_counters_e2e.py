#!/usr/bin/env python3
"""The whole counter path without a GPU: the real rocprofv3 runs fake_counted_app, whose launches
go through the test backend's counted launch (tests/unit/profiler/test_backend.cpp: fake native
counters of an "sm_90" agent, values known from the grid size), the core's dispatch counting
service, the tool's counter context and every writer. Read back with csv, json and sqlite3:
  * counter_collection.csv: rocprofv3's 19 columns, one row per (dispatch, counter), values as
    the backend's formulas and the shipped definitions give them (SQ_WAVES = warps launched,
    FETCH_SIZE = bytes read / 1024), instances of a dimensioned counter summed;
  * every counter row joins kernel_trace.csv on Dispatch_Id and Correlation_Id;
  * --kernel-iteration-range and pmc_groups choose which dispatches get which counters;
  * several --pmc flags give pass_N folders, each with its own counters;
  * a native counter the agent does not list but the backend collects on request (NVIDIA's
    sub-metrics beyond the roll-ups, such as sm__warps_active.avg.pct_of_peak_sustained_active)
    is counted, not reported "not available";
  * JSON counter_collection and the rocpd counters_collection view hold the same values.

usage: check_fake_counters_e2e.py ROCPROFV3 APP BACKEND_DIR BACKEND_LIB COUNTER_DEFS_DIR WORK CASE
"""
import csv
import glob
import json
import os
import shutil
import sqlite3
import subprocess
import sys

COLUMNS = ["Correlation_Id", "Dispatch_Id", "Agent_Id", "Queue_Id", "Process_Id", "Thread_Id",
           "Grid_Size", "Kernel_Id", "Kernel_Name", "Workgroup_Size", "LDS_Block_Size",
           "Scratch_Size", "VGPR_Count", "Accum_VGPR_Count", "SGPR_Count", "Counter_Name",
           "Counter_Value", "Start_Timestamp", "End_Timestamp"]
LAUNCHES = 8
A = {}
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def expected(counter, grid):
    return {"SQ_WAVES": grid / 32, "smsp__warps_launched.sum": grid / 32,
            "FETCH_SIZE": 4 * grid / 1024, "dram__bytes_read.sum": 4 * grid,
            "dram__bytes_write.sum": 8 * grid, "test__per_instance.sum": 10}[counter]


def run(name, args):
    out = os.path.join(A["work"], name)
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, ROCPROF_BACKEND_DIR=A["backend_dir"], ROCPROF_COUNTER_CHECK="0",
               ROCPROFILER_METRICS_PATH=A["defs"])
    p = subprocess.run([A["rocprofv3"], *args, "-d", out, "-o", "run", "--", A["app"],
                        A["backend_lib"], str(LAUNCHES)],
                       env=env, capture_output=True, text=True, timeout=120)
    print(f"$ rocprofv3 {' '.join(args)} -> {p.returncode}\n{p.stderr[-2000:]}")
    check(p.returncode == 0, f"{name}: exit 0")
    grids = {}
    for line in p.stdout.splitlines():
        if line.startswith("LAUNCH "):
            _, dispatch, grid = line.split()
            grids[int(dispatch)] = int(grid)
    check(len(grids) == LAUNCHES, f"{name}: every launch ran ({len(grids)})")
    return out, grids


def read_csv(directory, kind):
    found = glob.glob(os.path.join(directory, "**", f"run_{kind}.csv"), recursive=True)
    if len(found) != 1:
        check(False, f"one {kind}.csv in {directory} ({found})")
        return [], []
    with open(found[0], newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        return header, [dict(zip(header, r)) for r in reader]


def check_rows(tag, rows, grids, want):
    """want: dispatch id -> the counters it must have, exactly."""
    got = {}
    for r in rows:
        got.setdefault(int(r["Dispatch_Id"]), []).append(r)
    check(sorted(got) == sorted(want), f"{tag}: counted dispatches {sorted(got)}")
    for dispatch, counters in want.items():
        rs = got.get(dispatch, [])
        check(sorted(r["Counter_Name"] for r in rs) == sorted(counters),
              f"{tag}: dispatch {dispatch} has {sorted(counters)}")
        for r in rs:
            grid = grids[dispatch]
            value = float(r["Counter_Value"])
            check(abs(value - expected(r["Counter_Name"], grid)) < 1e-6,
                  f"{tag}: dispatch {dispatch} {r['Counter_Name']} = {value}")
            check(r["Grid_Size"] == str(grid), f"{tag}: dispatch {dispatch} grid size")


def all_formats(c):
    counters = ["SQ_WAVES", "FETCH_SIZE", "smsp__warps_launched.sum", "test__per_instance.sum"]
    out, grids = run("all_formats", ["--pmc", *counters, "--kernel-trace", "--stats",
                                     "--output-format", "csv", "json", "rocpd", "pftrace",
                                     "otf2"])
    header, rows = read_csv(out, "counter_collection")
    check(header == COLUMNS, "counter_collection.csv has rocprofv3's 19 columns")
    check_rows("csv", rows, grids, {d: counters for d in grids})
    _, kernels = read_csv(out, "kernel_trace")
    by_dispatch = {int(k["Dispatch_Id"]): k for k in kernels}
    joined = [r for r in rows if int(r["Dispatch_Id"]) in by_dispatch and
              by_dispatch[int(r["Dispatch_Id"])]["Correlation_Id"] == r["Correlation_Id"]]
    check(len(kernels) == LAUNCHES, f"kernel trace has every dispatch ({len(kernels)})")
    check(rows and len(joined) == len(rows),
          f"every counter row joins the kernel trace ({len(joined)}/{len(rows)})")
    # --stats: one row per (kernel, counter) covering every dispatch; SQ_WAVES' min and max.
    _, stats = read_csv(out, "counter_collection_stats")
    check(len(stats) == len(counters), f"counter stats: one row per counter ({len(stats)})")
    waves = [r for r in stats if r["Counter_Name"] == "SQ_WAVES"]
    check(len(waves) == 1 and int(waves[0]["Dispatches"]) == LAUNCHES
          and float(waves[0]["Min"]) == 32 and float(waves[0]["Max"]) == 128,
          "counter stats: SQ_WAVES over every dispatch")
    for ext in ("pftrace", "otf2"):
        check(glob.glob(os.path.join(out, "**", f"run_results.{ext}"), recursive=True) != [],
              f"{ext} written")
    # JSON: the same values per dispatch.
    js = glob.glob(os.path.join(out, "**", "run_results.json"), recursive=True)
    check(len(js) == 1, "one results.json")
    if js:
        with open(js[0]) as f:
            doc = json.load(f)
        top = doc["rocprofiler-sdk-tool"][0]
        records = top["callback_records"]["counter_collection"]
        check(len(records) == LAUNCHES, "json: one counter_collection entry per dispatch")
        names = {c["id"]["handle"]: c["name"] for c in top.get("counters", [])}
        check({"SQ_WAVES", "FETCH_SIZE"} <= set(names.values()), "json: counters table")
    # rocpd: the counters_collection view AMD's tooling reads.
    dbs = glob.glob(os.path.join(out, "**", "run_results.db"), recursive=True)
    check(len(dbs) == 1, "one rocpd database")
    if dbs:
        db = sqlite3.connect(dbs[0])
        total = db.execute("SELECT COUNT(DISTINCT dispatch_id || '/' || counter_name) "
                           "FROM counters_collection").fetchone()[0]
        check(total == LAUNCHES * len(counters), f"rocpd: counters_collection entries ({total})")
        waves = dict(db.execute("SELECT dispatch_id, value FROM counters_collection "
                                "WHERE counter_name = 'SQ_WAVES'").fetchall())
        check(waves == {d: g / 32 for d, g in grids.items()}, "rocpd: SQ_WAVES per dispatch")


def selection(c):
    # Dispatches 3..5 of the one kernel counted (rocprofv3 counts iterations from 1), the rest
    # run uncounted.
    out, grids = run("selection", ["--pmc", "SQ_WAVES", "--kernel-iteration-range", "[3-5]",
                                   "--output-format", "csv"])
    _, rows = read_csv(out, "counter_collection")
    check_rows("iteration range", rows, grids, {d: ["SQ_WAVES"] for d in (3, 4, 5)})


def groups(c):
    # pmc_groups with interval 1: dispatch i gets group (i - 1) % 2.
    spec = os.path.join(A["work"], "groups.yaml")
    with open(spec, "w") as f:
        f.write("jobs:\n  - pmc_groups: [[SQ_WAVES], [dram__bytes_read.sum]]\n"
                "    pmc_group_interval: 1\n")
    out, grids = run("groups", ["-i", spec, "--output-format", "csv"])
    _, rows = read_csv(out, "counter_collection")
    check_rows("pmc_groups", rows, grids,
               {d: [["SQ_WAVES"], ["dram__bytes_read.sum"]][(d - 1) % 2] for d in grids})


def passes(c):
    out, _ = run("passes", ["--pmc", "SQ_WAVES", "--pmc", "dram__bytes_write.sum",
                            "--output-format", "csv"])
    for n, counter in ((1, "SQ_WAVES"), (2, "dram__bytes_write.sum")):
        _, rows = read_csv(os.path.join(out, f"pass_{n}"), "counter_collection")
        check(rows and {r["Counter_Name"] for r in rows} == {counter}
              and len(rows) == LAUNCHES, f"pass_{n}: {counter} for every dispatch")


def sub_metric(c):
    name = "smsp__warps_launched.sum.per_second"  # the test backend's on-request sub-metrics
    out, grids = run("sub_metric", ["--pmc", name, "--output-format", "csv"])
    _, rows = read_csv(out, "counter_collection")
    got = {int(r["Dispatch_Id"]) for r in rows if r["Counter_Name"] == name}
    check(got == set(grids), f"{name} for every dispatch ({len(got)} of {len(grids)})")


CASES = {f.__name__: f for f in (all_formats, selection, groups, passes, sub_metric)}


def main():
    keys = ("rocprofv3", "app", "backend_dir", "backend_lib", "defs", "work")
    A.update(zip(keys, sys.argv[1:7]))
    os.makedirs(A["work"], exist_ok=True)
    CASES[sys.argv[7]](None)
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
