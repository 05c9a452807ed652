#!/usr/bin/env python3
"""rocpd with real PC samples (GPU): rocprofv3 --pc-sampling-* --kernel-trace on pc_sampling_app
writing csv, json and rocpd with -S, then `rocpd convert -f csv json` of its database: the
PC-sampling CSV and the hot-spot CSV equal the run's byte for byte, the JSON pc_sample_stochastic
array equals the run's record for record, and `rocpd summary` prints the hot-spot report -S
printed. Prints FIGURES lines. Exit 77 without a GPU (CTest SKIP).

Usage: check_rocpd_pc_gpu.py ROCPROFV3 ROCPD PC_SAMPLING_APP WORK
"""
import glob
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../cuda"))
from cuda_checks import checker, copy_to_out, require_gpu  # noqa: E402

PC_OPTIONS = ["--pc-sampling-beta-enabled", "--pc-sampling-method", "stochastic",
              "--pc-sampling-unit", "cycles", "--pc-sampling-interval", "4096"]


def run(cmd):
    print("$", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    print(p.stderr[-2000:])
    return p


def one(pattern):
    files = glob.glob(pattern, recursive=True)
    assert len(files) == 1, f"one {pattern}: {files}"
    return files[0]


def pc_arrays(path):
    with open(path) as f:
        doc = json.load(f)["rocprofiler-sdk-tool"][0]
    return ({k: v for k, v in doc["buffer_records"].items() if k.startswith("pc_sample")},
            doc["strings"].get("pc_sample_comments"))


def main():
    require_gpu("rocpd.pc_samples_gpu")
    cli, rocpd, app, work = sys.argv[1:5]
    c = checker("rocpd.pc_samples_gpu")
    shutil.rmtree(work, ignore_errors=True)
    live = os.path.join(work, "live")
    p = run([cli] + PC_OPTIONS + ["--kernel-trace", "--output-format", "csv", "json", "rocpd",
                                  "-S", "-d", live, "-o", "run", "--", app, "both", "1"])
    c.eq(p.returncode, 0, "rocprofv3 exit status")
    db = one(os.path.join(live, "**", "run_results.db"))
    conv = os.path.join(work, "conv")
    q = run([rocpd, "convert", "-i", db, "-f", "csv", "json", "-d", conv, "-o", "run"])
    c.eq(q.returncode, 0, "rocpd convert exit status")
    for name in ("pc_sampling_stochastic.csv", "pc_sampling_hotspots.csv"):
        theirs = one(os.path.join(live, "**", "run_" + name))
        ours = os.path.join(conv, "run_" + name)
        with open(theirs, "rb") as a:
            want = a.read()
        got = open(ours, "rb").read() if os.path.exists(ours) else b""
        rows_live, rows_converted = want.count(b"\n") - 1, got.count(b"\n") - 1
        print(f"FIGURES {name}: live {rows_live} rows, converted {rows_converted} rows")
        c.check(want and got == want, f"{name}: converted equals live byte for byte")
        copy_to_out(ours)
    a = pc_arrays(one(os.path.join(live, "**", "run_results.json")))
    b = pc_arrays(os.path.join(conv, "run_results.json"))
    n = len(a[0].get("pc_sample_stochastic", []))
    print(f"FIGURES json: {n} pc_sample_stochastic records")
    c.check(n > 0 and a == b, "JSON pc_sample arrays and comments equal")
    s = run([rocpd, "summary", "-i", db])
    c.eq(s.returncode, 0, "rocpd summary exit status")
    start = s.stdout.find("PC SAMPLING HOT SPOTS")
    lines = [line for line in s.stdout[start:].splitlines() if line.strip()] if start >= 0 else []
    live_lines = set(p.stderr.splitlines()) | set(p.stdout.splitlines())
    missing = [line for line in lines if line not in live_lines]
    print(f"FIGURES summary: {len(lines)} report lines, {len(missing)} not in the run's -S output")
    c.check(lines and not missing, f"rocpd summary prints -S's hot-spot report ({missing[:3]})")
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
