#!/usr/bin/env python3
"""Reads our rocpd databases the way AMD's `rocpd` Python tool reads databases
(formats/rocpd/README.md, "Compatibility with AMD's rocpd tool"), with python's sqlite3 module:
two databases ATTACHed under different schema names, TEMPORARY union views over their
uuid-suffixed rocpd_% tables, the schema's views recreated as TEMPORARY views, then queries of
the shapes `rocpd convert` (csv / pftrace / otf2) and `rocpd summary` run, and their results
checked against what went into the databases.

  --case synthetic: databases written by our writer from two synthetic traces (made by
      make_synthetic_dbs, which also writes what each trace holds, from the records).
  --case roctx: two real `rocprofv3 --marker-trace -- roctx_app 2 5` runs; the counts come
      from what roctx_app does (see its header) and from the marker CSV of the same runs.
  --case dbs --db A --db B: given databases (e.g. real CUDA runs made on a GPU machine); the
      same steps, checked for internal consistency.

Exit status 0 = pass, anything else = failure (a missing program fails, never skips).
"""
import argparse
import collections
import csv
import json
import math
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile


# The plain-named tables of schema 3, each of which the tool unions across databases.
BASE_TABLES = [
    "rocpd_metadata", "rocpd_string", "rocpd_info_node", "rocpd_info_process",
    "rocpd_info_thread", "rocpd_info_agent", "rocpd_info_queue", "rocpd_info_stream",
    "rocpd_info_pmc", "rocpd_info_code_object", "rocpd_info_kernel_symbol", "rocpd_track",
    "rocpd_event", "rocpd_arg", "rocpd_pmc_event", "rocpd_region", "rocpd_sample",
    "rocpd_kernel_dispatch", "rocpd_memory_copy", "rocpd_memory_allocate",
    "rocpd_pc_sample",  # ours: PC samples (AMD's layout has no table for them)
]

# Columns the tool's row loaders read by name from each view (a missing one is an error there).
LOADER_COLUMNS = {
    "rocpd_info_node": ["guid", "id", "hash", "machine_id", "system_name", "hostname", "release",
                        "version", "hardware_name", "domain_name"],
    "rocpd_info_agent": ["guid", "nid", "absolute_index", "type", "user_name", "extdata"],
    "processes": ["guid", "nid", "machine_id", "hostname", "system_name", "system_release",
                  "system_version", "ppid", "pid", "init", "start", "end", "fini", "command"],
    "threads": ["guid", "nid", "machine_id", "hostname", "system_name", "system_release",
                "system_version", "ppid", "pid", "tid", "start", "end", "name"],
    "regions": ["id", "guid", "category", "name", "nid", "pid", "tid", "start", "end",
                "event_id", "stack_id", "parent_stack_id", "corr_id", "extdata"],
    "samples": ["id", "guid", "category", "name", "nid", "pid", "tid", "timestamp", "event_id",
                "stack_id", "parent_stack_id", "corr_id", "extdata"],
    "kernels": ["id", "guid", "category", "region", "name", "nid", "pid", "tid",
                "agent_abs_index", "agent_log_index", "agent_type_index", "agent_type",
                "code_object_id", "kernel_id", "dispatch_id", "queue_id", "stream_id", "queue",
                "stream", "start", "end", "workgroup_x", "workgroup_y", "workgroup_z", "grid_x",
                "grid_y", "grid_z", "lds_size", "scratch_size", "vgpr_count", "accum_vgpr_count",
                "sgpr_count", "static_lds_size", "static_scratch_size", "stack_id",
                "parent_stack_id", "corr_id"],
    "memory_copies": ["id", "guid", "pid", "tid", "start", "end", "name", "region_name",
                      "stream_id", "queue_id", "stream_name", "queue_name", "size", "dst_device",
                      "dst_agent_abs_index", "dst_agent_log_index", "dst_agent_type_index",
                      "dst_agent_type", "dst_address", "src_device", "src_agent_abs_index",
                      "src_agent_log_index", "src_agent_type_index", "src_agent_type",
                      "src_address", "category", "stack_id", "parent_stack_id", "corr_id"],
    "memory_allocations": ["id", "guid", "pid", "tid", "start", "end", "type", "level",
                           "agent_name", "agent_abs_index", "agent_log_index",
                           "agent_type_index", "agent_type", "address", "size", "queue_id",
                           "queue_name", "stream_id", "stream_name", "category", "stack_id",
                           "parent_stack_id", "corr_id"],
    "scratch_memory": ["guid", "operation", "agent_abs_index", "agent_log_index",
                       "agent_type_index", "agent_type", "queue_id", "pid", "tid", "alloc_flags",
                       "start", "end", "size", "category", "stack_id", "parent_stack_id",
                       "corr_id"],
    "counters_collection": ["id", "guid", "dispatch_id", "kernel_id", "stack_id",
                            "correlation_id", "event_id", "pid", "tid", "agent_id",
                            "agent_abs_index", "agent_log_index", "agent_type_index",
                            "agent_type", "queue_id", "grid_size_x", "grid_size_y", "grid_size_z",
                            "grid_size", "kernel_name", "kernel_region", "workgroup_size_x",
                            "workgroup_size_y", "workgroup_size_z", "workgroup_size",
                            "lds_block_size", "scratch_size", "vgpr_count", "accum_vgpr_count",
                            "sgpr_count", "counter_name", "counter_symbol", "component",
                            "description", "block", "expression", "value_type", "counter_id",
                            "value", "start", "end", "is_constant", "is_derived"],
}

