#!/usr/bin/env python3
"""End-to-end tests of `rocpd`: a real rocprofv3 run writes every format and its database; `rocpd
convert` of the database must give the same files (CSV byte for byte; JSON, Perfetto and OTF2
record for record, read with json, protoc and otf2-print), `rocpd summary` the same numbers as
rocprofv3's -S, and bad input one clear error. A database laid out as AMD's rocprofv3 writes it
(built here by hand from the schema, rocprofv3-facts §4.2) must convert too.

Usage: check_rocpd.py --build-dir DIR --proto PROTO --work-dir DIR --case NAME
"""
import argparse
import collections
import csv
import glob
import io
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


def run(cmd, **kw):
    print("running: " + " ".join(cmd), flush=True)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kw)


class Env:
    def __init__(self, a):
        self.build = a.build_dir
        self.proto = a.proto
        self.work = os.path.join(a.work_dir, a.case)
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)
        self.rocprofv3 = os.path.join(self.build, "bin", "rocprofv3")
        self.rocpd = os.path.join(self.build, "bin", "rocpd")
        self.app = os.path.join(self.build, "bin", "roctx_app")

    def live(self, extra=()):
        """A live run writing every format; returns the output prefix."""
        out = os.path.join(self.work, "live")
        p = run([self.rocprofv3, "--marker-trace", "-S", "--summary-output-file", "summary",
                 "--output-format", "rocpd", "csv", "json", "pftrace", "otf2", *extra,
                 "-d", out, "-o", "run", "--", self.app, "3", "20"])
        check(p.returncode == 0, f"rocprofv3 exit 0 (got {p.returncode}) {p.stderr[-400:]}")
        return os.path.join(out, "run")

    def rocpd_cmd(self, *args):
        return run([self.rocpd, *args])


def decode_pftrace(env, path):
    with open(path, "rb") as f:
        d = subprocess.run(["protoc", f"--proto_path={os.path.dirname(env.proto)}",
                            "--decode=perfetto.protos.Trace", os.path.basename(env.proto)],
                           stdin=f, capture_output=True, text=True)
    check(d.returncode == 0, f"protoc decodes {os.path.basename(path)}")
    return d.stdout


def perfetto_records(text):
    """Track events and descriptors as comparable records: packets without sequence ids."""
    packets = text.split("\npacket {")
    records = []
    for p in packets[1:]:
        p = re.sub(r"\s*trusted_packet_sequence_id: \d+", "", p)
        records.append(p.strip())
    return collections.Counter(records)


def otf2_records(path):
    d = subprocess.run(["otf2-print", path], capture_output=True, text=True)
    check(d.returncode == 0, f"otf2-print reads {os.path.basename(path)}")
    return collections.Counter(l for l in d.stdout.splitlines()
                               if l.split(" ")[0] in ("ENTER", "LEAVE", "METRIC"))


def json_records(path):
    with open(path) as f:
        doc = json.load(f)["rocprofiler-sdk-tool"][0]
    out = {}
    for kind, rows in doc["buffer_records"].items():
        # The database keeps API names, not the numeric operation ids of the run.
        out[kind] = collections.Counter(
            json.dumps({k: v for k, v in r.items() if k != "operation"}, sort_keys=True)
            for r in rows)
    return out


