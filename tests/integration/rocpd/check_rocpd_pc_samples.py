#!/usr/bin/env python3
"""rocpd and PC samples: a run's outputs (make_pc_sample_run: the live writers on a synthetic
trace with host-trap, stochastic and NVIDIA aggregated samples) against `rocpd convert` and
`rocpd summary` of its database. Read back with python's csv, json and sqlite3 modules.

The pftrace's "PC sampling hot spots" track (decoded by protoc) of `rocpd convert -f pftrace`
must hold the same slices and annotations as the live run's.

Usage: check_rocpd_pc_samples.py --rocpd BIN --make-run BIN --proto PROTO --work-dir DIR
"""
import argparse
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
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def run(cmd):
    print("running: " + " ".join(cmd), flush=True)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def csv_rows(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def pc_json(path):
    with open(path) as f:
        doc = json.load(f)["rocprofiler-sdk-tool"][0]
    records = {k: v for k, v in doc["buffer_records"].items() if k.startswith("pc_sample")}
    strings = {k: doc["strings"].get(k) for k in ("pc_sample_instructions", "pc_sample_comments")}
    return records, strings


PC_CSV = ["pc_sampling_host_trap.csv", "pc_sampling_stochastic.csv", "pc_sampling_hotspots.csv"]


def check_convert(a, live, db):
    conv = os.path.join(a.work_dir, "conv")
    p = run([a.rocpd, "convert", "-i", db, "--output-format", "csv", "json", "-d", conv,
             "-o", "conv"])
    check(p.returncode == 0, f"rocpd convert exit 0 ({p.stderr[-400:]})")
    for name in PC_CSV:
        ours, theirs = os.path.join(conv, "conv_" + name), live + "_" + name
        check(os.path.exists(ours), f"convert wrote {name}")
        if not os.path.exists(ours):
            continue
        a_rows, b_rows = csv_rows(theirs), csv_rows(ours)
        check(len(a_rows) > 1 and a_rows == b_rows,
              f"{name}: converted equals live row for row ({len(b_rows) - 1} / "
              f"{len(a_rows) - 1} rows; first difference: "
              f"{next(((x, y) for x, y in zip(a_rows, b_rows) if x != y), None)})")
        with open(theirs, "rb") as x, open(ours, "rb") as y:
            check(x.read() == y.read(), f"{name}: byte for byte")
    live_records, live_strings = pc_json(live + "_results.json")
    conv_records, conv_strings = pc_json(os.path.join(conv, "conv_results.json"))
    check(sorted(live_records) == ["pc_sample_host_trap", "pc_sample_stochastic"],
          f"live JSON has both pc_sample arrays ({sorted(live_records)})")
    for kind, rows in live_records.items():
        check(rows and rows == conv_records.get(kind),
              f"JSON {kind}: converted equals live ({len(rows)} / "
              f"{len(conv_records.get(kind, []))} records)")
    check(live_strings == conv_strings and live_strings["pc_sample_instructions"],
          "JSON pc_sample_instructions / pc_sample_comments equal")
    # Aggregated rows keep what was never measured empty (not zero).
    stochastic = csv_rows(live + "_pc_sampling_stochastic.csv")
    header = stochastic[0]
    agg = [dict(zip(header, r)) for r in stochastic[1:] if r[header.index("Sample_Count")] != "1"]
    check(agg and all(r["Sample_Timestamp"] == "" and r["Dispatch_Id"] == "" for r in agg),
          f"aggregated samples: no timestamp, no dispatch ({len(agg)} rows)")
    return stochastic


def check_database(db, stochastic):
    con = sqlite3.connect(db)
    n = con.execute("SELECT COUNT(*), SUM(sample_count) FROM pc_samples").fetchone()
    host = len(csv_rows(os.path.dirname(db) + "/live_pc_sampling_host_trap.csv")) - 1
    header = stochastic[0]
    total = host + sum(int(r[header.index("Sample_Count")]) for r in stochastic[1:])
    check(n == (host + len(stochastic) - 1, total),
          f"sqlite3: pc_samples view rows and samples equal the CSVs ({n})")


def hotspot_rows(path):
    """Hot-spot rows keyed by (kernel id, kind, rank): (name, samples, percentage)."""
    with open(path, newline="") as f:
        return {(r["Kernel_Id"], r["Kind"], r["Rank"]):
                (r["Kernel_Name"], r["Name"], int(r["Samples"]), round(float(r["Percentage"]), 2))
                for r in csv.DictReader(f)}


def check_summary(a, live, db, live_text):
    p = run([a.rocpd, "summary", "-i", db])
    check(p.returncode == 0, f"rocpd summary exit 0 ({p.stderr[-400:]})")
    check(live_text.strip() and live_text.strip() in p.stdout,
          "console summary prints the live -S hot-spot report")
    check("KERNELS_SUMMARY:" in p.stdout, "console summary still prints AMD's tables")
    out = os.path.join(a.work_dir, "summary")
    p = run([a.rocpd, "summary", "-i", db, "--format", "csv", "-d", out])
    check(p.returncode == 0, f"rocpd summary --format csv exit 0 ({p.stderr[-400:]})")
    ours = os.path.join(out, "pc_sampling_hotspots.csv")
    check(os.path.exists(ours), "summary wrote pc_sampling_hotspots.csv")
    if os.path.exists(ours):
        a_rows, b_rows = hotspot_rows(live + "_pc_sampling_hotspots.csv"), hotspot_rows(ours)
        check(a_rows and a_rows == b_rows,
              f"summary's hot-spot table equals the live hot-spot CSV ({len(b_rows)} rows)")
    p = run([a.rocpd, "summary", "-i", db, "--format", "json", "-d", out])
    with open(os.path.join(out, "pc_sampling_hotspots.json")) as f:
        rows = json.load(f)
    top = [r for r in rows if r["Kind"] == "stall_reason" and r["Rank"] == 1]
    check(top and top[0]["Name"] == "long_scoreboard",
          f"JSON summary: the busiest kernel's top stall reason is long_scoreboard ({top[:1]})")


def check_query(a, db):
    p = run([a.rocpd, "query", "-i", db, "--query",
             "SELECT method, SUM(sample_count) AS n FROM pc_samples GROUP BY method ORDER BY method",
             "--format", "csv", "-d", os.path.join(a.work_dir, "query"), "-o", "q"])
    check(p.returncode == 0, f"rocpd query over pc_samples exit 0 ({p.stderr[-400:]})")
    con = sqlite3.connect(db)
    want = con.execute("SELECT method, SUM(sample_count) FROM pc_samples GROUP BY method "
                       "ORDER BY method").fetchall()
    got = [(r[0], int(r[1])) for r in csv_rows(os.path.join(a.work_dir, "query", "q.csv"))[1:]]
    check(got == want and len(got) == 2, f"query's pc_samples equal sqlite3's ({got} / {want})")


def check_merged(a, live):
    """Two processes merged into one database: CSVs concatenated under one header, the summary's
    table per process."""
    other = os.path.join(a.work_dir, "other")
    os.makedirs(other)
    p = run([a.make_run, other, "5353"])
    check(p.returncode == 0, f"second run exit 0 ({p.stderr[-400:]})")
    merged = os.path.join(a.work_dir, "merged")
    p = run([a.rocpd, "merge", "-i", live + "_results.db", os.path.join(other, "live_results.db"),
             "-d", merged, "-o", "m"])
    check(p.returncode == 0, f"rocpd merge exit 0 ({p.stderr[-400:]})")
    db = os.path.join(merged, "m.db")
    p = run([a.rocpd, "convert", "-i", db, "-f", "csv", "-d", merged, "-o", "c"])
    check(p.returncode == 0, f"convert of the merged database exit 0 ({p.stderr[-400:]})")
    for name in PC_CSV:
        one, two = csv_rows(live + "_" + name), csv_rows(os.path.join(other, "live_" + name))
        got = csv_rows(os.path.join(merged, "c_" + name))
        check(got == one + two[1:], f"merged {name}: both processes' rows under one header "
                                    f"({len(got) - 1} / {len(one) + len(two) - 2})")
    p = run([a.rocpd, "summary", "-i", db, "--format", "csv", "-d", merged])
    with open(os.path.join(merged, "pc_sampling_hotspots.csv"), newline="") as f:
        pids = {r["ProcessID"] for r in csv.DictReader(f)}
    check(p.returncode == 0 and pids == {"4242", "5353"},
          f"merged summary: hot spots per process ({sorted(pids)})")


def hotspot_slices(a, path):
    """The hot-spot track's names and the annotations of its slices, as protoc decodes them."""
    with open(path, "rb") as f:
        d = subprocess.run(["protoc", f"--proto_path={os.path.dirname(a.proto)}",
                            "--decode=perfetto.protos.Trace", os.path.basename(a.proto)],
                           stdin=f, capture_output=True, text=True)
    check(d.returncode == 0, f"protoc decodes {os.path.basename(path)} ({d.stderr[-300:]})")
    tracks = sorted(set(re.findall(r'name: "(PC sampling hot spots[^"]*)"', d.stdout)))
    slices = []
    for packet in d.stdout.split("\npacket {")[1:]:
        if 'name: "pc_samples"' in packet:
            slices.append(sorted(re.findall(r'string_value: "([^"]*)"', packet)))
    return tracks, sorted(slices)


def check_pftrace(a, live, db):
    out = os.path.join(a.work_dir, "pftrace")
    p = run([a.rocpd, "convert", "-i", db, "-f", "pftrace", "-d", out, "-o", "conv"])
    check(p.returncode == 0, f"rocpd convert -f pftrace exit 0 ({p.stderr[-400:]})")
    live_tracks, live_slices = hotspot_slices(a, live + "_results.pftrace")
    conv_tracks, conv_slices = hotspot_slices(a, os.path.join(out, "conv_results.pftrace"))
    check(live_tracks and live_tracks == conv_tracks,
          f"pftrace: the hot-spot track in both ({live_tracks} / {conv_tracks})")
    check(live_slices and live_slices == conv_slices,
          f"pftrace: converted hot-spot slices equal the live ones ({len(conv_slices)} / "
          f"{len(live_slices)})")
    text = "\n".join(v for s in live_slices for v in s)
    check("long_scoreboard" in text and "LDG.E R2, [R2.64]" in text,
          "pftrace: hot-spot annotations name the stall reason and the instruction")


def check_window(a, live, db):
    rows = csv_rows(live + "_pc_sampling_host_trap.csv")
    times = sorted(int(r[0]) for r in rows[1:])
    lo, hi = times[len(times) // 4], times[len(times) // 2]
    out = os.path.join(a.work_dir, "window")
    p = run([a.rocpd, "convert", "-i", db, "--output-format", "csv", "-d", out, "-o", "w",
             "--start", str(lo), "--end", str(hi)])
    check(p.returncode == 0, f"windowed convert exit 0 ({p.stderr[-400:]})")
    got = csv_rows(os.path.join(out, "w_pc_sampling_host_trap.csv"))
    expected = [r for r in rows[1:] if lo <= int(r[0]) <= hi]
    check(got[1:] == expected and expected,
          f"--start/--end keep the host-trap samples inside the window ({len(got) - 1} / "
          f"{len(expected)})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rocpd", required=True)
    ap.add_argument("--make-run", required=True)
    ap.add_argument("--proto", required=True)
    ap.add_argument("--work-dir", required=True)
    a = ap.parse_args()
    shutil.rmtree(a.work_dir, ignore_errors=True)
    os.makedirs(a.work_dir)
    p = run([a.make_run, a.work_dir])
    check(p.returncode == 0, f"make_pc_sample_run exit 0 ({p.stderr[-400:]})")
    live = os.path.join(a.work_dir, "live")
    db = live + "_results.db"
    stochastic = check_convert(a, live, db)
    check_database(db, stochastic)
    check_summary(a, live, db, p.stdout)
    check_window(a, live, db)
    check_pftrace(a, live, db)
    check_query(a, db)
    check_merged(a, live)
    print(f"rocpd.pc_samples: {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
