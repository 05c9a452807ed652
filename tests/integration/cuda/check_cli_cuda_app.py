#!/usr/bin/env python3
"""End to end on the GPU through the real CLI: `rocprofv3 --sys-trace` (plus the CUDA API
domains) on the CUDA sample, every output format read back with readers we did not write:
python's csv, json and sqlite3 modules, `protoc --decode` and `otf2-print` where installed.

usage: check_cli_cuda_app.py ROCPROFV3 CUDA_APP WORKDIR [PERFETTO_PROTO]
"""
import csv
import glob
import json
import os
import shutil
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuda_checks as cc  # noqa: E402


def one(pattern, c, what):
    files = glob.glob(pattern, recursive=True)
    c.check(len(files) == 1, f"{what}: one file matching {pattern} ({files})")
    return files[0] if files else None


def main():
    rocprofv3, app, workdir = sys.argv[1:4]
    proto = sys.argv[4] if len(sys.argv) > 4 else None
    cc.require_gpu("cli_cuda_app")
    helptext = subprocess.run([rocprofv3, "--help"], capture_output=True, text=True).stdout
    extra = [f for f in ("--cuda-runtime-trace", "--cuda-driver-trace") if f in helptext]
    outdir = os.path.join(workdir, "cli_cuda_app")
    shutil.rmtree(outdir, ignore_errors=True)
    cmd = [rocprofv3, "--sys-trace", *extra, "--output-format", "csv", "json", "rocpd", "pftrace",
           "otf2", "-d", outdir, "-o", "run", "--", app]
    print(" ".join(cmd))
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    print(p.stderr[-4000:])
    c = cc.checker("cli_cuda_app")
    c.eq(p.returncode, 0, "rocprofv3 exit status")
    want = cc.summary_from(p.stdout, "CUDA_APP_SUMMARY")
    base = os.path.join(outdir, "**", "run")

    f = one(base + "_kernel_trace.csv", c, "kernel trace CSV")
    if f:
        cc.copy_to_out(f)
        with open(f, newline="") as fh:
            rows = list(csv.DictReader(fh))
        c.eq(len(rows), want["kernels"], "kernel_trace.csv rows")
        names = [r.get("Kernel_Name", "") for r in rows]
        c.eq(sum("vec_add" in n for n in names), want["plain_kernels"] + want["graph_kernels"] // 2,
             "vec_add rows")
    f = one(base + "_memory_copy_trace.csv", c, "memory copy CSV")
    if f:
        with open(f, newline="") as fh:
            rows = list(csv.DictReader(fh))
        n_copies = want["h2d"] + want["d2h"] + want["d2d"] + want["graph_copies"]
        c.check(len(rows) >= n_copies, f"memory_copy_trace.csv rows {len(rows)} >= {n_copies}")
    f = one(base + "_results.db", c, "rocpd database")
    if f:
        cc.copy_to_out(f)
        db = sqlite3.connect(f)
        n = db.execute("SELECT COUNT(*) FROM rocpd_kernel_dispatch").fetchone()[0]
        c.eq(n, want["kernels"], "rocpd_kernel_dispatch rows")
    f = one(base + "_results.json", c, "JSON output")
    if f:
        with open(f) as fh:
            json.load(fh)
        c.check(True, "JSON parses")
    f = one(base + "_results.pftrace", c, "Perfetto trace")
    if f and proto and shutil.which("protoc"):
        with open(f, "rb") as fh:
            d = subprocess.run(["protoc", f"--proto_path={os.path.dirname(proto)}",
                                "--decode=perfetto.protos.Trace", os.path.basename(proto)],
                               stdin=fh, capture_output=True, text=True)
        c.eq(d.returncode, 0, "protoc decodes the pftrace")
        c.check("vec_add" in d.stdout, "pftrace names the vec_add kernel")
    f = one(base + "_results.otf2", c, "OTF2 archive")
    if f and shutil.which("otf2-print"):
        d = subprocess.run(["otf2-print", f], capture_output=True, text=True)
        c.eq(d.returncode, 0, "otf2-print reads the archive")
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
