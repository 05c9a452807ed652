#!/usr/bin/env python3
"""Reads <prefix>_results.json and <prefix>_config.json with Python's json module and checks the
rocprofiler-sdk-tool layout against counts computed by the test from the synthetic trace.

usage: check_json.py <results.json> <config.json> <expected.json>
"""
import json
import sys


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def main():
    results_path, config_path, expected_path = sys.argv[1:4]
    with open(expected_path) as f:
        exp = json.load(f)
    with open(results_path) as f:
        doc = json.load(f)

    if list(doc) != ["rocprofiler-sdk-tool"] or len(doc["rocprofiler-sdk-tool"]) != 1:
        fail("top level")
    top = doc["rocprofiler-sdk-tool"][0]
    order = ["metadata", "agents", "counters", "strings", "code_objects", "kernel_symbols",
             "host_functions", "summary", "callback_records", "buffer_records"]
    if list(top) != order:
        fail(f"keys {list(top)}")
    meta = top["metadata"]
    for k in ["node", "pid", "init_time", "fini_time", "command", "config"]:
        if k not in meta:
            fail(f"metadata.{k} missing")
    if meta["pid"] != exp["pid"] or meta["command"] != exp["command"]:
        fail("metadata pid/command")
    if len(top["agents"]) != exp["agents"]:
        fail("agent count")
    for a in top["agents"]:
        if a["type"] not in (1, 2) or "id" not in a or "handle" not in a["id"]:
            fail(f"agent {a}")

    kinds = top["strings"]["buffer_records"]
    buf = top["buffer_records"]
    for key, n in exp["buffer_records"].items():
        if len(buf.get(key, [])) != n:
            fail(f"buffer_records.{key}: {len(buf.get(key, []))} != {n}")
        for rec in buf.get(key, []):
            kind = kinds[rec["kind"]]["kind"]
            if key.endswith("_api"):
                ops = kinds[rec["kind"]]["operations"]
                if rec["operation"] >= len(ops) or not ops[rec["operation"]]:
                    fail(f"{key}: operation {rec['operation']} not in strings table")
                if "ancestor" not in rec["correlation_id"]:
                    fail(f"{key}: no ancestor")
            if key == "kernel_dispatch" and kind != "KERNEL_DISPATCH":
                fail(f"kernel kind {kind}")
            if key == "memory_copy" and kind != "MEMORY_COPY":
                fail(f"copy kind {kind}")
    ids = [r["dispatch_info"]["dispatch_id"] for r in buf["kernel_dispatch"]]
    if sorted(ids) != list(range(1, len(ids) + 1)):
        fail("dispatch ids are not 1..N")
    # The synthetic trace launches every 4th dispatch (dispatch_id % 4 == 0) from a CUDA graph.
    for r in buf["kernel_dispatch"]:
        in_graph = r["dispatch_info"]["dispatch_id"] % 4 == 0
        if (r["graph_id"] != 0) != in_graph or (r["graph_node_id"] != 0) != in_graph:
            fail(f"graph ids of dispatch {r['dispatch_info']['dispatch_id']}")
    if not any(r["memory_kind"] for r in buf["memory_allocation"] if "memory_kind" in r):
        fail("memory_allocation records carry no memory_kind")
    if len(top["strings"]["marker_api"]) != exp["marker_strings"]:
        fail("strings.marker_api count")
    cc = top["callback_records"]["counter_collection"]
    if len(cc) != exp["counter_dispatches"]:
        fail(f"counter_collection {len(cc)}")
    if sum(len(c["records"]) for c in cc) != exp["counter_values"]:
        fail("counter record count")
    for i, co in enumerate(top["code_objects"]):
        if co["code_object_id"] != i:
            fail("code_objects not indexed by id")
    for i, ks in enumerate(top["kernel_symbols"]):
        if ks["kernel_id"] != i:
            fail("kernel_symbols not indexed by id")
    domains = [s["domain"] for s in top["summary"]]
    if domains != exp["summary_domains"]:
        fail(f"summary domains {domains}")
    for s in top["summary"]:
        st = s["stats"]
        if st["count"] != sum(op["value"]["count"] for op in st["operations"]):
            fail(f"summary {s['domain']} counts")

    with open(config_path) as f:
        text = f.read()
    cfg = json.loads(text)
    if not text.startswith('{\n  "rocprofiler-sdk-tool"'):
        fail("config.json is not indented by 2")
    m = cfg["rocprofiler-sdk-tool"][0]["metadata"]
    if list(m) != ["pid", "init_time", "fini_time", "config", "command", "build_spec", "environment"]:
        fail(f"config metadata keys {list(m)}")
    if m["config"] != exp["config"] or m["environment"] != exp["environment"]:
        fail("config/environment")
    for k in ["version_major", "version_minor", "version_patch", "git_revision"]:
        if k not in m["build_spec"]:
            fail(f"build_spec.{k}")
    print("OK")


main()
