#!/usr/bin/env python3
"""CPU-only end to end (issue 15): driver calls made inside a runtime call are not traced by
default under --sys-trace, and are with --cuda-nested-driver-trace; either way every kernel joins
its cudaLaunchKernel record. fake_cuda_app plays five cudaLaunchKernel calls, each making a nested
cuLaunchKernel (FAKE_CUPTI_NESTED_DRIVER=1), and one cudaMemcpy. Read back with python's csv.
Both ways through callbacks (--cuda-api-args) and with --cuda-api-records (API calls from CUPTI's
API activity records, no callbacks; the default): the plugin says which, and the API rows
(function names per thread) equal the callback path's.

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


def run_case(c, rocprofv3, app, fake, workdir, nested, records=False):
    label = ("nested" if nested else "default") + (" api-records" if records else " api-args")
    out = os.path.join(workdir, "fake_cupti_nested_driver", label.replace(" ", "_"))
    shutil.rmtree(out, ignore_errors=True)
    cmd = [rocprofv3, "--sys-trace", "--output-format", "csv", "-d", out, "-o", "run"]
    if nested:
        cmd.append("--cuda-nested-driver-trace")
    # Records are the default; --cuda-api-args asks for the callback path.
    cmd.append("--cuda-api-records" if records else "--cuda-api-args")
    env = dict(os.environ, CUPTI_LIB=fake, FAKE_CUPTI_NESTED_DRIVER="1", ROCPROF_CUDA_VERBOSE="1")
    for name in ("ROCPROF_CUDA_NESTED_DRIVER_API", "ROCPROF_CUDA_API_RECORDS",
                 "ROCPROF_CUDA_LAUNCH_CALLBACKS"):
        env.pop(name, None)
    p = subprocess.run(cmd + ["--", app], env=env, capture_output=True, text=True, timeout=120)
    print(p.stdout[-1500:], p.stderr[-2000:])
    c.eq(p.returncode, 0, f"{label}: rocprofv3 exit status")
    c.eq("API calls from API records" in p.stderr, records,
         f"{label}: the plugin says whether API calls come from API records")
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
    c.check(all(int(r["Correlation_Id"]) > 0 for r in api), f"{label}: API correlation ids set")
    c.eq(len({r["Correlation_Id"] for r in api}), len(api), f"{label}: one id per API call")
    return sorted((r["Domain"], r["Function"]) for r in api)


def main():
    rocprofv3, app, fake, workdir = sys.argv[1:5]
    c = cc.checker("fake_cupti_nested_driver")
    for nested in (False, True):
        by_callbacks = run_case(c, rocprofv3, app, fake, workdir, nested)
        by_records = run_case(c, rocprofv3, app, fake, workdir, nested, records=True)
        c.eq(by_records, by_callbacks,
             f"{'nested' if nested else 'default'}: API calls from records equal the callbacks'")
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
