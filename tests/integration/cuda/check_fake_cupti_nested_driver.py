#!/usr/bin/env python3
"""CPU-only end to end (issue 15): driver calls made inside a runtime call are not traced by
default under --sys-trace, and are with --cuda-nested-driver-trace; either way every kernel joins
its cudaLaunchKernel record. fake_cuda_app plays five cudaLaunchKernel calls, each making a nested
cuLaunchKernel (FAKE_CUPTI_NESTED_DRIVER=1), and one cudaMemcpy. Read back with python's csv.

usage: check_fake_cupti_nested_driver.py ROCPROFV3 FAKE_APP FAKE_LIBCUPTI WORKDIR
"""
import csv
import glob
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuda_checks as cc  # noqa: E402


def rows(out, suffix):
    files = glob.glob(os.path.join(out, "**", "run_" + suffix), recursive=True)
    if not files:
        return []
    with open(files[0], newline="") as f:
        return list(csv.DictReader(f))


def run_case(c, rocprofv3, app, fake, workdir, nested):
    label = "nested" if nested else "default"
    out = os.path.join(workdir, "fake_cupti_nested_driver", label)
    shutil.rmtree(out, ignore_errors=True)
    cmd = [rocprofv3, "--sys-trace", "--output-format", "csv", "-d", out, "-o", "run"]
    if nested:
        cmd.append("--cuda-nested-driver-trace")
    env = dict(os.environ, CUPTI_LIB=fake, FAKE_CUPTI_NESTED_DRIVER="1")
    env.pop("ROCPROF_CUDA_NESTED_DRIVER_API", None)
    p = subprocess.run(cmd + ["--", app], env=env, capture_output=True, text=True, timeout=120)
    print(p.stdout[-1500:], p.stderr[-2000:])
    c.eq(p.returncode, 0, f"{label}: rocprofv3 exit status")
    api = rows(out, "cuda_api_trace.csv")
    runtime = [r for r in api if r["Domain"] == "CUDA_RUNTIME_API"]
    driver = [r for r in api if r["Domain"] == "CUDA_DRIVER_API"]
    launches = [r for r in runtime if r["Function"].startswith("cudaLaunchKernel")]
    c.eq(len(launches), 5, f"{label}: cudaLaunchKernel records")
    c.eq(len(driver), 5 if nested else 0, f"{label}: nested cuLaunchKernel records")
    if nested:
        c.check(all(r["Function"] == "cuLaunchKernel" for r in driver),
                f"{label}: the driver records are the nested cuLaunchKernel calls")
        # Each nested call lies inside a runtime launch of its thread.
        inside = all(any(l["Thread_Id"] == d["Thread_Id"] and
                         int(l["Start_Timestamp"]) <= int(d["Start_Timestamp"]) and
                         int(d["End_Timestamp"]) <= int(l["End_Timestamp"]) for l in launches)
                     for d in driver)
        c.check(inside, f"{label}: each cuLaunchKernel lies inside a cudaLaunchKernel")
    kernels = rows(out, "kernel_trace.csv")
    c.eq(len(kernels), 5, f"{label}: kernel records")
    ids = {r["Correlation_Id"] for r in launches}
    c.check(kernels and all(k["Correlation_Id"] in ids for k in kernels),
            f"{label}: every kernel carries its cudaLaunchKernel's correlation id")


def main():
    rocprofv3, app, fake, workdir = sys.argv[1:5]
    c = cc.checker("fake_cupti_nested_driver")
    run_case(c, rocprofv3, app, fake, workdir, nested=False)
    run_case(c, rocprofv3, app, fake, workdir, nested=True)
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