# Keys the tool's agent loader reads from rocpd_info_agent.extdata, by JSON type.
AGENT_INT_KEYS = [
    "size", "type", "cpu_cores_count", "simd_count", "mem_banks_count", "caches_count",
    "io_links_count", "cpu_core_id_base", "simd_id_base", "max_waves_per_simd", "lds_size_in_kb",
    "gds_size_in_kb", "num_gws", "wave_front_size", "num_xcc", "cu_count", "array_count",
    "num_shader_banks", "simd_arrays_per_engine", "cu_per_simd_array", "simd_per_cu",
    "max_slots_scratch_cu", "gfx_target_version", "vendor_id", "device_id", "location_id",
    "domain", "drm_render_minor", "num_sdma_engines", "num_sdma_xgmi_engines",
    "num_sdma_queues_per_engine", "num_cp_queues", "max_engine_clk_ccompute",
    "max_engine_clk_fcompute", "cu_per_engine", "max_waves_per_cu", "family_id",
    "workgroup_max_size", "grid_max_size", "local_mem_size", "hive_id", "gpu_id", "node_id",
    "logical_node_id", "logical_node_type_id",
]
AGENT_STRING_KEYS = ["name", "vendor_name", "product_name", "model_name"]
AGENT_LIST_KEYS = ["mem_banks", "caches", "io_links"]
AGENT_OBJECT_KEYS = {
    "id": ["handle"],
    "sdma_fw_version": ["uCodeSDMA", "uCodeRes"],
    "fw_version": ["uCode", "Major", "Minor", "Stepping"],
    "capability": ["HotPluggable", "HSAMMUPresent", "SharedWithGraphics", "QueueSizePowerOfTwo",
                   "QueueSize32bit", "QueueIdleEvent", "VALimit", "WatchPointsSupported",
                   "WatchPointsTotalBits", "DoorbellType", "AQLQueueDoubleMap",
                   "DebugTrapSupported", "WaveLaunchTrapOverrideSupported",
                   "WaveLaunchModeSupported", "PreciseMemoryOperationsSupported",
                   "DEPRECATED_SRAM_EDCSupport", "Mem_EDCSupport", "RASEventNotify",
                   "ASICRevision", "SRAM_EDCSupport", "SVMAPISupported", "CoherentHostAccess",
                   "DebugSupportedFirmware"],
    "workgroup_max_dim": ["x", "y", "z"],
    "grid_max_dim": ["x", "y", "z"],
}

LOADER_COLUMNS["regions_and_samples"] = LOADER_COLUMNS["regions"]

SUMMARY_SKIP_PATTERNS = ("rocpd", "region", "counter", "pmc")
SUMMARY_NAME_COLUMN = {"memory_allocations": "type", "scratch_memory": "operation"}
API_CSV_PREFIXES = ["HIP_", "HSA_", "RCCL_", "ROCDECODE_", "ROCJPEG_"]


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def rows_as_dicts(conn, sql, params=()):
    cur = conn.execute(sql, params)
    names = [d[0] for d in cur.description]
    return names, [dict(zip(names, r)) for r in cur.fetchall()]


# --------------------------------------------------------------------------------------------
# Opening: ATTACH, metadata uuid, TEMPORARY union views, recreated views.

def open_like_rocpd(paths, sql_dir):
    conn = sqlite3.connect(":memory:")
    conn.execute("PRAGMA foreign_keys = ON")
    uuids = []
    for i, path in enumerate(paths):
        conn.execute("ATTACH DATABASE '{}' AS db{}".format(path, i))
        for (uuid,) in conn.execute(
                "SELECT value FROM db{}.rocpd_metadata WHERE tag='uuid'".format(i)):
            if uuid not in uuids:
                uuids.append(uuid)
    check(len(uuids) == len(paths), "expected one uuid per database, got {}".format(uuids))
    unions = collections.OrderedDict()
    for i in range(len(paths)):
        tables = [r[0] for r in conn.execute(
            "SELECT name FROM db{}.sqlite_master WHERE type='table' AND name LIKE 'rocpd_%'"
            .format(i))]
        for table in tables:
            for uuid in uuids:
                if uuid not in table:
                    continue
                base = table.replace(uuid, "")
                select = "SELECT * FROM db{}.{}".format(i, base)
                if select not in unions.setdefault(base, []):
                    unions[base].append(select)
    for base, selects in unions.items():
        conn.execute("CREATE TEMPORARY VIEW {} AS {}".format(base, " UNION ALL ".join(selects)))
    # The view schema text with empty uuid/guid variables, every CREATE VIEW made TEMPORARY,
    # executed piece by piece between semicolons (so the text must hold no other ';').
    for name in ("rocpd_views.sql", "data_views.sql", "summary_views.sql"):
        with open(os.path.join(sql_dir, name)) as f:
            text = f.read().replace("{{uuid}}", "").replace("{{guid}}", "")
        text = text.replace("CREATE VIEW", "CREATE TEMPORARY VIEW")
        for piece in text.split(";"):
            conn.execute(piece + ";")
    return conn, uuids, unions


def check_unions(conn, paths, uuids, unions):
    check(sorted(unions) == sorted(BASE_TABLES),
          "union views {} differ from the schema's tables".format(sorted(unions)))
    for base, selects in unions.items():
        check(len(selects) == len(paths), "{} is in {} databases".format(base, len(selects)))
        total = conn.execute("SELECT COUNT(*) FROM temp.{}".format(base)).fetchone()[0]
        parts = sum(conn.execute("SELECT COUNT(*) FROM db{}.{}".format(i, base)).fetchone()[0]
                    for i in range(len(paths)))
        check(total == parts, "{}: union has {} rows, databases {}".format(base, total, parts))
    # Each database's uuid is "_" + its guid with '-' replaced by '_', the tables' suffix.
    guids = sorted(r[0] for r in conn.execute(
        "SELECT value FROM rocpd_metadata WHERE tag='guid'"))
    check(sorted("_" + g.replace("-", "_") for g in guids) == sorted(uuids),
          "uuid/guid mismatch: {} {}".format(uuids, guids))
    return guids


