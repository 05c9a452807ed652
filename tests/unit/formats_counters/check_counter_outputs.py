#!/usr/bin/env python3
"""Reads a counter run (no kernel trace) in every format with readers we did not write and
checks each against the expectations the test computed from the records:
  * CSV (csv module): counter_collection.csv, one row per (dispatch, counter), rocprofv3's 19
    columns, the dispatch fields from the counted dispatch, instances summed;
    counter_collection_stats.csv (ours): one row per (kernel, counter), min <= average <= max;
  * rocpd (sqlite3): the counters_collection view AMD's rocpd tool reads, the kernels the counted
    dispatches became, pmc_info;
  * JSON (json module): callback_records.counter_collection per dispatch, the counters table
    with dimensions, strings.counters.dimension_ids;
  * Perfetto (protoc): one "<agent> PMC <counter>" counter track per agent and counter, a value
    and a zero per counter value;
  * OTF2 (otf2-print): one METRIC event per counter value;
  * the -S file: the COUNTER_COLLECTION SUMMARY table, one row per (kernel, counter).

usage: check_counter_outputs.py <output_dir> <expected.json>
"""
import collections
import csv
import json
import math
import os
import re
import sqlite3
import subprocess
import sys

failures = []

COLUMNS = ["Correlation_Id", "Dispatch_Id", "Agent_Id", "Queue_Id", "Process_Id", "Thread_Id",
           "Grid_Size", "Kernel_Id", "Kernel_Name", "Workgroup_Size", "LDS_Block_Size",
           "Scratch_Size", "VGPR_Count", "Accum_VGPR_Count", "SGPR_Count", "Counter_Name",
           "Counter_Value", "Start_Timestamp", "End_Timestamp"]


def check(what, got, want):
    ok = got == want
    print(f"{'ok ' if ok else 'BAD'} {what}: {got!r}" + ("" if ok else f" (expected {want!r})"))
    if not ok:
        failures.append(what)


def close(a, b):
    return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-9)


def check_csv(out_dir, prefix, exp):
    path = os.path.join(out_dir, f"{prefix}_counter_collection.csv")
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = [dict(zip(header, r)) for r in reader]
    check("csv columns", header, COLUMNS)
    check("csv rows", len(rows), len(exp["rows"]))
    want = {(r["dispatch"], r["counter"]): r for r in exp["rows"]}
    bad = 0
    for row in rows:
        e = want.get((int(row["Dispatch_Id"]), row["Counter_Name"]))
        if (e is None or not close(row["Counter_Value"], e["value"])
                or row["Kernel_Name"] != e["kernel"]
                or int(row["Correlation_Id"]) != e["correlation"]
                or int(row["Thread_Id"]) != e["thread"] or int(row["Grid_Size"]) != e["grid"]
                or int(row["Workgroup_Size"]) != e["workgroup"]
                or int(row["Start_Timestamp"]) != e["start"]
                or int(row["End_Timestamp"]) != e["end"]
                or not row["Agent_Id"].startswith("Agent ")):
            bad += 1
            if bad < 4:
                print("  mismatch:", row, e)
    check("csv rows carry their dispatch's fields and summed values", bad, 0)

    stats_path = os.path.join(out_dir, f"{prefix}_counter_collection_stats.csv")
    with open(stats_path, newline="") as f:
        stats = list(csv.DictReader(f))
    check("counter stats rows", len(stats), exp["kernel_counter_pairs"])
    check("counter stats cover every value",
          sum(int(r["Dispatches"]) for r in stats), len(exp["rows"]))
    ordered = all(float(r["Min"]) <= float(r["Average"]) <= float(r["Max"]) for r in stats)
    check("counter stats min <= average <= max", ordered, True)


def check_rocpd(out_dir, prefix, exp):
    db = sqlite3.connect(os.path.join(out_dir, f"{prefix}_results.db"))
    rows = db.execute("SELECT dispatch_id, counter_name, value, kernel_name, correlation_id, "
                      "stack_id, tid, grid_size, workgroup_size, start, end "
                      "FROM counters_collection").fetchall()
    check("rocpd counters_collection rows", len(rows), len(exp["rows"]))
    want = {(r["dispatch"], r["counter"]): r for r in exp["rows"]}
    bad = 0
    for d, name, value, kernel, _external, stack, tid, grid, wg, start, end in rows:
        e = want.get((d, name))
        if (e is None or not close(value, e["value"]) or kernel != e["kernel"]
                or stack != e["correlation"] or tid != e["thread"] or grid != e["grid"]
                or wg != e["workgroup"] or start != e["start"] or end != e["end"]):
            bad += 1
    check("rocpd rows join their dispatch", bad, 0)
    check("rocpd kernels (the counted dispatches)",
          db.execute("SELECT count(*) FROM kernels").fetchone()[0], exp["dispatches"])
    check("rocpd pmc_events (one per value)",
          db.execute("SELECT count(*) FROM rocpd_pmc_event").fetchone()[0], exp["values"])
    check("rocpd pmc_info", db.execute("SELECT count(*) FROM pmc_info").fetchone()[0],
          exp["counters"])


