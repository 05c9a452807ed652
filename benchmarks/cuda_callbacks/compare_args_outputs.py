#!/usr/bin/env python3
"""Checks that two builds write the same CUDA API arguments: runs each build's rocprofv3
--sys-trace --cuda-nested-driver-trace on the same fake run (one fake libcupti and
fake_cuda_app for both, address randomisation off so that stack addresses repeat) and compares
what every record carries: results.json's cuda_api records (operation, retval, args, in call
order), the rocpd database's argument rows, and the debug annotations of the Perfetto trace
(decoded by protoc). Cases: the fake app's default calls, 300 bench launches with the same
arguments, and 300 with distinct arguments (FAKE_CUPTI_BENCH_DISTINCT_ARGS).

usage: compare_args_outputs.py --before BUILD --after BUILD --fake LIBCUPTI --app FAKE_APP
                               --proto perfetto_trace.proto [--work DIR]
Prints one line per case and output, then ALL IDENTICAL (exit 0) or DIFFERENCES (exit 1).
"""
import argparse
import glob
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile


def run(rocprofv3, out, app, fake, app_args, env_extra):
    shutil.rmtree(out, ignore_errors=True)
    # Arguments come through callbacks: ROCPROF_CUDA_API_ARGS=1 asks a build whose rocprofv3
    # takes API calls from activity records by default (issue 15) for them; older builds ignore it.
    env = dict(os.environ, CUPTI_LIB=fake, ROCPROF_CUDA_API_ARGS="1", **env_extra)
    cmd = ["setarch", "-R", rocprofv3, "--sys-trace", "--cuda-nested-driver-trace", "-f", "json",
           "pftrace", "rocpd", "-d", out, "-o", "run", "--", app] + app_args
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {p.returncode}\n{p.stderr[-2000:]}")


def json_args(out, _proto):
    path = glob.glob(os.path.join(out, "**", "run_results.json"), recursive=True)[0]
    with open(path) as f:
        doc = json.load(f)["rocprofiler-sdk-tool"][0]
    kinds = doc["strings"]["buffer_records"]
    records = sorted(doc["buffer_records"]["cuda_api"],
                     key=lambda r: r["correlation_id"]["internal"])
    return [(kinds[r["kind"]]["operations"][r["operation"]], r.get("retval"), r.get("args"))
            for r in records]


def rocpd_args(out, _proto):
    path = glob.glob(os.path.join(out, "**", "*.db"), recursive=True)[0]
    db = sqlite3.connect(path)
    rows = []
    for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND "
                               "name LIKE 'rocpd_arg%'").fetchall():
        columns = [c[1] for c in db.execute(f"PRAGMA table_info({table})")
                   if c[1] not in ("id", "guid", "event_id")]
        rows += db.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall()
    return sorted(rows, key=repr)


def perfetto_annotations(out, proto):
    path = glob.glob(os.path.join(out, "**", "run_results.pftrace"), recursive=True)[0]
    with open(path, "rb") as fh:
        text = subprocess.run(["protoc", f"--proto_path={os.path.dirname(proto)}",
                               "--decode=perfetto.protos.Trace", os.path.basename(proto)],
                              stdin=fh, capture_output=True, text=True).stdout
    return sorted(line.strip() for line in text.splitlines() if "string_value" in line)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    for name in ("--before", "--after", "--fake", "--app", "--proto"):
        ap.add_argument(name, required=True)
    ap.add_argument("--work")
    args = ap.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="compare_args_")
    cases = {"default": ([], {}), "bench_same": (["bench", "300"], {}),
             "bench_distinct": (["bench", "300"], {"FAKE_CUPTI_BENCH_DISTINCT_ARGS": "1"})}
    same_everywhere = True
    for case, (app_args, env) in cases.items():
        outs = {}
        for side in ("before", "after"):
            outs[side] = os.path.join(work, f"{case}_{side}")
            run(os.path.join(getattr(args, side), "bin", "rocprofv3"), outs[side], args.app,
                args.fake, app_args, env)
        for what, read in (("json", json_args), ("rocpd", rocpd_args),
                           ("perfetto", perfetto_annotations)):
            before, after = read(outs["before"], args.proto), read(outs["after"], args.proto)
            same = before == after
            same_everywhere &= same
            print(f"{case:<15} {what:<9} {len(before):>6} / {len(after):>6} "
                  f"{'identical' if same else 'DIFFERENT'}")
    print("ALL IDENTICAL" if same_everywhere else "DIFFERENCES")
    return 0 if same_everywhere else 1


if __name__ == "__main__":
    sys.exit(main())
