#!/usr/bin/env python3
"""rocprofv3 --spm without a GPU: the real CLI, tool and core SPM service on the test backend's
device sampler (tests/unit/profiler/test_backend_sampler.cpp), driven by fake_spm_app (3 idle
samples, 5 at 32 warps, 2 idle; 1000 ns each). Read back with csv, json and protoc:
  * PREFIX_device_counter_collection.csv: one row per counter and sample, SQ_WAVES 0,0,0,32 x5,
    0,0 at the sample starts the app printed, FETCH_SIZE = 2 x 32 / 1024 (dram bytes / 1024);
  * JSON buffer_records.device_counter_sample holds the same values, the counters table names
    both counters;
  * the pftrace decodes (protoc --decode=perfetto.protos.Trace) and holds both counter tracks;
  * the rocpd database (read with Python's sqlite3): one track per agent and counter named by
    the counter, a rocpd_sample per sample whose event's rocpd_pmc_event holds the value, listed
    by AMD's `samples` view; `rocpd convert` back to CSV gives the run's
    device_counter_collection.csv byte for byte (optional ROCPD argument);
  * a counter set that needs two passes is refused when sampling starts, naming the counters.
usage: check_fake_spm_e2e.py ROCPROFV3 APP BACKEND_DIR BACKEND_LIB COUNTER_DEFS_DIR PROTO WORK
                             [ROCPD]
"""
import csv
import glob
import json
import os
import shutil
import sqlite3
import subprocess
import sys


def check_rocpd(check, out, expected, rocpd, env):
    """The samples in the database, through AMD's tables and `samples` view, and back to CSV."""
    db = os.path.join(out, "run_results.db")
    con = sqlite3.connect(db)
    tracks = con.execute("SELECT S.string, json_extract(T.extdata, '$.agent_id') FROM rocpd_track T "
                         "JOIN rocpd_string S ON S.id = T.name_id AND S.guid = T.guid "
                         "WHERE json_extract(T.extdata, '$.counter_id') IS NOT NULL").fetchall()
    check(sorted(name for name, _ in tracks) == ["FETCH_SIZE", "SQ_WAVES"] and
          all(agent is not None for _, agent in tracks),
          f"rocpd: one track per agent and counter, named by the counter {tracks}")
    rows = con.execute(
        "SELECT R.timestamp, P.value FROM rocpd_sample R "
        "JOIN rocpd_track T ON T.id = R.track_id AND T.guid = R.guid "
        "JOIN rocpd_string N ON N.id = T.name_id AND N.guid = T.guid "
        "JOIN rocpd_event E ON E.id = R.event_id AND E.guid = R.guid "
        "JOIN rocpd_string C ON C.id = E.category_id AND C.guid = E.guid "
        "JOIN rocpd_pmc_event P ON P.event_id = E.id AND P.guid = E.guid "
        "JOIN rocpd_info_pmc I ON I.id = P.pmc_id AND I.guid = P.guid "
        "WHERE N.string = 'SQ_WAVES' AND I.name = 'SQ_WAVES' "
        "AND C.string = 'DEVICE_COUNTER_SAMPLE' ORDER BY R.timestamp").fetchall()
    check([(t, v) for t, v in rows] == expected, f"rocpd: SQ_WAVES samples and values {rows}")
    viewed = con.execute("SELECT count(*) FROM samples WHERE category = 'DEVICE_COUNTER_SAMPLE' "
                         "AND name IN ('SQ_WAVES', 'FETCH_SIZE')").fetchone()[0]
    check(viewed == 2 * len(expected), f"rocpd: AMD's samples view lists them ({viewed})")
    # AMD's own `samples` view also joins the track's process and thread rows.
    joined = con.execute(
        "SELECT count(*) FROM rocpd_sample R JOIN rocpd_track T ON T.id = R.track_id "
        "JOIN rocpd_event E ON E.id = R.event_id "
        "JOIN rocpd_info_process P ON P.id = T.pid AND P.guid = T.guid "
        "JOIN rocpd_info_thread TH ON TH.id = T.tid AND TH.guid = T.guid "
        "JOIN rocpd_string C ON C.id = E.category_id "
        "WHERE C.string = 'DEVICE_COUNTER_SAMPLE'").fetchone()[0]
    check(joined == 2 * len(expected), f"rocpd: tracks name a process and thread row ({joined})")
    dispatch_values = con.execute("SELECT count(*) FROM counters_collection").fetchone()[0]
    check(dispatch_values == 0, "rocpd: no per-dispatch counter rows come of them")
    con.close()
    if not rocpd:
        return
    back = os.path.join(out, "back")
    p = subprocess.run([rocpd, "convert", "-i", db, "-f", "csv", "-d", back, "-o", "run"], env=env,
                       capture_output=True, text=True, timeout=120)
    check(p.returncode == 0, f"rocpd convert exit 0 {p.stderr[-300:]}")
    name = "run_device_counter_collection.csv"
    converted = glob.glob(os.path.join(back, "**", name), recursive=True)
    with open(os.path.join(out, name), "rb") as f:
        original = f.read()
    same = bool(converted) and open(converted[0], "rb").read() == original
    check(same, f"rocpd convert gives {name} back byte for byte ({converted})")


