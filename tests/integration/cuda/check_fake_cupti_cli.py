#!/usr/bin/env python3
"""CPU-only end to end: rocprofv3 on a program that plays a CUDA application through a fake
libcupti (fake_cupti/). The real CLI, tool, core and CUDA plugin run; outputs are read back with
python's csv and sqlite3 modules. Checks exact counts and that every kernel shares its
correlation id with the API call that launched it.

usage: check_fake_cupti_cli.py ROCPROFV3 FAKE_APP FAKE_LIBCUPTI WORKDIR
"""
import csv
import glob
import os
import shutil
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuda_checks as cc  # noqa: E402


def rows(pattern):
    files = glob.glob(pattern, recursive=True)
    if len(files) != 1:
        return None, files
    with open(files[0], newline="") as f:
        return list(csv.DictReader(f)), files


def main():
    rocprofv3, app, fake, workdir = sys.argv[1:5]
    out = os.path.join(workdir, "fake_cupti_cli")
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, CUPTI_LIB=fake)
    cmd = [rocprofv3, "--kernel-trace", "--memory-copy-trace", "--cuda-runtime-trace",
           "--output-format", "csv", "rocpd", "-d", out, "-o", "run", "--", app]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    print(p.stdout[-2000:], p.stderr[-3000:])
    c = cc.checker("fake_cupti_cli")
    c.eq(p.returncode, 0, "rocprofv3 exit status")
    kernels, files = rows(os.path.join(out, "**", "run_kernel_trace.csv"))
    c.check(kernels is not None, f"one kernel_trace.csv ({files})")
    api, files = rows(os.path.join(out, "**", "run_cuda_api_trace.csv"))
    c.check(api is not None, f"one cuda_api_trace.csv ({files})")
    copies, files = rows(os.path.join(out, "**", "run_memory_copy_trace.csv"))
    c.check(copies is not None, f"one memory_copy_trace.csv ({files})")
    if kernels is not None:
        c.eq(len(kernels), 5, "kernel rows")
        c.check(all("fake_kernel" in r.get("Kernel_Name", "") for r in kernels), "kernel names")
        if api is not None:
            launches = {r["Correlation_Id"] for r in api if r.get("Function", "").startswith("cudaLaunchKernel")}
            c.eq(len(launches), 5, "cudaLaunchKernel rows")
            c.check(all(r["Correlation_Id"] in launches for r in kernels),
                    "every kernel shares its correlation id with its launch call")
    if copies is not None:
        c.eq(len(copies), 1, "memory copy rows")
        if copies:
            c.eq(copies[0].get("Direction"), "MEMORY_COPY_HOST_TO_DEVICE", "copy direction")
    dbs = glob.glob(os.path.join(out, "**", "run_results.db"), recursive=True)
    c.check(len(dbs) == 1, f"one rocpd database ({dbs})")
    if dbs:
        n = sqlite3.connect(dbs[0]).execute("SELECT COUNT(*) FROM rocpd_kernel_dispatch").fetchone()[0]
        c.eq(n, 5, "rocpd_kernel_dispatch rows")
        if kernels is not None:
            # Registers per thread: the CSV's VGPR_Count is the kernel's, as rocpd's (the fake
            # CUPTI reports 24 per kernel).
            db_vgpr = dict(sqlite3.connect(dbs[0]).execute(
                "SELECT dispatch_id, vgpr_count FROM kernels").fetchall())
            c.check(all(int(r["VGPR_Count"]) == db_vgpr.get(int(r["Dispatch_Id"])) == 24
                        for r in kernels),
                    f"VGPR_Count equals rocpd's vgpr_count ({[r['VGPR_Count'] for r in kernels]}"
                    f" vs {db_vgpr})")
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