# --------------------------------------------------------------------------------------------
# Join paths of AMD's data views (inner joins): rows that do not satisfy them vanish there.

STRICT_JOINS = {
    "kernel dispatches": (
        "rocpd_kernel_dispatch",
        """rocpd_kernel_dispatch K
           JOIN rocpd_info_agent A ON A.id = K.agent_id AND A.guid = K.guid
           JOIN rocpd_event E ON E.id = K.event_id AND E.guid = K.guid
           JOIN rocpd_string R ON R.id = K.region_name_id AND R.guid = K.guid
           JOIN rocpd_info_kernel_symbol S ON S.id = K.kernel_id AND S.guid = K.guid
           JOIN rocpd_info_queue Q ON Q.id = K.queue_id AND Q.guid = K.guid
           JOIN rocpd_info_process P ON P.id = Q.pid AND P.guid = Q.guid
           JOIN rocpd_info_thread T ON T.id = K.tid AND T.guid = K.guid"""),
    "regions": (
        "rocpd_region",
        """rocpd_region R
           JOIN rocpd_event E ON E.id = R.event_id AND E.guid = R.guid
           JOIN rocpd_string S ON S.id = R.name_id AND S.guid = R.guid
           JOIN rocpd_string C ON C.id = E.category_id AND C.guid = E.guid
           JOIN rocpd_info_process P ON P.id = R.pid AND P.guid = R.guid
           JOIN rocpd_info_thread T ON T.id = R.tid AND T.guid = R.guid"""),
    "samples": (
        "rocpd_sample",
        """rocpd_sample R
           JOIN rocpd_track T ON T.id = R.track_id AND T.guid = R.guid
           JOIN rocpd_string N ON N.id = T.name_id AND N.guid = T.guid
           JOIN rocpd_event E ON E.id = R.event_id AND E.guid = R.guid
           JOIN rocpd_info_process P ON P.id = T.pid AND P.guid = T.guid
           JOIN rocpd_info_thread TH ON TH.id = T.tid AND TH.guid = T.guid"""),
    "memory allocations": (
        "rocpd_memory_allocate",
        """rocpd_memory_allocate M
           JOIN rocpd_event E ON E.id = M.event_id AND E.guid = M.guid
           JOIN rocpd_info_process P ON P.id = M.pid AND P.guid = M.guid
           JOIN rocpd_info_thread T ON T.id = M.tid AND T.guid = M.guid"""),
    "processes": (
        "rocpd_info_process",
        """rocpd_info_process P
           JOIN rocpd_info_node N ON N.id = P.nid AND N.guid = P.guid"""),
    "threads": (
        "rocpd_info_thread",
        """rocpd_info_thread T
           JOIN rocpd_info_process P ON P.id = T.pid AND P.guid = T.guid
           JOIN rocpd_info_node N ON N.id = T.nid AND N.guid = T.guid"""),
    # Per-dispatch values; the device counter samples' pmc events belong to samples (below).
    "counter values": (
        "rocpd_pmc_event WHERE event_id NOT IN (SELECT event_id FROM rocpd_sample)",
        """rocpd_pmc_event PE
           JOIN rocpd_info_pmc I ON I.id = PE.pmc_id AND I.guid = PE.guid
           JOIN rocpd_event E ON E.id = PE.event_id AND E.guid = PE.guid
           JOIN rocpd_kernel_dispatch K ON K.event_id = PE.event_id AND K.guid = PE.guid
           JOIN rocpd_info_agent A ON A.id = K.agent_id AND A.guid = K.guid
           JOIN rocpd_info_kernel_symbol S ON S.id = K.kernel_id AND S.guid = K.guid
           JOIN rocpd_info_process P ON P.id = K.pid AND P.guid = K.guid
           JOIN rocpd_info_thread T ON T.id = K.tid AND T.guid = K.guid"""),
    # Device counter samples: AMD's samples view joins (track, event, process, thread), and the
    # value's pmc event with its counter.
    "device counter samples": (
        """rocpd_sample R JOIN rocpd_event E ON E.id = R.event_id AND E.guid = R.guid
           JOIN rocpd_string C ON C.id = E.category_id AND C.guid = E.guid
           WHERE C.string = 'DEVICE_COUNTER_SAMPLE'""",
        """rocpd_sample R JOIN rocpd_event E ON E.id = R.event_id AND E.guid = R.guid
           JOIN rocpd_string C ON C.id = E.category_id AND C.guid = E.guid
           JOIN rocpd_track K ON K.id = R.track_id AND K.guid = R.guid
           JOIN rocpd_info_process P ON P.id = K.pid AND P.guid = K.guid
           JOIN rocpd_info_thread T ON T.id = K.tid AND T.guid = K.guid
           JOIN rocpd_pmc_event PE ON PE.event_id = E.id AND PE.guid = E.guid
           JOIN rocpd_info_pmc I ON I.id = PE.pmc_id AND I.guid = PE.guid
           WHERE C.string = 'DEVICE_COUNTER_SAMPLE'"""),
}