def case_roundtrip(env):
    live = env.live()
    conv = os.path.join(env.work, "conv")
    p = env.rocpd_cmd("convert", "-i", live + "_results.db", "-f", "csv", "json", "pftrace",
                      "otf2", "-d", conv, "-o", "run")
    check(p.returncode == 0, f"rocpd convert exit 0 ({p.stderr[-400:]})")
    converted = os.path.join(conv, "run")
    live_csv = sorted(os.path.basename(f) for f in glob.glob(live + "_*.csv"))
    conv_csv = sorted(os.path.basename(f) for f in glob.glob(converted + "_*.csv"))
    check(live_csv == conv_csv and live_csv, f"same CSV files ({live_csv} / {conv_csv})")
    for name in live_csv:
        with open(os.path.join(os.path.dirname(live), name), "rb") as a, \
             open(os.path.join(conv, name), "rb") as b:
            check(a.read() == b.read(), f"{name} equal byte for byte")
    a, b = json_records(live + "_results.json"), json_records(converted + "_results.json")
    check(a == b, f"JSON buffer_records equal record for record ({sorted(a)} / {sorted(b)})")
    a = perfetto_records(decode_pftrace(env, live + "_results.pftrace"))
    b = perfetto_records(decode_pftrace(env, converted + "_results.pftrace"))
    check(a == b, f"Perfetto packets equal ({sum(a.values())} / {sum(b.values())}; only live: "
                  f"{list((a - b).items())[:2]}; only converted: {list((b - a).items())[:2]})")
    a = otf2_records(live + "_results.otf2")
    b = otf2_records(converted + "_results.otf2")
    check(a == b and sum(a.values()) > 0, f"OTF2 events equal ({sum(a.values())} / "
                                         f"{sum(b.values())})")


def summary_rows_of_S(path):
    """MARKER_API rows of rocprofv3's -S table: name -> (calls, total ns)."""
    rows = {}
    with open(path) as f:
        for line in f:
            cells = [c.strip() for c in line.split("|")]
            if len(cells) > 5 and cells[2] == "MARKER_API":
                rows[cells[1]] = (int(cells[3]), int(cells[4]))
    return rows


def case_summary(env):
    live = env.live()
    out = os.path.join(env.work, "summary")
    p = env.rocpd_cmd("summary", "-i", live + "_results.db", "-f", "csv", "-d", out)
    check(p.returncode == 0, f"rocpd summary exit 0 ({p.stderr[-400:]})")
    with open(os.path.join(out, "markers_summary.csv"), newline="") as f:
        ours = {r["Name"]: (int(r["Calls"]), int(r["DURATION (nsec)"])) for r in csv.DictReader(f)}
    expected = summary_rows_of_S(live + "_summary.txt")
    check(ours == expected and ours, f"markers_summary equals -S ({len(ours)} names)")
    p = env.rocpd_cmd("summary", "-i", live + "_results.db", "--domain-summary")
    check(p.returncode == 0 and "MARKERS_SUMMARY:" in p.stdout and "DOMAIN_SUMMARY:" in p.stdout,
          "console summary prints the markers and domain tables")
    # The same numbers through SQL over AMD's views (as AMD's rocpd computes them).
    db = sqlite3.connect(live + "_results.db")
    sql = {r[0]: (r[1], r[2]) for r in db.execute(
        "SELECT COALESCE(json_extract(extdata, '$.message'), name), COUNT(*), SUM(duration) "
        "FROM regions_and_samples WHERE category LIKE 'MARKER_%' GROUP BY 1")}
    check(sql == ours, "markers_summary equals the SQL of AMD's markers view")


def case_query(env):
    live = env.live()
    db = live + "_results.db"
    p = env.rocpd_cmd("query", "-i", db, "--query",
                      "SELECT COUNT(*) AS n FROM regions_and_samples", "--format", "csv",
                      "-d", os.path.join(env.work, "q"), "-o", "count")
    check(p.returncode == 0, f"rocpd query exit 0 ({p.stderr[-300:]})")
    with open(os.path.join(env.work, "q", "count.csv")) as f:
        n = int(list(csv.DictReader(f))[0]["n"])
    expected = sqlite3.connect(db).execute("SELECT COUNT(*) FROM regions_and_samples").fetchone()[0]
    check(n == expected and n > 0, f"query result = sqlite3's ({n} / {expected})")
    p = env.rocpd_cmd("query", "-i", db, db.replace("_results.db", "_results.db"), "--query",
                      "SELECT name FROM top_kernels")
    check(p.returncode == 0, "query over the summary views runs")
    for fmt in ("json", "md", "html"):
        p = env.rocpd_cmd("query", "-i", db, "--query", "SELECT * FROM processes",
                          "--format", fmt, "-d", os.path.join(env.work, "q"))
        check(p.returncode == 0 and os.path.exists(os.path.join(env.work, "q",
                                                                f"query_output.{fmt}")),
              f"query --format {fmt} writes query_output.{fmt}")
    with open(os.path.join(env.work, "q", "query_output.json")) as f:
        check(json.load(f)[0]["pid"] > 0, "JSON export is a list of records")


