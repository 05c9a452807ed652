#!/usr/bin/env python3
"""CPU-only end to end of kernel-only tracing without launch callbacks: rocprofv3 --kernel-trace
--memory-copy-trace on fake_cuda_app's "ranges" mode (launches on two threads), once with the
fake libcupti's per-API activity records (the plugin attributes each kernel and copy to its
launching thread from the API record, delivered after the work in the same buffer) and once with
them refused (FAKE_CUPTI_NO_API_RECORDS=1: launch callbacks, as with an older libcupti). Both
runs must give the same rows: names, thread of every launch, unique non-zero correlation ids.
kernel_trace.csv and memory_copy_trace.csv are read with python's csv module.

usage: check_fake_cupti_kernel_only.py ROCPROFV3 FAKE_APP FAKE_LIBCUPTI WORKDIR
"""
import collections
import csv
import glob
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuda_checks as cc  # noqa: E402


def rows(out, name):
    files = glob.glob(os.path.join(out, "**", f"run_{name}.csv"), recursive=True)
    if len(files) != 1:
        return []
    with open(files[0], newline="") as f:
        return list(csv.DictReader(f))


def run(c, rocprofv3, app, fake, out, records):
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, CUPTI_LIB=fake, ROCPROF_CUDA_VERBOSE="1")
    env.pop("ROCPROF_CUDA_LAUNCH_CALLBACKS", None)
    if not records:
        env["FAKE_CUPTI_NO_API_RECORDS"] = "1"
    cmd = [rocprofv3, "--kernel-trace", "--memory-copy-trace", "--output-format", "csv",
           "-d", out, "-o", "run", "--", app, "ranges"]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    print(p.stdout[-1500:], p.stderr[-2500:])
    mode = "API records" if records else "launch callbacks"
    c.eq(p.returncode, 0, f"rocprofv3 exit status ({mode})")
    c.eq("launches from API records" in p.stderr, records, f"the plugin says which path ({mode})")
    kernels = sorted(rows(out, "kernel_trace"), key=lambda r: int(r["Start_Timestamp"]))
    copies = rows(out, "memory_copy_trace")
    c.eq(len(kernels), 10, f"kernel rows ({mode})")
    c.eq(len(copies), 1, f"copy rows ({mode})")
    ids = [int(r["Correlation_Id"]) for r in kernels + copies]
    c.check(all(i > 0 for i in ids) and len(set(ids)) == len(ids),
            f"unique non-zero correlation ids ({mode}): {ids}")
    tids = [int(r["Thread_Id"]) for r in kernels]
    c.check(all(t > 0 for t in tids), f"every kernel names its launching thread ({mode}): {tids}")
    return kernels, copies


def shape(kernels, copies):
    """Threads by first appearance (main = 0, worker = 1), so two processes compare."""
    order = {}
    for r in kernels + copies:
        order.setdefault(int(r["Thread_Id"]), len(order))
    return ([(r["Kernel_Name"], order[int(r["Thread_Id"])]) for r in kernels],
            [order[int(r["Thread_Id"])] for r in copies])


def main():
    rocprofv3, app, fake, workdir = sys.argv[1:5]
    c = cc.checker("fake_cupti_kernel_only")
    by_record = run(c, rocprofv3, app, fake, os.path.join(workdir, "kernel_only_records"), True)
    by_callback = run(c, rocprofv3, app, fake, os.path.join(workdir, "kernel_only_callbacks"),
                      False)
    rec, cb = shape(*by_record), shape(*by_callback)
    c.eq(rec, cb, "same kernel names, launch threads and copy thread on both paths")
    per_thread = collections.Counter(t for _, t in rec[0])
    c.eq(sorted(per_thread.values()), [2, 8], "8 launches on the main thread, 2 on the worker")
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
