#!/usr/bin/env python3
"""CPU-only end to end of --kernel-rename for CUDA work: rocprofv3 --kernel-trace --marker-trace
--kernel-rename on fake_cuda_app's "ranges" mode (launches inside ROCTx and NVTX ranges, on two
threads, with every activity record delivered only at the exit flush). The real CLI, tool, core
and CUDA plugin run; kernel_trace.csv is read with python's csv module and the rocpd database
with sqlite3. The expected region of every launch comes from the program's own summary line.
Also checks that the kernel symbol links to the code object of the module that defines it.

usage: check_fake_cupti_rename.py ROCPROFV3 FAKE_APP FAKE_LIBCUPTI WORKDIR
"""
import collections
import csv
import glob
import os
import shutil
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuda_checks as cc  # noqa: E402

KERNEL = "_Z11fake_kernelPf"
# Outside any range a kernel keeps its own name, mangled or demangled as the writer prints it.
OWN_NAMES = {KERNEL, "fake_kernel(float*)"}


def region(name):
    return KERNEL if name in OWN_NAMES else name


def main():
    rocprofv3, app, fake, workdir = sys.argv[1:5]
    out = os.path.join(workdir, "fake_cupti_rename")
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, CUPTI_LIB=fake)
    env.pop("FAKE_CUDA_APP_NO_FLUSH", None)
    cmd = [rocprofv3, "--kernel-trace", "--marker-trace", "--kernel-rename",
           "--memory-copy-trace", "--output-format", "csv", "rocpd", "-d", out, "-o", "run",
           "--", app, "ranges"]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    print(p.stdout[-2000:], p.stderr[-3000:])
    c = cc.checker("fake_cupti_rename")
    c.eq(p.returncode, 0, "rocprofv3 exit status")
    summary = cc.summary_from(p.stdout, "FAKE_CUDA_APP_SUMMARY")
    # "" in the summary: launched outside any range, so the kernel keeps its own name.
    want = collections.Counter({(r or KERNEL): n for r, n in summary["regions"].items()})

    files = glob.glob(os.path.join(out, "**", "run_kernel_trace.csv"), recursive=True)
    c.eq(len(files), 1, f"kernel_trace.csv files ({files})")
    if files:
        with open(files[0], newline="") as f:
            kernels = list(csv.DictReader(f))
        c.eq(len(kernels), summary["kernels"], "kernel rows")
        got = collections.Counter(region(r["Kernel_Name"]) for r in kernels)
        c.eq(dict(got), dict(want), "Kernel_Name per region (counts)")
        # The worker's launches come from another thread: their rows carry that thread.
        worker = {r["Thread_Id"] for r in kernels if r["Kernel_Name"] == "worker_range"}
        main_tids = {r["Thread_Id"] for r in kernels if r["Kernel_Name"] != "worker_range"}
        c.check(len(worker) == 1 and len(main_tids) == 1 and worker != main_tids,
                f"worker launches on their own thread ({worker} vs {main_tids})")
        # Launch order is dispatch order: outside, outer x2, inner x3, outer, worker x2, outside.
        by_dispatch = [region(r["Kernel_Name"])
                       for r in sorted(kernels, key=lambda r: int(r["Dispatch_Id"]))]
        c.eq(by_dispatch, [KERNEL] + ["roctx_outer"] * 2 + ["nvtx_inner"] * 3 + ["roctx_outer"] +
             ["worker_range"] * 2 + [KERNEL], "region of each launch, in launch order")

    dbs = glob.glob(os.path.join(out, "**", "run_results.db"), recursive=True)
    c.eq(len(dbs), 1, f"rocpd databases ({dbs})")
    if dbs:
        db = sqlite3.connect(dbs[0])
        regions = collections.Counter(
            region(r[0]) if r[0] else KERNEL for r in db.execute("SELECT region FROM kernels"))
        c.eq(dict(regions), dict(want), "rocpd kernels.region per region (counts)")
        copies = [r[0] for r in db.execute("SELECT region_name FROM memory_copies")]
        c.eq(copies, ["roctx_outer"], "rocpd memory_copies.region_name of the copy")
        # The kernel links to the module whose cubin (the app's ELF) defines its symbol.
        modules = [r[0] for r in db.execute(
            "SELECT id FROM rocpd_info_code_object WHERE uri LIKE '%&module=1'")]
        c.eq(len(modules), 1, "one code object for module 1")
        symbols = db.execute("SELECT kernel_name, code_object_id FROM rocpd_info_kernel_symbol"
                             ).fetchall()
        c.eq(symbols, [(KERNEL, modules[0] if modules else None)],
             "kernel symbol -> its module's code object")
        linked = {r[0] for r in db.execute("SELECT code_object_id FROM kernels")}
        c.eq(linked, {modules[0] if modules else None}, "kernels.code_object_id")
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