def case_window(env):
    live = env.live()
    db = live + "_results.db"
    counts = {}
    for label, args in (("all", []), ("half", ["--start", "50%"]),
                        ("overlap", ["--start", "50%", "--inclusive", "false"])):
        out = os.path.join(env.work, label)
        p = env.rocpd_cmd("convert", "-i", db, "-f", "csv", "-d", out, "-o", "w", *args)
        check(p.returncode == 0, f"convert {label} exit 0 ({p.stderr[-300:]})")
        with open(os.path.join(out, "w_marker_api_trace.csv")) as f:
            counts[label] = len(f.readlines()) - 1
    check(counts["half"] < counts["overlap"] <= counts["all"],
          f"windows keep fewer rows: inclusive < overlapping <= all ({counts})")
    # The outer range spans the run: a window starting at its start keeps everything.
    p = env.rocpd_cmd("convert", "-i", db, "-f", "csv", "-d", os.path.join(env.work, "m"),
                      "-o", "w", "--start-marker", "outer", "--inclusive", "false")
    check(p.returncode != 0 and "ambiguous" in p.stderr or p.returncode == 0,
          "a marker window runs (or names the ambiguity)")


def case_errors(env):
    live = env.live()
    db = live + "_results.db"
    junk = os.path.join(env.work, "junk.db")
    with open(junk, "w") as f:
        f.write("this is not a database at all" * 100)
    empty = os.path.join(env.work, "empty.db")
    sqlite3.connect(empty).execute("CREATE TABLE x (a)").connection.commit()
    v2 = os.path.join(env.work, "v2.db")
    shutil.copy(db, v2)
    c = sqlite3.connect(v2)
    table = c.execute("SELECT name FROM sqlite_master WHERE type='table' AND name LIKE "
                      "'rocpd_metadata%'").fetchone()[0]
    c.execute(f"UPDATE \"{table}\" SET value='2' WHERE tag='schema_version'")
    c.commit()
    c.close()
    for what, args, needle in (
            ("not a database", ["summary", "-i", junk], "not an SQLite database"),
            ("no rocpd tables", ["summary", "-i", empty], "not a rocpd database"),
            ("missing file", ["convert", "-i", junk + ".none", "-f", "csv"], "no such"),
            ("wrong schema version", ["convert", "-i", v2, "-f", "csv"], "schema version 2"),
            ("unknown format", ["convert", "-i", db, "-f", "xml"], "xml"),
            ("empty window", ["convert", "-i", db, "-f", "csv", "--start", "60%", "--end", "40%"],
             "empty time window"),
            ("failing query", ["query", "-i", db, "--query", "SELECT * FROM no_such_view"],
             "query failed"),
            ("merge of one process twice", ["merge", "-i", db, db, "-d", env.work],
             "two inputs")):
        p = env.rocpd_cmd(*args)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        check(p.returncode != 0 and len(lines) >= 1 and needle in p.stderr,
              f"{what}: non-zero exit and one clear error ({p.returncode}: {p.stderr.strip()[:200]})")
    for sub in ("convert", "summary", "query", "merge", "package"):
        p = env.rocpd_cmd(sub, "--help")
        check(p.returncode == 0 and "--input" in p.stdout, f"rocpd {sub} --help")


