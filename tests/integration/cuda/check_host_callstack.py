#!/usr/bin/env python3
"""End to end of --kernel-host-callstack: rocprofv3 --kernel-trace --kernel-host-callstack with
CSV, JSON and rocpd outputs. Every kernel dispatch must have a host call stack whose frames
include the application's `main` in its source file, at the line of a launch call of main (lines
found in the source by APP_LAUNCH_REGEX). The outputs are read with python's csv and json
modules and with sqlite3.

  --fake LIBCUPTI   CPU only: fake_cuda_app through the fake libcupti (its launches in main);
                    also checks that a run without the option writes no stack.
  (default)         the GPU: tests/apps/cuda_app (built with -g); exit 77 without a GPU. The
                    launches of main are sorted by kind (vec_add, fill<float>, fill<int>, graph
                    launch) and their dispatch counts compared with the program's summary.

usage: check_host_callstack.py ROCPROFV3 APP APP_SOURCE WORKDIR [--fake LIBCUPTI]
"""
import collections
import csv
import glob
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuda_checks as cc  # noqa: E402

# Launch calls in main, by kind (the kind names the summary count they must add up to).
GPU_LAUNCHES = {"plain_kernels": r"launch_vec_add\(c,", "templated_float_kernels":
                r"launch_fill<float>\(c,", "templated_int_kernels": r"launch_fill<int>\(c,",
                "graph_kernels": r"cudaGraphLaunch\("}
FAKE_LAUNCHES = {"kernels": r"^\s*launch\(kernel, 5\);"}


def launch_lines(source, patterns):
    """line number -> kind, for the launch lines inside main()."""
    lines = {}
    in_main = False
    with open(source) as f:
        for number, text in enumerate(f, 1):
            if re.match(r"int main\(", text):
                in_main = True
            if not in_main:
                continue
            for kind, pattern in patterns.items():
                if re.search(pattern, text):
                    lines[number] = kind
    return lines


def main_frame(frames, source, lines):
    """The kind of launch the stack's `main` frame sits on, None if no such frame."""
    name = os.path.basename(source)
    for f in frames:
        if f["function"].split("(")[0] == "main" and os.path.basename(f["file"]) == name:
            return lines.get(int(f["line"] or 0), "main at another line " + str(f["line"]))
    return None


def run(rocprofv3, app, out, env, extra):
    shutil.rmtree(out, ignore_errors=True)
    cmd = [rocprofv3, "--kernel-trace", *extra, "--output-format", "csv", "json", "rocpd",
           "-d", out, "-o", "run", "--", app]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    print(p.stdout[-1500:], p.stderr[-3000:])
    return p


def one(out, name):
    files = glob.glob(os.path.join(out, "**", name), recursive=True)
    return files[0] if len(files) == 1 else None