# Memory copies also need both agents; our memsets (name MEMORY_SET) have no source agent and
# are left out there by design (README).
COPIES_STRICT = """rocpd_memory_copy M
           JOIN rocpd_string S ON S.id = M.name_id AND S.guid = M.guid
           JOIN rocpd_info_agent DA ON DA.id = M.dst_agent_id AND DA.guid = M.guid
           JOIN rocpd_info_agent SA ON SA.id = M.src_agent_id AND SA.guid = M.guid
           JOIN rocpd_event E ON E.id = M.event_id AND E.guid = M.guid
           JOIN rocpd_info_process P ON P.id = M.pid AND P.guid = M.guid
           JOIN rocpd_info_thread T ON T.id = M.tid AND T.guid = M.guid"""


def check_strict_joins(conn):
    for what, (table, joined) in STRICT_JOINS.items():
        total = conn.execute("SELECT COUNT(*) FROM {}".format(table)).fetchone()[0]
        kept = conn.execute("SELECT COUNT(*) FROM {}".format(joined)).fetchone()[0]
        check(kept == total, "{}: {} of {} rows survive the inner joins".format(what, kept, total))
    copies = conn.execute(
        """SELECT COUNT(*) FROM rocpd_memory_copy M JOIN rocpd_string S
           ON S.id = M.name_id AND S.guid = M.guid WHERE S.string != 'MEMORY_SET'""").fetchone()[0]
    kept = conn.execute("SELECT COUNT(*) FROM " + COPIES_STRICT).fetchone()[0]
    check(kept == copies, "memory copies: {} of {} survive the inner joins".format(kept, copies))
    return copies


def check_agents(conn):
    names, agents = rows_as_dicts(conn, "SELECT * FROM rocpd_info_agent")
    check(agents, "no agents")
    # The tool keys a process's agents by absolute_index.
    keys = [(a["guid"], a["absolute_index"]) for a in agents]
    check(len(set(keys)) == len(keys), "repeated absolute_index: {}".format(sorted(keys)))
    for a in agents:
        ext = json.loads(a["extdata"])
        where = "agent {} ({})".format(a["id"], a["guid"])
        for k in AGENT_INT_KEYS:
            check(isinstance(ext.get(k), int) and ext[k] >= 0,
                  "{}: extdata key {} is {!r}".format(where, k, ext.get(k)))
        for k in AGENT_STRING_KEYS:
            check(isinstance(ext.get(k), str), "{}: extdata key {} missing".format(where, k))
        for k in AGENT_LIST_KEYS:
            check(isinstance(ext.get(k), list), "{}: extdata key {} missing".format(where, k))
        for k, subkeys in AGENT_OBJECT_KEYS.items():
            obj = ext.get(k)
            check(isinstance(obj, dict) and all(isinstance(obj.get(s), int) for s in subkeys),
                  "{}: extdata {} is {!r}".format(where, k, obj))
        check(ext["node_id"] == a["absolute_index"] == a["id"], where + ": node_id")
        check(ext["logical_node_id"] == a["logical_index"], where + ": logical_node_id")
        check(ext["logical_node_type_id"] == a["type_index"], where + ": logical_node_type_id")
        check({"CPU": 1, "GPU": 2}.get(a["type"], 0) == ext["type"], where + ": type")
        check(ext["name"] == a["name"] and ext["product_name"] == a["product_name"],
              where + ": names")


def decoded_message(extdata):
    """The tool decodes event extdata longer than '{}' and takes its 'message' member."""
    check(isinstance(extdata, str), "event extdata is {!r}".format(extdata))
    if len(extdata) <= 2:
        return ""
    obj = json.loads(extdata)
    check(isinstance(obj, dict) and isinstance(obj.get("message"), str),
          "region/sample extdata without a message string: {}".format(extdata))
    return obj["message"]


# --------------------------------------------------------------------------------------------
# `rocpd convert`: nodes, then per node its agents and processes, then per process each view
# filtered by guid, nid and pid.

def convert_like_rocpd(conn):
    out = {}
    _, nodes = rows_as_dicts(conn, "SELECT * FROM rocpd_info_node")
    check(nodes, "no nodes")
    for node in nodes:
        _, agents = rows_as_dicts(conn, "SELECT * FROM rocpd_info_agent WHERE guid = '{}' AND "
                                  "nid = {}".format(node["guid"], node["id"]))
        names, processes = rows_as_dicts(conn, "SELECT * FROM processes WHERE guid = '{}' AND "
                                         "nid = {}".format(node["guid"], node["id"]))
        check(set(LOADER_COLUMNS["processes"]) <= set(names), "processes columns: " + str(names))
        check(len(processes) == 1, "node {} has {} processes".format(node["id"], len(processes)))
        abs_indexes = {a["absolute_index"] for a in agents}
        for p in processes:
            check(p["nid"] == node["id"] and p["guid"] == node["guid"], "process/node mismatch")
            where = "WHERE guid = '{}' AND nid = {} AND pid = {}".format(p["guid"], node["id"],
                                                                     p["pid"])
            views = {}

            def read(view, extra="", order="start ASC, end DESC"):
                sql = "SELECT * FROM {} {} {}".format(view, where, extra)
                counted = conn.execute("SELECT COUNT(*) FROM ({})".format(sql)).fetchone()[0]
                if order:
                    sql += " ORDER BY " + order
                names, rows = rows_as_dicts(conn, sql)
                missing = set(LOADER_COLUMNS[view]) - set(names)
                check(not missing, "{} lacks columns {}".format(view, sorted(missing)))
                check(len(rows) == counted, "{}: counted {}, read {}".format(view, counted,
                                                                            len(rows)))
                return rows

            views["kernels"] = read("kernels", order="agent_abs_index ASC, stream_id ASC, "
                                    "queue_id ASC, start ASC, end DESC")
            views["memory_copies"] = read("memory_copies")
            views["memory_allocations"] = read("memory_allocations")
            views["scratch_memory"] = read("scratch_memory")
            views["counters_collection"] = read("counters_collection")
            views["regions"] = read("regions")
            views["samples"] = read("samples", order="timestamp ASC")
            views["threads"] = read("threads", order="")
            views["api"] = {prefix: read("regions", "AND category LIKE '{}%'".format(prefix))
                            for prefix in API_CSV_PREFIXES}
            views["markers"] = read("regions_and_samples", "AND category LIKE 'MARKER_%'")

            # What the writers then look up: agents by absolute index, threads by tid.
            tids = {t["tid"] for t in views["threads"]}
            for k in views["kernels"]:
                check(k["agent_abs_index"] in abs_indexes, "kernel agent not among the agents")
            for c in views["memory_copies"]:
                if c["name"] == "MEMORY_SET":
                    continue
                check(c["src_agent_abs_index"] in abs_indexes and
                      c["dst_agent_abs_index"] in abs_indexes, "copy agent not among the agents")
            for r in views["regions"] + views["samples"]:
                check(r["tid"] in tids, "region/sample on a thread the threads view lacks")
                decoded_message(r["extdata"])
            # Marker CSV rows: the decoded message, else the name.
            views["marker_rows"] = [
                (decoded_message(r["extdata"]) or r["name"], r["tid"], r["start"], r["end"],
                 r["category"]) for r in views["markers"]]
            out[p["pid"]] = views
    starts = conn.execute("SELECT MIN(start) FROM processes").fetchone()[0]
    finis = conn.execute("SELECT MAX(fini) FROM processes").fetchone()[0]
    check(starts is not None and finis is not None and starts < finis,
          "process start/fini: {} {}".format(starts, finis))
    return out


