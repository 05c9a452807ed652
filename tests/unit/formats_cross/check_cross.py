#!/usr/bin/env python3
"""Reads the rocpd, CSV, JSON, Perfetto and OTF2 outputs of one synthetic trace with readers we did
not write (sqlite3, csv, json modules; protoc; otf2-print) and checks that every format holds the
same number of records per domain, that correlation ids are unique and dispatch ids run 1..N.

usage: check_cross.py <output_dir> <expected.json>
"""
import collections
import csv
import glob
import json
import os
import re
import sqlite3
import subprocess
import sys

failures = []
DOMAINS = ("kernel_dispatch", "memory_copy", "memory_set", "memory_allocation")


def check(what, got, want):
    mark = "ok " if got == want else "BAD"
    print(f"{mark} {what}: {got} (expected {want})")
    if got != want:
        failures.append(what)


def rocpd_counts(path, expected):
    db = sqlite3.connect(path)
    q = lambda sql, *a: db.execute(sql, a).fetchone()[0]
    out = {}
    for key, e in expected["api"].items():
        marks = ",".join("?" * len(e["categories"]))
        regions = q(f"SELECT count(*) FROM regions WHERE category IN ({marks})", *e["categories"])
        samples = q(f"SELECT count(*) FROM samples WHERE category IN ({marks})", *e["categories"])
        out[key] = regions + samples
    out["kernel_dispatch"] = q("SELECT count(*) FROM kernels")
    out["memory_copy"] = q("SELECT count(*) FROM memory_copies WHERE category != 'MEMORY_SET'")
    out["memory_set"] = q("SELECT count(*) FROM memory_copies WHERE category = 'MEMORY_SET'")
    out["memory_allocation"] = q("SELECT count(*) FROM memory_allocations")
    ids = [r[0] for r in db.execute("SELECT dispatch_id FROM kernels ORDER BY dispatch_id")]
    check("rocpd dispatch ids are 1..N", ids, list(range(1, expected["kernel_dispatch"] + 1)))
    return out