def amd_fixture(path):
    """A one-process database in AMD rocprofv3 7.0's layout, written by hand from the schema
    (rocprofv3-facts §4.2-4.3): uuid-suffixed tables, plain views, sorted strings, natural ids,
    marker messages only in event extdata, a kernel dispatch with its symbol and code object,
    and a host-to-device copy."""
    guid = "0192aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee"
    u = "_" + guid.replace("-", "_")
    db = sqlite3.connect(path)
    cols = {
        "metadata": "id INTEGER PRIMARY KEY AUTOINCREMENT, tag TEXT NOT NULL, value TEXT NOT NULL",
        "string": "id INTEGER PRIMARY KEY, guid TEXT, string TEXT NOT NULL UNIQUE",
        "info_node": "id INTEGER PRIMARY KEY, guid TEXT, hash BIGINT, machine_id TEXT, "
                     "system_name TEXT, hostname TEXT, release TEXT, version TEXT, "
                     "hardware_name TEXT, domain_name TEXT",
        "info_process": "id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER, ppid INTEGER, "
                        "pid INTEGER, init BIGINT, fini BIGINT, start BIGINT, end BIGINT, "
                        "command TEXT, environment JSONB DEFAULT '{}', extdata JSONB DEFAULT '{}'",
        "info_thread": "id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER, ppid INTEGER, pid INTEGER,"
                       " tid INTEGER, name TEXT, start BIGINT, end BIGINT, extdata JSONB",
        "info_agent": "id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER, pid INTEGER, type TEXT, "
                      "absolute_index INTEGER, logical_index INTEGER, type_index INTEGER, "
                      "uuid INTEGER, name TEXT, model_name TEXT, vendor_name TEXT, "
                      "product_name TEXT, user_name TEXT, extdata JSONB",
        "info_queue": "id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER, pid INTEGER, name TEXT, "
                      "extdata JSONB",
        "info_stream": "id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER, pid INTEGER, name TEXT, "
                       "extdata JSONB",
        "info_pmc": "id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER, pid INTEGER, "
                    "agent_id INTEGER, target_arch TEXT, event_code INT, instance_id INTEGER, "
                    "name TEXT, symbol TEXT, description TEXT, long_description TEXT, "
                    "component TEXT, units TEXT, value_type TEXT, block TEXT, expression TEXT, "
                    "is_constant INTEGER, is_derived INTEGER, extdata JSONB",
        "info_code_object": "id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER, pid INTEGER, "
                            "agent_id INTEGER, uri TEXT, load_base BIGINT, load_size BIGINT, "
                            "load_delta BIGINT, storage_type TEXT, extdata JSONB",
        "info_kernel_symbol": "id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER, pid INTEGER, "
                              "code_object_id INTEGER, kernel_name TEXT, display_name TEXT, "
                              "kernel_object INTEGER, kernarg_segment_size INTEGER, "
                              "kernarg_segment_alignment INTEGER, group_segment_size INTEGER, "
                              "private_segment_size INTEGER, sgpr_count INTEGER, "
                              "arch_vgpr_count INTEGER, accum_vgpr_count INTEGER, extdata JSONB",
        "track": "id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER, pid INTEGER, tid INTEGER, "
                 "name_id INTEGER, extdata JSONB",
        "event": "id INTEGER PRIMARY KEY, guid TEXT, category_id INTEGER, stack_id INTEGER, "
                 "parent_stack_id INTEGER, correlation_id INTEGER, call_stack JSONB, "
                 "line_info JSONB, extdata JSONB DEFAULT '{}'",
        "arg": "id INTEGER PRIMARY KEY, guid TEXT, event_id INTEGER, position INTEGER, "
               "type TEXT, name TEXT, value TEXT, extdata JSONB",
        "pmc_event": "id INTEGER PRIMARY KEY, guid TEXT, event_id INTEGER, pmc_id INTEGER, "
                     "value REAL, extdata JSONB",
        "region": "id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER, pid INTEGER, tid INTEGER, "
                  "start BIGINT, end BIGINT, name_id INTEGER, event_id INTEGER, extdata JSONB",
        "sample": "id INTEGER PRIMARY KEY, guid TEXT, track_id INTEGER, timestamp BIGINT, "
                  "event_id INTEGER, extdata JSONB",
        "kernel_dispatch": "id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER, pid INTEGER, "
                           "tid INTEGER, agent_id INTEGER, kernel_id INTEGER, "
                           "dispatch_id INTEGER, queue_id INTEGER, stream_id INTEGER, "
                           "start BIGINT, end BIGINT, private_segment_size INTEGER, "
                           "group_segment_size INTEGER, workgroup_size_x INTEGER, "
                           "workgroup_size_y INTEGER, workgroup_size_z INTEGER, "
                           "grid_size_x INTEGER, grid_size_y INTEGER, grid_size_z INTEGER, "
                           "region_name_id INTEGER, event_id INTEGER, extdata JSONB",
        "memory_copy": "id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER, pid INTEGER, "
                       "tid INTEGER, start BIGINT, end BIGINT, name_id INTEGER, "
                       "dst_agent_id INTEGER, dst_address INTEGER, src_agent_id INTEGER, "
                       "src_address INTEGER, size INTEGER, queue_id INTEGER, "
                       "stream_id INTEGER, region_name_id INTEGER, event_id INTEGER, "
                       "extdata JSONB",
        "memory_allocate": "id INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT, nid INTEGER, "
                           "pid INTEGER, tid INTEGER, agent_id INTEGER, type TEXT, level TEXT, "
                           "start BIGINT, end BIGINT, address INTEGER, size INTEGER, "
                           "queue_id INTEGER, stream_id INTEGER, event_id INTEGER, "
                           "extdata JSONB",
    }
    for name, c in cols.items():
        db.execute(f'CREATE TABLE "rocpd_{name}{u}" ({c})')
        db.execute(f'CREATE VIEW "rocpd_{name}" AS SELECT * FROM "rocpd_{name}{u}"')
    t = lambda n: f'"rocpd_{n}{u}"'
    for tag, value in (("schema_version", "3"), ("uuid", u), ("guid", guid)):
        db.execute(f"INSERT INTO {t('metadata')} (tag, value) VALUES (?, ?)", (tag, value))
    strings = sorted(["", "HIP_RUNTIME_API_EXT", "KERNEL_DISPATCH", "MARKER_CORE_RANGE_API",
                      "MEMORY_COPY", "MEMORY_COPY_HOST_TO_DEVICE", "hipLaunchKernel",
                      "roctxRangePushA", "roctxMarkA", "vector_add(float*)"])
    sid = {s: i + 1 for i, s in enumerate(strings)}
    for s, i in sid.items():
        db.execute(f"INSERT INTO {t('string')} VALUES (?, ?, ?)", (i, guid, s))
    nid, pid, tid = 7, 4242, 4242
    db.execute(f"INSERT INTO {t('info_node')} VALUES (?,?,?,?,?,?,?,?,?,?)",
               (nid, guid, 77, "machine", "Linux", "amdhost", "6.1", "#1", "x86_64", ""))
    db.execute(f"INSERT INTO {t('info_process')} VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
               (pid, guid, nid, 1, pid, 1000, 90000, 1000, 90000, "./app --x", "{}", "{}"))
    db.execute(f"INSERT INTO {t('info_thread')} VALUES (?,?,?,?,?,?,?,?,?,?)",
               (tid, guid, nid, 1, pid, tid, "", 1000, 90000, "{}"))
    agent_ext = json.dumps({"id": {"handle": 9001}, "type": 2, "cu_count": 104,
                            "wave_front_size": 64, "gfx_target_version": 90402,
                            "name": "gfx942", "node_id": 2})
    db.execute(f"INSERT INTO {t('info_agent')} VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
               (2, guid, nid, pid, "GPU", 2, 1, 0, 29857, "gfx942", "aqua_vanjaram", "AMD",
                "AMD Instinct MI300X", "AMD Instinct MI300X", agent_ext))
    db.execute(f"INSERT INTO {t('info_agent')} VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
               (0, guid, nid, pid, "CPU", 0, 0, 0, 0, "AMD EPYC", "", "CPU", "AMD EPYC",
                "AMD EPYC", json.dumps({"id": {"handle": 9000}, "type": 1})))
    db.execute(f"INSERT INTO {t('info_queue')} VALUES (1, ?, ?, ?, 'Queue 1', '{{}}')",
               (guid, nid, pid))
    db.execute(f"INSERT INTO {t('info_stream')} VALUES (0, ?, ?, ?, 'Default Stream', '{{}}')",
               (guid, nid, pid))
    db.execute(f"INSERT INTO {t('info_code_object')} VALUES (1,?,?,?,2,'file:///app#offset=0',"
               "4096,8192,0,'FILE','{}')", (guid, nid, pid))
    db.execute(f"INSERT INTO {t('info_kernel_symbol')} VALUES (5,?,?,?,1,'_Z10vector_addPf',"
               "'vector_add(float*)',1234,16,8,0,0,16,32,0,?)",
               (guid, nid, pid, json.dumps({"kernel_id": 5,
                                            "demangled_kernel_name": "vector_add(float*)",
                                            "truncated_kernel_name": "vector_add"})))
    events = [  # id, category, stack (correlation), extdata
        (1, "MARKER_CORE_RANGE_API", 10, json.dumps({"message": "amd outer"})),
        (2, "HIP_RUNTIME_API_EXT", 11, "{}"),
        (3, "KERNEL_DISPATCH", 11, "{}"),
        (4, "MEMORY_COPY", 12, "{}"),
        (5, "MARKER_CORE_RANGE_API", 13, json.dumps({"message": "amd mark"})),
    ]
    for eid, cat, stack, ext in events:
        db.execute(f"INSERT INTO {t('event')} VALUES (?,?,?,?,0,0,NULL,NULL,?)",
                   (eid, guid, sid[cat], stack, ext))
    db.execute(f"INSERT INTO {t('region')} VALUES (10,?,?,?,?,2000,80000,?,1,'{{}}')",
               (guid, nid, pid, tid, sid["roctxRangePushA"]))
    db.execute(f"INSERT INTO {t('region')} VALUES (11,?,?,?,?,3000,4000,?,2,'{{}}')",
               (guid, nid, pid, tid, sid["hipLaunchKernel"]))
    db.execute(f"INSERT INTO {t('kernel_dispatch')} VALUES (1,?,?,?,?,2,5,1,1,0,5000,7000,0,0,"
               "256,1,1,1024,1,1,?,3,'{}')", (guid, nid, pid, tid, sid[""]))
    db.execute(f"INSERT INTO {t('memory_copy')} VALUES (1,?,?,?,?,8000,9000,?,2,4096,0,8192,"
               "1048576,NULL,0,?,4,'{}')",
               (guid, nid, pid, tid, sid["MEMORY_COPY_HOST_TO_DEVICE"], sid[""]))
    db.execute(f"INSERT INTO {t('track')} VALUES (1,?,?,?,?,?,'{{}}')",
               (guid, nid, pid, tid, sid["MARKER_CORE_RANGE_API"]))
    db.execute(f"INSERT INTO {t('sample')} VALUES (13,?,1,50000,5,'{{}}')", (guid,))
    db.commit()
    db.close()


