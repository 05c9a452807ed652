#!/usr/bin/env python3
"""CPU-only end to end: every CUDA call's argument text is its own, also when the tool reuses
the text of calls with the same argument bytes (its per-thread memo). fake_cuda_app's bench mode
with FAKE_CUPTI_BENCH_DISTINCT_ARGS plays a warm-up loop of W launches and a loop of N launches,
the i-th launch of each loop with grid {i, 1, 1} (so each grid repeats once, across the loops);
every cudaLaunchKernel record in results.json must carry its own grid, in call order, and the
same block, function and stream as every other launch.

usage: check_fake_cupti_args_memo.py ROCPROFV3 FAKE_APP FAKE_LIBCUPTI WORKDIR
"""
import glob
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuda_checks as cc  # noqa: E402

CALLS = 3000  # more distinct argument lists than the memo has slots


def main():
    rocprofv3, app, fake, workdir = sys.argv[1:5]
    out = os.path.join(workdir, "fake_cupti_args_memo")
    shutil.rmtree(out, ignore_errors=True)
    cmd = [rocprofv3, "--sys-trace", "--cuda-api-args", "--output-format", "json", "-d", out,
           "-o", "run", "--", app, "bench", str(CALLS)]
    env = dict(os.environ, CUPTI_LIB=fake, FAKE_CUPTI_BENCH_DISTINCT_ARGS="1")
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    print(p.stdout[-1000:], p.stderr[-3000:])
    c = cc.checker("fake_cupti_args_memo")
    c.eq(p.returncode, 0, "rocprofv3 exit status")
    files = glob.glob(os.path.join(out, "**", "run_results.json"), recursive=True)
    c.eq(len(files), 1, "one results.json")
    if not files:
        return c.finish()
    with open(files[0]) as f:
        doc = json.load(f)["rocprofiler-sdk-tool"][0]
    kinds = doc["strings"]["buffer_records"]
    records = doc["buffer_records"]["cuda_api"]
    launches = sorted((r for r in records
                       if kinds[r["kind"]]["operations"][r["operation"]]
                       .startswith("cudaLaunchKernel")),
                      key=lambda r: r["correlation_id"]["internal"])
    warm = CALLS // 10 + 1
    expected = [f"{{{i}, 1, 1}}" for i in range(1, warm + 1)]
    expected += [f"{{{i}, 1, 1}}" for i in range(1, CALLS + 1)]
    grids = [next((a["value"] for a in r.get("args", []) if a["name"] == "gridDim"), None)
             for r in launches]
    c.eq(len(grids), len(expected), "one record per profiled launch")
    wrong = [(i, g, e) for i, (g, e) in enumerate(zip(grids, expected)) if g != e]
    c.eq(wrong[:5], [], "each launch's gridDim is its own, in call order")
    others = {tuple((a["name"], a["type"], a["value"]) for a in r.get("args", [])
                    if a["name"] != "gridDim") for r in launches}
    c.eq(len(others), 1, "the other arguments are the same text in every launch")
    c.check(all(r.get("retval") == 0 for r in launches), "every launch's retval")
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