# --------------------------------------------------------------------------------------------
# Time window (--start/--end): every union view other than rocpd_info_* that has start and end
# (or timestamp) columns is dropped and recreated as the same union with a filter; the data
# views above it are then read again.

def apply_window(conn, unions, begin, end):
    for base, selects in unions.items():
        if base.startswith("rocpd_info_"):
            continue
        columns = [d[0] for d in conn.execute("SELECT * FROM '{}' LIMIT 0".format(base))
                   .description]
        if "start" in columns and "end" in columns:
            cond = "start >= {} AND end <= {}".format(begin, end)
        elif "timestamp" in columns:
            cond = "timestamp >= {} AND timestamp <= {}".format(begin, end)
        else:
            continue
        conn.execute("DROP VIEW IF EXISTS {}".format(base))
        conn.execute("CREATE TEMPORARY VIEW {} AS {}".format(
            base, " UNION ALL ".join("{} WHERE {}".format(s, cond) for s in selects)))


def check_time_window(paths, sql_dir):
    conn, _, unions = open_like_rocpd(paths, sql_dir)
    begin, end = conn.execute(
        """SELECT MIN(lo), MAX(hi) FROM (
             SELECT start AS lo, end AS hi FROM regions_and_samples
             UNION ALL SELECT start, end FROM rocpd_kernel_dispatch
             UNION ALL SELECT start, end FROM rocpd_memory_allocate
             UNION ALL SELECT start, end FROM rocpd_memory_copy)""").fetchone()
    check(begin is not None and end > begin, "no time bounds")
    middle = begin + (end - begin) // 2
    want = {}
    for view in ("kernels", "regions", "samples", "memory_copies", "memory_allocations"):
        column = "timestamp" if view == "samples" else "start"
        last = "timestamp" if view == "samples" else "end"
        want[view] = conn.execute("SELECT COUNT(*) FROM {} WHERE {} >= ? AND {} <= ?".format(
            view, column, last), (begin, middle)).fetchone()[0]
    apply_window(conn, unions, begin, middle)
    for view, n in want.items():
        got = conn.execute("SELECT COUNT(*) FROM {}".format(view)).fetchone()[0]
        check_equal(got, n, "{} in the first half of the time window".format(view))
    check(0 < want["kernels"] < conn.execute(
        "SELECT COUNT(*) FROM db0.rocpd_kernel_dispatch").fetchone()[0] * len(paths),
          "the window should keep some kernels, not all")


# --------------------------------------------------------------------------------------------
# `rocpd summary`: per-view, per-category and marker summaries, per rank, and the domain view.

def temp_views(conn):
    return [r[0] for r in conn.execute("SELECT name FROM sqlite_temp_master WHERE type='view'")]