def csv_rows(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def csv_counts(out_dir, prefix, expected):
    out = {}
    seen_files = {}
    correlation = []
    for key, e in expected["api"].items():
        rows = csv_rows(os.path.join(out_dir, f"{prefix}_{e['csv']}.csv"))
        seen_files[e["csv"]] = rows
        out[key] = sum(1 for r in rows if r["Domain"] in e["categories"])
    for rows in seen_files.values():
        correlation += [r["Correlation_Id"] for r in rows]
    check("csv API correlation ids are unique", len(set(correlation)), len(correlation))
    kernels = csv_rows(os.path.join(out_dir, f"{prefix}_kernel_trace.csv"))
    out["kernel_dispatch"] = len(kernels)
    ids = sorted(int(r["Dispatch_Id"]) for r in kernels)
    check("csv dispatch ids are 1..N", ids, list(range(1, expected["kernel_dispatch"] + 1)))
    out["memory_copy"] = len(csv_rows(os.path.join(out_dir, f"{prefix}_memory_copy_trace.csv")))
    out["memory_set"] = len(csv_rows(os.path.join(out_dir, f"{prefix}_memory_set_trace.csv")))
    out["memory_allocation"] = len(
        csv_rows(os.path.join(out_dir, f"{prefix}_memory_allocation_trace.csv")))
    return out


def json_counts(path, expected):
    with open(path) as f:
        doc = json.load(f)
    root = doc["rocprofiler-sdk-tool"]
    if isinstance(root, list):
        root = root[0]
    records = root["buffer_records"]
    out = {key: len(records.get(key, [])) for key in expected["api"]}
    for key in DOMAINS:
        out[key] = len(records.get(key, []))
    return out


def perfetto_counts(path, expected):
    text = subprocess.run(
        [expected["protoc"], "--decode=perfetto.protos.Trace", "-I", expected["proto_dir"],
         os.path.join(expected["proto_dir"], "perfetto_trace.proto")],
        stdin=open(path, "rb"), capture_output=True, check=True).stdout.decode()
    # Categories and names are interned per sequence: resolve iids per sequence.
    categories, names = {}, collections.defaultdict(dict)
    counts = collections.Counter()
    track_names = {}
    counter_tracks = collections.Counter()
    for packet in re.split(r"\npacket \{", text):
        seq = re.search(r"trusted_packet_sequence_id: (\d+)", packet)
        seq = seq.group(1) if seq else "0"
        for iid, name in re.findall(r"event_categories \{\s*iid: (\d+)\s*name: \"([^\"]*)\"", packet):
            categories[(seq, iid)] = name
        for iid, name in re.findall(r"event_names \{\s*iid: (\d+)\s*name: \"((?:[^\"\\]|\\.)*)\"", packet):
            names[seq][iid] = name
        uuid = re.search(r"track_descriptor \{\s*uuid: (\d+)", packet)
        if uuid:
            name = re.search(r"\n    name: \"([^\"]*)\"", packet)
            track_names[uuid.group(1)] = name.group(1) if name else ""
        if "type: TYPE_SLICE_BEGIN" in packet:
            # protoc prints fields in field-number order, so the slice's own name_iid (4 spaces
            # deep) comes after the debug annotations' (6 spaces deep).
            cat = categories.get((seq, re.search(r"\n    category_iids: (\d+)", packet).group(1)))
            name = names[seq].get(re.search(r"\n    name_iid: (\d+)", packet).group(1))
            if name == "MEMORY_SET":
                cat = "memory_set"
            counts[cat] += 1
        elif "type: TYPE_COUNTER" in packet:
            counter_tracks[re.search(r"track_uuid: (\d+)", packet).group(1)] += 1
    out = {key: counts[key] for key in expected["api"]}
    out["kernel_dispatch"] = counts["kernel_dispatch"]
    out["memory_copy"] = counts["memory_copy"]
    out["memory_set"] = counts["memory_set"]
    # Allocations are counter samples only (rocprofv3 §6): one per record on the allocated or
    # free bytes tracks.
    out["memory_allocation"] = sum(
        n for uuid, n in counter_tracks.items()
        if track_names.get(uuid, "").startswith(("ALLOCATE BYTES", "FREE BYTES")))
    return out


def otf2_counts(anchor, expected):
    result = subprocess.run([expected["otf2_print"], anchor], capture_output=True, check=True)
    counts = collections.Counter()
    previous = None
    for line in result.stdout.decode().splitlines():
        if line.startswith("ENTER"):
            previous = line
        m = re.search(r'\("category" <\d+>; STRING; "([^"]*)"', line)
        if m and previous is not None:
            region = re.search(r'Region: "((?:[^"\\]|\\.)*)"', previous).group(1)
            counts["memory_set" if region == "MEMORY_SET" else m.group(1)] += 1
            previous = None
    out = {key: counts[key] for key in expected["api"]}
    for key in DOMAINS:
        out[key] = counts[key]
    return out


def main():
    out_dir, expected_path = sys.argv[1:3]
    with open(expected_path) as f:
        expected = json.load(f)
    prefix = expected["prefix"]
    formats = {
        "rocpd": rocpd_counts(os.path.join(out_dir, f"{prefix}_results.db"), expected),
        "csv": csv_counts(out_dir, prefix, expected),
        "json": json_counts(os.path.join(out_dir, f"{prefix}_results.json"), expected),
        "pftrace": perfetto_counts(os.path.join(out_dir, f"{prefix}_results.pftrace"), expected),
        "otf2": otf2_counts(os.path.join(out_dir, f"{prefix}_results.otf2"), expected),
    }
    for fmt, counts in formats.items():
        for key, e in expected["api"].items():
            want = e["without_marks"] if fmt == "otf2" else e["count"]
            check(f"{fmt} {key}", counts[key], want)
        for key in DOMAINS:
            check(f"{fmt} {key}", counts[key], expected[key])
    if failures:
        print("FAILED:", ", ".join(failures))
        sys.exit(1)


if __name__ == "__main__":
    main()