def main():
    cli, app, backend_dir, backend_lib, defs, proto, work = sys.argv[1:8]
    rocpd = sys.argv[8] if len(sys.argv) > 8 else None
    shutil.rmtree(work, ignore_errors=True)
    env = dict(os.environ, ROCPROF_BACKEND_DIR=backend_dir, ROCPROFILER_METRICS_PATH=defs,
               ROCPROF_COUNTER_CHECK="0")
    failures = []

    def check(ok, what):
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            failures.append(what)

    out = os.path.join(work, "run")
    p = subprocess.run([cli, "--spm-beta-enabled", "--spm", "SQ_WAVES", "FETCH_SIZE",
                        "--output-format", "csv", "json", "pftrace", "rocpd", "-d", out, "-o", "run", "--",
                        app, backend_lib], env=env, capture_output=True, text=True, timeout=120)
    print(p.stdout, p.stderr)
    check(p.returncode == 0, "rocprofv3 --spm runs")
    starts = [int(line.split()[3]) for line in p.stdout.splitlines() if line.startswith("SAMPLES")]
    expected = [(starts[0] + i * 1000, v) for i, v in enumerate([0] * 3 + [32] * 5 + [0] * 2)]
    with open(os.path.join(out, "run_device_counter_collection.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    check(list(rows[0].keys()) == ["Agent_Id", "Counter_Id", "Counter_Name", "Timestamp",
                                   "Counter_Value"], "CSV columns")
    waves = [(int(r["Timestamp"]), float(r["Counter_Value"])) for r in rows
             if r["Counter_Name"] == "SQ_WAVES"]
    fetch = [float(r["Counter_Value"]) for r in rows if r["Counter_Name"] == "FETCH_SIZE"]
    check(waves == expected, f"SQ_WAVES samples {waves}")
    check(fetch == [v * 2 / 1024 for _, v in expected], f"FETCH_SIZE samples {fetch}")

    with open(os.path.join(out, "run_results.json")) as f:
        tool = json.load(f)["rocprofiler-sdk-tool"][0]
    names = {c["id"]["handle"] if isinstance(c.get("id"), dict) else c.get("id"): c["name"]
             for c in tool.get("counters", [])}
    samples = tool["buffer_records"].get("device_counter_sample", [])
    json_waves = sorted((s["timestamp"], s["value"]) for s in samples
                        if names.get(s["counter_id"]["handle"]) == "SQ_WAVES")
    check(json_waves == expected, "JSON device_counter_sample holds the same SQ_WAVES values")

    pftrace = glob.glob(os.path.join(out, "run_results.pftrace"))
    if shutil.which("protoc") and pftrace:
        with open(pftrace[0], "rb") as f:
            d = subprocess.run(["protoc", f"--proto_path={os.path.dirname(proto)}",
                                "--decode=perfetto.protos.Trace", os.path.basename(proto)],
                               stdin=f, capture_output=True)
        text = d.stdout.decode(errors="replace")
        check(d.returncode == 0 and "SQ_WAVES" in text and "FETCH_SIZE" in text and
              text.count("double_counter_value: 32") >= 5, "pftrace counter tracks (protoc)")
    else:
        print("note: protoc or the pftrace missing: not decoded")

    check_rocpd(check, out, expected, rocpd, env)

    bad = subprocess.run([cli, "--spm-beta-enabled", "--spm", "smsp__warps_launched.sum",
                          "dram__bytes_read.sum", "dram__bytes_write.sum", "test__per_instance.sum",
                          "--output-format", "csv", "-d", os.path.join(work, "bad"), "-o", "run",
                          "--", app, backend_lib], env=env, capture_output=True, text=True,
                         timeout=120)
    check("passes" in bad.stderr and "dram__bytes_write.sum" in bad.stderr,
          "a two-pass set is refused, naming its counters: " +
          next((line for line in bad.stderr.splitlines() if "spm" in line), ""))
    print("PASS" if not failures else f"FAIL: {failures}")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