def summary_sql(view, name_column, by_rank):
    if by_rank:
        return """
        WITH stats AS (
            SELECT guid, {n} AS name, AVG(duration) AS mean FROM {v} GROUP BY guid, {n}),
        agg AS (
            SELECT T.guid, T.nid, T.pid, T.{n} AS name, COUNT(*) AS calls,
                   SUM(T.duration) AS total, S.mean AS mean, MIN(T.duration) AS lo,
                   MAX(T.duration) AS hi,
                   SQRT(SUM(CAST(T.duration - S.mean AS REAL) * CAST(T.duration - S.mean AS REAL))
                        / (COUNT(*) - 1)) AS sd
            FROM {v} T JOIN stats S ON T.guid = S.guid AND T.{n} = S.name
            GROUP BY T.guid, T.nid, T.{n}),
        grand AS (SELECT guid, SUM(total) AS all_ns FROM agg GROUP BY guid)
        SELECT A.pid AS ProcessID, P.hostname AS Hostname, A.name AS Name, A.calls AS Calls,
               A.total AS "DURATION (nsec)", A.mean AS "AVERAGE (nsec)",
               CAST(A.total AS REAL) / G.all_ns * 100 AS "PERCENT (INC)", A.lo AS "MIN (nsec)",
               A.hi AS "MAX (nsec)", A.sd AS "STD_DEV"
        FROM agg A JOIN grand G ON A.guid = G.guid JOIN processes P ON A.pid = P.pid
        ORDER BY A.pid, A.total DESC""".format(v=view, n=name_column)
    return """
        WITH stats AS (SELECT {n} AS name, AVG(duration) AS mean FROM {v} GROUP BY {n}),
        agg AS (
            SELECT T.{n} AS name, COUNT(*) AS calls, SUM(T.duration) AS total, S.mean AS mean,
                   MIN(T.duration) AS lo, MAX(T.duration) AS hi,
                   SQRT(SUM(CAST(T.duration - S.mean AS REAL) * CAST(T.duration - S.mean AS REAL))
                        / (COUNT(*) - 1)) AS sd
            FROM {v} T JOIN stats S ON T.{n} = S.name GROUP BY T.{n}),
        grand AS (SELECT SUM(total) AS all_ns FROM agg)
        SELECT A.name AS Name, A.calls AS Calls, A.total AS "DURATION (nsec)",
               A.mean AS "AVERAGE (nsec)", CAST(A.total AS REAL) / G.all_ns * 100 AS "PERCENT (INC)",
               A.lo AS "MIN (nsec)", A.hi AS "MAX (nsec)", A.sd AS "STD_DEV"
        FROM agg A CROSS JOIN grand G
        ORDER BY A.total DESC""".format(v=view, n=name_column)


def make_summaries(conn, view, name_column):
    for by_rank, suffix in ((False, "_summary"), (True, "_summary_by_rank")):
        conn.execute("CREATE TEMPORARY VIEW IF NOT EXISTS `{}{}` AS {}".format(
            view, suffix, summary_sql(view, name_column, by_rank)))


def summary_like_rocpd(conn):
    for view in temp_views(conn):
        if any(p in view for p in SUMMARY_SKIP_PATTERNS):
            continue
        columns = [r[1] for r in conn.execute("PRAGMA table_xinfo('{}')".format(view))]
        if "duration" in columns:
            make_summaries(conn, view, SUMMARY_NAME_COLUMN.get(view, "name"))
    categories = [r[0] for r in conn.execute(
        "SELECT DISTINCT(category) FROM regions_and_samples")]
    prefixes = {c.split("_")[0] for c in categories}
    for prefix in sorted(prefixes):
        if "MARKER" in prefix.upper():
            continue
        members = [c for c in categories if c.startswith(prefix + "_")]
        if not members:
            continue
        view = prefix.lower()
        conn.execute("CREATE TEMPORARY VIEW IF NOT EXISTS `{}` AS SELECT * FROM "
                     "regions_and_samples WHERE {}".format(
                         view, " OR ".join("category LIKE '{}'".format(c) for c in members)))
        make_summaries(conn, view, "name")
    if "MARKER" in prefixes:
        conn.execute("CREATE TEMPORARY VIEW IF NOT EXISTS `markers` AS SELECT "
                     "JSON_EXTRACT(extdata, '$.message') AS marker_name, * FROM "
                     "regions_and_samples WHERE category LIKE 'MARKER_%'")
        make_summaries(conn, "markers", "marker_name")
    summaries = [v for v in temp_views(conn) if v.endswith("_summary")]
    unioned = " UNION ALL ".join(
        "SELECT '{}' AS domain, * FROM {}".format(v[:-len("_summary")].upper(), v)
        for v in summaries)
    conn.execute("""CREATE TEMPORARY VIEW IF NOT EXISTS domain_summary AS
        WITH d AS ({}),
        g AS (SELECT domain, SUM(Calls) AS calls, SUM("DURATION (nsec)") AS total FROM d
              GROUP BY domain),
        t AS (SELECT SUM(total) AS all_ns FROM g)
        SELECT g.domain AS Name, g.calls AS Calls, g.total AS "DURATION (nsec)",
               CAST(g.total AS REAL) / t.all_ns * 100 AS "PERCENT (INC)"
        FROM g CROSS JOIN t ORDER BY g.total DESC""".format(unioned))
    result = {}
    for v in temp_views(conn):
        if v.endswith("_summary") or v.endswith("_summary_by_rank"):
            _, result[v] = rows_as_dicts(conn, "SELECT * FROM `{}`".format(v))
    return result


def by_name(rows, key="Calls"):
    return {r["Name"]: r[key] for r in rows}


def check_equal(got, expected, what):
    check(got == expected, "{}:\n  got      {}\n  expected {}".format(what, got, expected))


def check_stddev(conn, summary_rows):
    """STD_DEV (n-1) of one multi-call kernel, recomputed here from the raw durations."""
    for row in summary_rows:
        if row["Calls"] < 2:
            continue
        durations = [r[0] for r in conn.execute(
            "SELECT duration FROM kernels WHERE name = ?", (row["Name"],))]
        mean = sum(durations) / len(durations)
        sd = math.sqrt(sum((d - mean) ** 2 for d in durations) / (len(durations) - 1))
        check(abs(sd - row["STD_DEV"]) <= 1e-6 * max(1.0, sd),
              "{} STD_DEV {} vs {}".format(row["Name"], row["STD_DEV"], sd))
        check(row["MIN (nsec)"] == min(durations) and row["MAX (nsec)"] == max(durations),
              row["Name"] + " min/max")
        return
    raise Failure("no kernel with two calls to check STD_DEV on")


# --------------------------------------------------------------------------------------------
# Cases

def add_counters(into, more):
    for k, v in more.items():
        into[k] = into.get(k, 0) + v