def case_amd_fixture(env):
    path = os.path.join(env.work, "amd_results.db")
    amd_fixture(path)
    out = os.path.join(env.work, "amd")
    p = env.rocpd_cmd("convert", "-i", path, "-f", "csv", "pftrace", "otf2", "json", "-d", out,
                      "-o", "amd")
    check(p.returncode == 0, f"AMD-layout database converts ({p.stderr[-400:]})")
    rows = lambda n: list(csv.DictReader(open(os.path.join(out, f"amd_{n}.csv"))))
    markers = rows("marker_api_trace")
    check(sorted(r["Function"] for r in markers) == ["amd mark", "amd outer"],
          f"marker messages from event extdata ({[r['Function'] for r in markers]})")
    hip = rows("hip_api_trace")
    check([r["Function"] for r in hip] == ["hipLaunchKernel"], "HIP call converted")
    kernels = rows("kernel_trace")
    check(len(kernels) == 1 and kernels[0]["Kernel_Name"] == "vector_add(float*)" and
          kernels[0]["Agent_Id"] == "Agent 1" and kernels[0]["VGPR_Count"] == "32" and
          kernels[0]["Grid_Size_X"] == "1024",
          f"kernel dispatch converted with its symbol and agent ({kernels})")
    copies = rows("memory_copy_trace")
    check(len(copies) == 1 and copies[0]["Direction"] == "MEMORY_COPY_HOST_TO_DEVICE" and
          copies[0]["Destination_Agent_Id"] == "Agent 1", f"memory copy converted ({copies})")
    agents = rows("agent_info")
    check(any(a["Agent_Type"] == "GPU" and a["Cu_Count"] == "104" for a in agents),
          "agent numbers read from AMD's agent extdata")
    text = decode_pftrace(env, os.path.join(out, "amd_results.pftrace"))
    check("vector_add(float*)" in text and "amd outer" in text, "Perfetto trace has the kernel "
                                                                "and the marker")
    p = env.rocpd_cmd("summary", "-i", path)
    check(p.returncode == 0 and "KERNELS_SUMMARY" in p.stdout and "HIP_SUMMARY" in p.stdout,
          "summary of the AMD-layout database")


