#!/usr/bin/env python3
"""Reads the CSV writer's output with Python's csv module (a reader we did not write) and checks
it against expectations computed by the test from the synthetic trace.

usage: check_csv.py <output_dir> <prefix> <expected.json>
"""
import csv
import json
import math
import os
import re
import sys


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        fail(f"{path} is empty")
    return rows[0], rows[1:]


def main():
    out_dir, prefix, expected_path = sys.argv[1:4]
    with open(expected_path) as f:
        expected = json.load(f)

    produced = sorted(os.listdir(out_dir))
    want = sorted(f"{prefix}_{name}" for name in expected["files"])
    if produced != want:
        fail(f"files {produced} != expected {want}")

    for name, exp in expected["files"].items():
        header, rows = read(os.path.join(out_dir, f"{prefix}_{name}"))
        if len(rows) != exp["rows"]:
            fail(f"{name}: {len(rows)} rows, expected {exp['rows']}")
        for r in rows:
            if len(r) != len(header):
                fail(f"{name}: row {r} has {len(r)} fields, header {len(header)}")
        table = [dict(zip(header, r)) for r in rows]

        if name == "kernel_trace.csv":
            ids = sorted(int(r["Dispatch_Id"]) for r in table)
            if ids != list(range(1, len(ids) + 1)):
                fail("dispatch ids are not 1..N")
            for r in table:
                if r["Kind"] != "KERNEL_DISPATCH" or not r["Agent_Id"].startswith("Agent "):
                    fail(f"kernel row {r}")
                if int(r["LDS_Block_Size"]) % 512:
                    fail("LDS_Block_Size not a multiple of 512")
                if int(r["End_Timestamp"]) < int(r["Start_Timestamp"]):
                    fail("kernel ends before it starts")
        if name == "marker_api_trace.csv":
            marks = sum(1 for r in table if r["Start_Timestamp"] == r["End_Timestamp"])
            if marks != exp["marks"]:
                fail(f"{marks} marks, expected {exp['marks']}")
        if name == "memory_allocation_trace.csv":
            for r in table:
                if not re.fullmatch(r"0x[0-9a-f]{16}", r["Address"]):
                    fail(f"address {r['Address']}")
                if r["Operation"].endswith("FREE") and (r["Agent_Id"] != "" or r["Allocation_Size"] != "0"):
                    fail(f"free row {r}")
        if name == "counter_collection.csv":
            for r in table:
                v = r["Counter_Value"]
                if not re.fullmatch(r"\d+\.\d{6}|\d\.\d{8}e[-+]\d+", v):
                    fail(f"counter value format {v}")
        if name.endswith("_api_trace.csv"):
            corr = [int(r["Correlation_Id"]) for r in table]
            if len(set(corr)) != len(corr):
                fail(f"{name}: correlation ids not unique")
        if name == "counter_collection_stats.csv":
            if sum(int(r["Dispatches"]) for r in table) != exp["dispatch_values"]:
                fail("counter stats do not cover every counted value")
            for r in table:
                if not float(r["Min"]) <= float(r["Average"]) <= float(r["Max"]):
                    fail(f"counter stats row {r}")
        elif name.endswith("stats.csv"):
            totals = [int(r["TotalDurationNs"]) for r in table]
            if totals != sorted(totals, reverse=True):
                fail(f"{name}: not sorted by total duration")
            pct = sum(float(r["Percentage"]) for r in table)
            if table and not math.isclose(pct, 100.0, abs_tol=0.1):
                fail(f"{name}: percentages sum to {pct}")
            for r in table:
                calls = int(r["Calls"])
                if calls < 2 and float(r["StdDev"]) != 0.0:
                    fail(f"{name}: StdDev with one call")
                if int(r["MinNs"]) > int(r["MaxNs"]):
                    fail(f"{name}: min > max")
        if name == "domain_stats.csv":
            calls = sum(int(r["Calls"]) for r in table)
            if calls != exp["calls"]:
                fail(f"domain_stats calls {calls}, expected {exp['calls']}")
    print("OK", len(expected["files"]), "files")


main()