def case_synthetic(args):
    work = tempfile.mkdtemp(prefix="rocpd_amd_reader_")
    try:
        listing = subprocess.run([args.make_dbs, work], check=True, capture_output=True,
                                 text=True).stdout.split()
        dbs, expects = listing[0::2], listing[1::2]
        check(len(dbs) == 2, "make_synthetic_dbs wrote {}".format(listing))
        expect = []
        for path in expects:
            with open(path) as f:
                expect.append(json.load(f))
        conn, uuids, unions = open_like_rocpd(dbs, args.sql_dir)
        check_unions(conn, dbs, uuids, unions)
        copies = check_strict_joins(conn)
        check(copies == sum(e["memory_copies"] for e in expect), "memory copies")
        check_agents(conn)
        converted = convert_like_rocpd(conn)
        check(sorted(converted) == sorted(e["pid"] for e in expect),
              "processes {}".format(sorted(converted)))
        all_kernels, all_kernel_ns, all_markers = {}, {}, {}
        for e in expect:
            v = converted[e["pid"]]
            check_equal(len(v["kernels"]), e["kernels"], "kernels of {}".format(e["pid"]))
            check_equal(dict(collections.Counter(k["name"] for k in v["kernels"])),
                        e["kernel_calls"], "kernel names of {}".format(e["pid"]))
            ns = collections.Counter()
            for k in v["kernels"]:
                check(k["end"] - k["start"] >= 0, "negative kernel duration")
                ns[k["name"]] += k["end"] - k["start"]
            check_equal(dict(ns), e["kernel_ns"], "kernel durations of {}".format(e["pid"]))
            check_equal(len([c for c in v["memory_copies"] if c["name"] != "MEMORY_SET"]),
                        e["memory_copies"], "copies of {}".format(e["pid"]))
            check_equal(len(v["memory_allocations"]), e["memory_allocations"], "allocations")
            check_equal(len(v["scratch_memory"]), e["scratch_memory"], "scratch")
            check_equal(sum(1 for _ in v["counters_collection"]) > 0, e["counter_values"] > 0,
                        "counters present")
            regions = collections.Counter(r["category"] for r in v["regions"])
            check_equal(dict(regions), e["regions_by_category"], "regions per category")
            samples = collections.Counter(r["category"] for r in v["samples"])
            check_equal(dict(samples), e["samples_by_category"], "samples per category")
            for prefix, rows in v["api"].items():
                want = sum(n for c, n in e["regions_by_category"].items() if c.startswith(prefix))
                check_equal(len(rows), want, "{} API CSV rows".format(prefix))
            names = collections.Counter(r[0] for r in v["marker_rows"])
            check_equal(dict(names), e["marker_names"], "marker CSV names")
            add_counters(all_kernels, e["kernel_calls"])
            add_counters(all_kernel_ns, e["kernel_ns"])
            add_counters(all_markers, e["marker_messages"])

        summary = summary_like_rocpd(conn)
        check_equal(by_name(summary["kernels_summary"]), all_kernels, "kernels_summary calls")
        check_equal(by_name(summary["kernels_summary"], "DURATION (nsec)"), all_kernel_ns,
                    "kernels_summary durations")
        check_stddev(conn, summary["kernels_summary"])
        percent = sum(r["PERCENT (INC)"] for r in summary["kernels_summary"])
        check(abs(percent - 100.0) < 1e-6, "kernel percentages add up to {}".format(percent))
        markers = {k: v for k, v in by_name(summary["markers_summary"]).items() if k is not None}
        check_equal(markers, all_markers, "markers_summary calls")
        for prefix in ("hip", "hsa", "cuda"):
            want = sum(n for e in expect for key in ("regions_by_category", "samples_by_category")
                       for c, n in e[key].items() if c.lower().startswith(prefix + "_"))
            got = sum(r["Calls"] for r in summary.get(prefix + "_summary", []))
            check_equal(got, want, prefix + "_summary calls")
            want_ns = sum(n for e in expect for c, n in e["region_ns_by_category"].items()
                          if c.lower().startswith(prefix + "_"))
            got_ns = sum(r["DURATION (nsec)"] for r in summary.get(prefix + "_summary", []))
            check_equal(got_ns, want_ns, prefix + "_summary durations")
        ranks = collections.Counter()
        for r in summary["kernels_summary_by_rank"]:
            ranks[r["ProcessID"]] += r["Calls"]
        check_equal(dict(ranks), {e["pid"]: e["kernels"] for e in expect},
                    "kernels_summary_by_rank calls per process")
        check_time_window(dbs, args.sql_dir)
        domains = by_name(summary["domain_summary"])
        check_equal(domains.get("KERNELS"), sum(e["kernels"] for e in expect), "KERNELS domain")
        print("synthetic: {} databases, {} kernels, {} marker messages, {} summaries".format(
            len(dbs), sum(all_kernels.values()), sum(all_markers.values()), len(summary)))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