def case_merge_package(env):
    live = env.live()
    db = live + "_results.db"
    second = os.path.join(env.work, "second")
    p = run([env.rocprofv3, "--marker-trace", "-d", second, "-o", "run", "--", env.app, "2", "5"])
    check(p.returncode == 0, "second run")
    db2 = os.path.join(second, "run_results.db")
    p = env.rocpd_cmd("merge", "-i", db, db2, "-d", env.work, "-o", "merged")
    check(p.returncode == 0, f"merge exit 0 ({p.stderr[-300:]})")
    merged = os.path.join(env.work, "merged.db")
    c = sqlite3.connect(merged)
    total = lambda path: sqlite3.connect(path).execute(
        "SELECT COUNT(*) FROM regions_and_samples").fetchone()[0]
    check(total(merged) == total(db) + total(db2), "merged views hold both databases' records")
    check(len(c.execute("SELECT DISTINCT pid FROM processes").fetchall()) == 2,
          "two processes in the merged database")
    pkg = os.path.join(env.work, "pkg")
    p = env.rocpd_cmd("package", "-i", db, db2, "-d", pkg, "--copy")
    copies = sorted(os.path.basename(f) for f in glob.glob(os.path.join(pkg, "*.db")))
    check(p.returncode == 0 and os.path.exists(os.path.join(pkg, "index.yaml")) and
          len(copies) == 2, f"package writes index.yaml and copies both databases ({copies})")
    with open(os.path.join(pkg, "index.yaml")) as f:
        text = f.read()
    check(text.count("- path:") == 2 and "pid:" in text, "index.yaml lists both databases")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--proto", required=True)
    ap.add_argument("--work-dir", required=True)
    ap.add_argument("--case", required=True)
    a = ap.parse_args()
    env = Env(a)
    globals()["case_" + a.case](env)
    print(f"rocpd.{a.case}: {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