def check_json(out_dir, prefix, exp):
    with open(os.path.join(out_dir, f"{prefix}_results.json")) as f:
        root = json.load(f)["rocprofiler-sdk-tool"][0]
    entries = root["callback_records"]["counter_collection"]
    check("json counter_collection entries", len(entries), exp["dispatches"])
    by_dispatch = collections.defaultdict(list)
    for r in exp["rows"]:
        by_dispatch[r["dispatch"]].append(r)
    bad = 0
    for entry in entries:
        info = entry["dispatch_data"]["dispatch_info"]
        rows = by_dispatch.get(info["dispatch_id"], [])
        grid = info["grid_size"]
        if (not rows or entry["dispatch_data"]["correlation_id"]["internal"] != rows[0]["correlation"]
                or entry["thread_id"] != rows[0]["thread"]
                or grid["x"] * grid["y"] * grid["z"] != rows[0]["grid"]
                or not entry["records"]):
            bad += 1
    check("json entries carry their dispatch", bad, 0)
    check("json values", sum(len(e["records"]) for e in entries), exp["values"])
    counters = root["counters"]
    check("json counters", len(counters), exp["counters"])
    check("json counter dimensions",
          all(c["dimensions"] == [{"id": 1, "instance_size": 1, "name": "DIMENSION_INSTANCE"}]
              and len(c["instances"]) == 1 for c in counters), True)
    check("json dimension ids", root["strings"]["counters"]["dimension_ids"],
          [{"id": 1, "instance_size": 1, "name": "DIMENSION_INSTANCE"}])


def check_perfetto(out_dir, prefix, exp):
    text = subprocess.run(
        [exp["protoc"], "--decode=perfetto.protos.Trace", "-I", exp["proto_dir"],
         os.path.join(exp["proto_dir"], "perfetto_trace.proto")],
        stdin=open(os.path.join(out_dir, f"{prefix}_results.pftrace"), "rb"),
        capture_output=True, check=True).stdout.decode()
    names, counts = {}, collections.Counter()
    for packet in re.split(r"\npacket \{", text):
        uuid = re.search(r"track_descriptor \{\s*uuid: (\d+)", packet)
        if uuid:
            name = re.search(r"\n    name: \"([^\"]*)\"", packet)
            names[uuid.group(1)] = name.group(1) if name else ""
        elif "type: TYPE_COUNTER" in packet:
            counts[re.search(r"track_uuid: (\d+)", packet).group(1)] += 1
    pmc = {u: n for u, n in names.items() if " PMC " in n}
    check("perfetto PMC tracks", len(pmc), exp["pmc_tracks"])
    check("perfetto PMC track names", all(re.fullmatch(r"Agent \[\d+\] PMC \w+", n)
                                          for n in pmc.values()), True)
    check("perfetto PMC points (value, then 0)", sum(counts[u] for u in pmc), 2 * exp["values"])


def check_otf2(out_dir, prefix, exp):
    out = subprocess.run([exp["otf2_print"], os.path.join(out_dir, f"{prefix}_results.otf2")],
                         capture_output=True, check=True).stdout.decode()
    check("otf2 METRIC events", sum(1 for l in out.splitlines() if l.startswith("METRIC")),
          exp["values"])


def check_summary(out_dir, prefix, exp):
    with open(os.path.join(out_dir, f"{prefix}_summary.txt")) as f:
        text = f.read()
    start = text.find("ROCPROFV3 COUNTER_COLLECTION SUMMARY:")
    check("summary has the counter table", start >= 0, True)
    rows = [l for l in text[start:].splitlines()[3:] if l.startswith("| ")]
    check("summary counter rows", len(rows), exp["kernel_counter_pairs"])


def main():
    out_dir, expected_path = sys.argv[1:3]
    with open(expected_path) as f:
        exp = json.load(f)
    prefix = exp["prefix"]
    for step in (check_csv, check_rocpd, check_json, check_perfetto, check_otf2, check_summary):
        step(out_dir, prefix, exp)
    if failures:
        print("FAILED:", ", ".join(failures))
        sys.exit(1)


if __name__ == "__main__":
    main()
