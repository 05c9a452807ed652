#!/usr/bin/env python3
"""End to end: the real rocprofv3 traces the multi-threaded ROCTx sample into every output format
at once (plus --stats and the -S summary on stdout), and every file is read back with a reader we
did not write. The same run must give the same marker record count everywhere, as AMD's own
cross-format checks require: CSV rows, JSON buffer_records, rocpd regions_and_samples, Perfetto
slices (protoc --decode), OTF2 ENTER events (otf2-print; marks excluded, as rocprofv3 skips them),
stats Calls and the summary table's CALLS.

usage: check_all_formats.py ROCPROFV3 ROCTX_APP PERFETTO_PROTO WORKDIR
"""
import csv
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def main():
    rocprofv3, app, proto, workdir = sys.argv[1:5]
    out = os.path.join(workdir, "all_formats")
    shutil.rmtree(out, ignore_errors=True)
    cmd = [rocprofv3, "--marker-trace", "--stats", "-S", "--summary-output-file", "stdout",
           "--output-format", "rocpd", "csv", "json", "pftrace", "otf2", "-d", out, "-o", "run",
           "--", app, "3", "20"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    check(p.returncode == 0, f"rocprofv3 exit status 0 (got {p.returncode}): {p.stderr[-500:]}")
    prefix = os.path.join(out, "run")

    with open(prefix + "_marker_api_trace.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    n = len(rows)
    marks = sum(1 for r in rows if r["Start_Timestamp"] == r["End_Timestamp"])
    check(n > 0 and marks > 0, f"CSV has marker rows ({n}) and marks ({marks})")
    ids = [int(r["Correlation_Id"]) for r in rows]
    check(len(set(ids)) == n, "correlation ids are unique")

    with open(prefix + "_results.json") as f:
        doc = json.load(f)["rocprofiler-sdk-tool"][0]
    check(len(doc["buffer_records"]["marker_api"]) == n, "JSON marker_api records == CSV rows")

    db = sqlite3.connect(prefix + "_results.db")
    got = db.execute("SELECT COUNT(*) FROM regions_and_samples WHERE category LIKE 'MARKER_%'")
    check(got.fetchone()[0] == n, "rocpd regions_and_samples markers == CSV rows")
    got = db.execute("SELECT COUNT(*) FROM samples WHERE category LIKE 'MARKER_%'").fetchone()[0]
    check(got == marks, f"rocpd marks are samples ({got} == {marks})")
    msgs = {r[0] for r in db.execute(
        "SELECT json_extract(extdata, '$.message') FROM rocpd_event WHERE category_id IN "
        "(SELECT id FROM rocpd_string WHERE string LIKE 'MARKER_%')")}
    check({"outer", "inner"} <= msgs, "rocpd keeps marker messages in rocpd_event.extdata")

    with open(prefix + "_results.pftrace", "rb") as f:
        d = subprocess.run(["protoc", f"--proto_path={os.path.dirname(proto)}",
                            "--decode=perfetto.protos.Trace", os.path.basename(proto)],
                           stdin=f, capture_output=True, text=True)
    check(d.returncode == 0, "protoc decodes the pftrace")
    begins = len(re.findall(r"type: TYPE_SLICE_BEGIN", d.stdout))
    ends = len(re.findall(r"type: TYPE_SLICE_END", d.stdout))
    check(begins == n and ends == n, f"Perfetto slices == CSV rows ({begins}/{ends} vs {n})")
    check("thread_name" in d.stdout, "Perfetto names the threads")

    d = subprocess.run(["otf2-print", prefix + "_results.otf2"], capture_output=True, text=True)
    check(d.returncode == 0, "otf2-print reads the archive")
    enters = sum(1 for line in d.stdout.splitlines() if line.startswith("ENTER"))
    leaves = sum(1 for line in d.stdout.splitlines() if line.startswith("LEAVE"))
    check(enters == n - marks and leaves == enters,
          f"OTF2 ENTER/LEAVE == CSV rows minus marks ({enters}/{leaves} vs {n - marks})")

    with open(prefix + "_marker_api_stats.csv", newline="") as f:
        calls = sum(int(r["Calls"]) for r in csv.DictReader(f))
    check(calls == n, f"marker_api_stats.csv Calls sum == CSV rows ({calls})")
    with open(prefix + "_domain_stats.csv", newline="") as f:
        domains = {r["Name"]: int(r["Calls"]) for r in csv.DictReader(f)}
    check(domains.get("MARKER_API") == n, f"domain_stats.csv MARKER_API == CSV rows ({domains})")

    table = [line for line in p.stdout.splitlines() if "| MARKER_API" in line]
    summary_calls = sum(int(line.split("|")[3]) for line in table)
    check("ROCPROFV3 SUMMARY:" in p.stdout, "summary table printed on stdout")
    check(summary_calls == n, f"summary CALLS == CSV rows ({summary_calls})")

    with open(prefix + "_agent_info.csv", newline="") as f:
        agents = list(csv.DictReader(f))
    check(any(a["Agent_Type"] == "CPU" and int(a["Cpu_Cores_Count"]) > 0 for a in agents),
          "agent_info.csv lists a CPU agent with cores")

    print(f"all_formats: {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