def main():
    args = sys.argv[1:]
    fake = None
    if "--fake" in args:
        i = args.index("--fake")
        fake = args[i + 1]
        del args[i:i + 2]
    rocprofv3, app, source, workdir = args[:4]
    if fake is None:
        cc.require_gpu("host_callstack")
    env = dict(os.environ)
    if fake:
        env["CUPTI_LIB"] = fake
        env.pop("FAKE_CUDA_APP_NO_FLUSH", None)
    lines = launch_lines(source, FAKE_LAUNCHES if fake else GPU_LAUNCHES)
    c = cc.checker("host_callstack")
    c.check(len(lines) > 0, f"launch lines found in {source}")
    out = os.path.join(workdir, "host_callstack")
    p = run(rocprofv3, app, out, env, ["--kernel-host-callstack"])
    c.eq(p.returncode, 0, "rocprofv3 exit status")
    summary = cc.summary_from(p.stdout, "FAKE_CUDA_APP_SUMMARY" if fake else "CUDA_APP_SUMMARY")

    # CSV: every dispatch of the kernel trace has frames, one of them main at a launch line.
    trace, stacks = one(out, "run_kernel_trace.csv"), one(out, "run_kernel_host_callstacks.csv")
    c.check(trace is not None and stacks is not None, "kernel_trace.csv and kernel_host_callstacks.csv")
    if trace and stacks:
        with open(trace, newline="") as f:
            dispatches = {r["Dispatch_Id"]: r for r in csv.DictReader(f)}
        frames = collections.defaultdict(list)
        with open(stacks, newline="") as f:
            for r in csv.DictReader(f):
                frames[r["Dispatch_Id"]].append(
                    {"function": r["Function"], "file": r["File"], "line": r["Line"],
                     "depth": int(r["Depth"]), "kernel": r["Kernel_Name"]})
        c.eq(len(dispatches), summary["kernels"], "kernel_trace rows")
        c.eq(set(frames), set(dispatches), "dispatches with a stack in the CSV")
        kinds = collections.Counter()
        for d, rows in frames.items():
            rows.sort(key=lambda r: r["depth"])
            c.eq([r["depth"] for r in rows], list(range(len(rows))), f"dispatch {d}: depths 0..n")
            c.eq({r["kernel"] for r in rows}, {dispatches[d]["Kernel_Name"]} if d in dispatches else set(),
                 f"dispatch {d}: Kernel_Name as in kernel_trace.csv")
            kinds[main_frame(rows, source, lines)] += 1
        want = {k: summary[k] for k in set(lines.values())}
        c.eq(dict(kinds), want, "dispatches per launch line of main (CSV)")
        first = next(iter(frames.values()), [])
        print("HOST_CALLSTACK_EXAMPLE", json.dumps(first[:8]))

    # JSON: host_callstacks and each kernel dispatch's callstack_id.
    results = one(out, "run_results.json")
    c.check(results is not None, "results.json")
    if results:
        with open(results) as f:
            doc = json.load(f)["rocprofiler-sdk-tool"][0]
        by_id = {s["id"]: s["frames"] for s in doc.get("host_callstacks", [])}
        kernels = doc["buffer_records"]["kernel_dispatch"]
        c.eq(len(kernels), summary["kernels"], "JSON kernel_dispatch records")
        kinds = collections.Counter(main_frame(by_id.get(k.get("callstack_id"), []), source, lines)
                                    for k in kernels)
        c.eq(dict(kinds), {k: summary[k] for k in set(lines.values())},
             "dispatches per launch line of main (JSON)")

    # rocpd: the extension table and its view.
    db_path = one(out, "run_results.db")
    c.check(db_path is not None, "results.db")
    if db_path:
        db = sqlite3.connect(db_path)
        dispatch_ids = {r[0] for r in db.execute("SELECT id FROM rocpd_kernel_dispatch")}
        rows = collections.defaultdict(list)
        for d, fn, fl, ln in db.execute(
                "SELECT dispatch_id, function, file, line FROM kernel_callstacks ORDER BY dispatch_id, depth"):
            rows[d].append({"function": fn or "", "file": fl or "", "line": ln})
        c.eq(set(rows), dispatch_ids, "rocpd dispatches with frames")
        kinds = collections.Counter(main_frame(r, source, lines) for r in rows.values())
        c.eq(dict(kinds), {k: summary[k] for k in set(lines.values())},
             "dispatches per launch line of main (rocpd)")
        names = {r[0] for r in db.execute("SELECT DISTINCT kernel_name FROM kernel_callstacks")}
        c.check(None not in names, f"every frame row names its kernel ({names})")

    if fake:
        # Without the option: no stacks anywhere.
        plain = os.path.join(workdir, "host_callstack_off")
        p = run(rocprofv3, app, plain, env, [])
        c.eq(p.returncode, 0, "rocprofv3 exit status without the option")
        c.eq(one(plain, "run_kernel_host_callstacks.csv"), None, "no callstack CSV without the option")
        results = one(plain, "run_results.json")
        if results:
            with open(results) as f:
                doc = json.load(f)["rocprofiler-sdk-tool"][0]
            c.check("host_callstacks" not in doc, "no host_callstacks in JSON without the option")
            c.check(all("callstack_id" not in k for k in doc["buffer_records"]["kernel_dispatch"]),
                    "no callstack_id without the option")
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