def read_csv_markers(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return [(r["Function"], int(r["Thread_Id"]), int(r["Start_Timestamp"]),
             int(r["End_Timestamp"]), r["Domain"]) for r in rows]


def case_roctx(args):
    rocprofv3 = os.path.join(args.build_dir, "bin", "rocprofv3")
    app = os.path.join(args.build_dir, "bin", "roctx_app")
    for exe in (rocprofv3, app):
        check(os.access(exe, os.X_OK), "{} is not built".format(exe))
    threads, iterations = 2, 5
    work = tempfile.mkdtemp(prefix="rocpd_amd_reader_roctx_")
    try:
        out = os.path.join(work, "out")
        dbs, csv_rows = [], {}
        for run in ("run1", "run2"):
            proc = subprocess.run([rocprofv3, "--marker-trace", "--output-format", "rocpd", "csv",
                                   "-d", out, "-o", run, "--", app, str(threads),
                                   str(iterations)], capture_output=True, text=True, timeout=300)
            check(proc.returncode == 0, "rocprofv3 failed ({}):\n{}\n{}".format(
                proc.returncode, proc.stdout[-2000:], proc.stderr[-2000:]))
            db = os.path.join(out, run + "_results.db")
            check(os.path.exists(db), "missing " + db)
            dbs.append(db)
            csv_rows[db] = read_csv_markers(os.path.join(out, run + "_marker_api_trace.csv"))
        conn, uuids, unions = open_like_rocpd(dbs, args.sql_dir)
        check_unions(conn, dbs, uuids, unions)
        check_strict_joins(conn)
        check_agents(conn)
        converted = convert_like_rocpd(conn)
        check(len(converted) == 2, "expected two processes, got {}".format(sorted(converted)))
        pid_of_db = {}
        for i, db in enumerate(dbs):
            pid_of_db[db] = conn.execute(
                "SELECT pid FROM db{}.rocpd_info_process".format(i)).fetchone()[0]
        expected_ranges = {"outer": threads * iterations, "inner": threads * iterations,
                           "process-range": 1}
        expected_marks = {"worker-done": threads, "start": 1, "end": 1, "before-resume": 1}
        for db in dbs:
            v = converted[pid_of_db[db]]
            # The tool's marker CSV rows equal our own marker CSV of the same run.
            check_equal(sorted(v["marker_rows"]), sorted(csv_rows[db]),
                        "marker rows read like the tool vs our CSV")
            names = collections.Counter(r[0] for r in v["marker_rows"])
            for name, n in list(expected_ranges.items()) + list(expected_marks.items()):
                check_equal(names.get(name, 0), n, "marker '{}' in {}".format(name, db))
            check("while-paused" not in names and "while-paused-mark" not in names,
                  "records while paused")
            sample_names = collections.Counter(decoded_message(s["extdata"]) for s in v["samples"])
            check_equal({k: sample_names.get(k, 0) for k in expected_marks}, expected_marks,
                        "marks as samples")
            outer_tids = {r[1] for r in v["marker_rows"] if r[0] == "outer"}
            check_equal(len(outer_tids), threads, "threads with 'outer' ranges")
            thread_names = {t["tid"]: t["name"] for t in v["threads"]}
            for tid in outer_tids:
                check(thread_names.get(tid, "").startswith("worker-"),
                      "thread {} is named {!r}".format(tid, thread_names.get(tid)))
            check(any(r[0] == "outer" and r[3] > r[2] for r in v["marker_rows"]),
                  "ranges without duration")

        summary = summary_like_rocpd(conn)
        markers = by_name(summary["markers_summary"])
        for name, n in list(expected_ranges.items()) + list(expected_marks.items()):
            check_equal(markers.get(name), 2 * n, "markers_summary calls of '{}'".format(name))
        durations = by_name(summary["markers_summary"], "DURATION (nsec)")
        want = sum(r[3] - r[2] for db in dbs for r in csv_rows[db] if r[0] == "outer")
        check_equal(durations["outer"], want, "markers_summary duration of 'outer'")
        for mark in expected_marks:
            check_equal(durations[mark], 0, "duration of mark '{}'".format(mark))
        by_rank = collections.Counter()
        for r in summary["markers_summary_by_rank"]:
            if r["Name"] == "outer":
                by_rank[r["ProcessID"]] += r["Calls"]
        check_equal(dict(by_rank), {p: threads * iterations for p in pid_of_db.values()},
                    "markers_summary_by_rank 'outer' per process")
        print("roctx: {} runs, {} marker rows each, {} summaries".format(
            len(dbs), [len(csv_rows[db]) for db in dbs], len(summary)))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


def case_dbs(args):
    """Any two or more databases (e.g. real runs made elsewhere): the reading steps and the
    internal consistency of the convert and summary results."""
    conn, uuids, unions = open_like_rocpd(args.db, args.sql_dir)
    check_unions(conn, args.db, uuids, unions)
    check_strict_joins(conn)
    check_agents(conn)
    converted = convert_like_rocpd(conn)
    summary = summary_like_rocpd(conn)
    kernels = sum(len(v["kernels"]) for v in converted.values())
    check_equal(sum(r["Calls"] for r in summary.get("kernels_summary", [])), kernels,
                "kernels_summary calls")
    gpu_kernels = conn.execute("SELECT COUNT(*) FROM kernels WHERE agent_type = 'GPU'").fetchone()[0]
    check_equal(gpu_kernels, kernels, "kernels on GPU agents")
    print("dbs: {} databases, {} processes, {} kernels, {} summaries".format(
        len(args.db), len(converted), kernels, len(summary)))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--case", choices=("synthetic", "roctx", "dbs"), required=True)
    parser.add_argument("--sql-dir", required=True)
    parser.add_argument("--make-dbs", help="make_synthetic_dbs executable (synthetic case)")
    parser.add_argument("--build-dir", help="build tree with bin/rocprofv3 (roctx case)")
    parser.add_argument("--db", action="append", default=[], help="a database (dbs case)")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    args = parser.parse_args()
    try:
        if args.case == "synthetic":
            case_synthetic(args)
            return 0
        if args.case == "dbs":
            return case_dbs(args)
        return case_roctx(args)
    except (Failure, sqlite3.Error, subprocess.SubprocessError, KeyError) as e:
        print("FAIL: {}: {}".format(type(e).__name__, e))
        return 1


if __name__ == "__main__":
    sys.exit(main())
