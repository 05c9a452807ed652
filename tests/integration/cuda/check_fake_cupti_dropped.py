#!/usr/bin/env python3
"""CPU-only end to end: CUPTI reports dropped records (the fake libcupti, FAKE_CUPTI_DROPPED);
the count reaches stderr and every output format, read back by readers we did not write:
python's csv/json/sqlite3, protoc --decode, otf2-print -I, the summary file.

usage: check_fake_cupti_dropped.py ROCPROFV3 FAKE_APP FAKE_LIBCUPTI PERFETTO_PROTO WORKDIR
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

DROPPED = 37


def one(pattern):
    files = glob.glob(pattern, recursive=True)
    return files[0] if len(files) == 1 else None


def main():
    rocprofv3, app, fake, proto, workdir = sys.argv[1:6]
    out = os.path.join(workdir, "fake_cupti_dropped")
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, CUPTI_LIB=fake, FAKE_CUPTI_DROPPED=str(DROPPED))
    cmd = [rocprofv3, "--kernel-trace", "--memory-copy-trace", "--cuda-runtime-trace",
           "--output-format", "csv", "json", "rocpd", "pftrace", "otf2", "-S",
           "--summary-output-file", "summary", "-d", out, "-o", "run", "--", app]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    print(p.stdout[-2000:], p.stderr[-3000:])
    c = cc.checker("fake_cupti_dropped")
    c.eq(p.returncode, 0, "rocprofv3 exit status")
    c.check("{} records were dropped".format(DROPPED) in p.stderr, "stderr reports the drops")
    path = one(os.path.join(out, "**", "run_dropped_records.csv"))
    c.check(path is not None, "a dropped_records.csv")
    if path:
        with open(path, newline="") as f:
            c.eq([r["Dropped_Records"] for r in csv.DictReader(f)], [str(DROPPED)], "CSV count")
    path = one(os.path.join(out, "**", "run_results.json"))
    c.check(path is not None, "a results.json")
    if path:
        with open(path) as f:
            meta = json.load(f)["rocprofiler-sdk-tool"][0]["metadata"]
        c.eq(meta.get("dropped_records"), DROPPED, "JSON metadata.dropped_records")
    path = one(os.path.join(out, "**", "run_results.db"))
    c.check(path is not None, "a results.db")
    if path:
        db = sqlite3.connect(path)
        rows = db.execute("SELECT value FROM rocpd_metadata WHERE tag='dropped_records'").fetchall()
        c.eq(rows, [(str(DROPPED),)], "rocpd metadata row")
    path = one(os.path.join(out, "**", "run_results.pftrace"))
    c.check(path is not None, "a results.pftrace")
    if path:
        with open(path, "rb") as f:
            d = subprocess.run(["protoc", "--proto_path=" + os.path.dirname(proto),
                                "--decode=perfetto.protos.Trace", os.path.basename(proto)],
                               stdin=f, capture_output=True, text=True)
        c.check('name: "DROPPED RECORDS"' in d.stdout and
                "counter_value: {}".format(DROPPED) in d.stdout, "Perfetto counter track")
    path = one(os.path.join(out, "**", "run_results.otf2"))
    c.check(path is not None, "a results.otf2")
    if path:
        d = subprocess.run(["otf2-print", "-I", path], capture_output=True, text=True)
        c.check("ROCPROFV3::DROPPED_RECORDS" in d.stdout and str(DROPPED) in d.stdout,
                "OTF2 archive property")
    path = one(os.path.join(out, "**", "run_summary.txt"))
    c.check(path is not None, "a summary file")
    if path:
        with open(path) as f:
            c.check("{} records were dropped".format(DROPPED) in f.read(), "summary line")
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
