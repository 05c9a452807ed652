#!/usr/bin/env python3
"""A v2 program under rocprofv3: both tools of the core work in one process. The v2 program
must still get all its records (its stdout), and rocprofv3 must write the program's ROCTx
range into its marker CSV (read with python's csv module).

usage: check_under_rocprofv3.py ROCPROFV3 V2_PROGRAM WORK_DIR
"""
import csv
import glob
import os
import shutil
import subprocess
import sys


def main():
    rocprofv3, program, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    run = subprocess.run([rocprofv3, "--marker-trace", "-f", "csv", "-d", work, "-o", "v2run",
                          "--", program], capture_output=True, text=True, timeout=120)
    print(run.stdout[-2000:], run.stderr[-2000:])
    if run.returncode != 0:
        print("FAIL: exit status", run.returncode)
        return 1
    if "records: api=3 ops=3 markers=1 kernels=2" not in run.stdout:
        print("FAIL: the v2 program did not get its records under rocprofv3")
        return 1
    files = glob.glob(os.path.join(work, "**", "*marker_api_trace.csv"), recursive=True)
    if not files:
        print("FAIL: rocprofv3 wrote no marker CSV")
        return 1
    with open(files[0], newline="") as f:
        messages = [row.get("Function", "") for row in csv.DictReader(f)]
    if "iteration" not in messages:
        print("FAIL: the ROCTx range is not in rocprofv3's marker CSV:", messages)
        return 1
    print("ok: v2 program and rocprofv3 side by side")
    return 0


if __name__ == "__main__":
    sys.exit(main())
