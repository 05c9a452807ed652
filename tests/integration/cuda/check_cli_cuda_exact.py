#!/usr/bin/env python3
"""Exact end-to-end check on the GPU through the real CLI: `rocprofv3 --sys-trace` on the CUDA
sample, compared with the counts the sample prints (CUDA_APP_SUMMARY), every output format read
back with readers we did not write (python's csv, json and sqlite3 modules; protoc and
otf2-print when present). A second run checks --kernel-rename from the enclosing NVTX range.

usage: check_cli_cuda_exact.py ROCPROFV3 CUDA_APP WORKDIR [PERFETTO_PROTO]
Exit 77 (CTest skip) without a GPU.
"""
import collections
import csv
import glob
import json
import os
import shutil
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuda_checks as cc  # noqa: E402

MiB = 1 << 20
KiB = 1 << 10


def run_cli(rocprofv3, args, app, outdir):
    shutil.rmtree(outdir, ignore_errors=True)
    cmd = [rocprofv3, *args, "-d", outdir, "-o", "run", "--", app]
    print("+", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    print(p.stderr[-3000:])
    return p


def read_csv(outdir, name):
    files = glob.glob(os.path.join(outdir, f"run_{name}.csv"))
    if len(files) != 1:
        return None
    with open(files[0], newline="") as f:
        return list(csv.DictReader(f))


def is_launch(function):
    return function.startswith(("cudaLaunchKernel", "cudaGraphLaunch", "cuLaunchKernel",
                                "cuGraphLaunch"))


def check_sys_trace(c, rocprofv3, app, workdir, proto):
    outdir = os.path.join(workdir, "exact_sys")
    p = run_cli(rocprofv3, ["--sys-trace", "--output-format", "csv", "json", "rocpd", "pftrace",
                            "otf2"], app, outdir)
    c.eq(p.returncode, 0, "rocprofv3 --sys-trace exit status")
    want = cc.summary_from(p.stdout, "CUDA_APP_SUMMARY")

    # Kernels: exact count and names, dispatch ids 1..N.
    kernels = read_csv(outdir, "kernel_trace") or []
    c.eq(len(kernels), want["kernels"], "kernel_trace.csv rows")
    ids = sorted(int(k["Dispatch_Id"]) for k in kernels)
    c.eq(ids, list(range(1, len(kernels) + 1)), "Dispatch_Id runs 1..N")
    names = collections.Counter()
    for k in kernels:
        n = k["Kernel_Name"]
        names["vec_add" if "vec_add" in n else "fill<float>" if "fill<float>" in n else
              "fill<int>" if "fill<int>" in n else n] += 1
    half = want["graph_kernels"] // 2
    c.eq(dict(names), {"vec_add": want["plain_kernels"] + half,
                       "fill<float>": want["templated_float_kernels"] + half,
                       "fill<int>": want["templated_int_kernels"]}, "kernel names")

    # API calls, and kernel <-> API correlation (same id, same thread, launch before kernel).
    api = read_csv(outdir, "cuda_api_trace") or []
    c.check(len(api) > 0, "cuda_api_trace.csv has rows")
    c.eq(sorted({a["Domain"] for a in api}), ["CUDA_DRIVER_API", "CUDA_RUNTIME_API"],
         "API domains")
    # The driver calls the runtime makes inside its calls are not recorded by default (issue
    # 15); the application's own (cuDriverGetVersion) are.
    runtime_calls = [a for a in api if a["Domain"] == "CUDA_RUNTIME_API"]
    driver_calls = [a for a in api if a["Domain"] == "CUDA_DRIVER_API"]
    c.check(sum(a["Function"].startswith("cuDriverGetVersion") for a in driver_calls) >=
            want.get("direct_driver_calls", 0), "the application's own driver call recorded")
    c.eq(sum(any(r["Thread_Id"] == d["Thread_Id"] and
                 int(r["Start_Timestamp"]) < int(d["Start_Timestamp"]) and
                 int(d["End_Timestamp"]) < int(r["End_Timestamp"]) for r in runtime_calls)
             for d in driver_calls), 0, "driver records inside a runtime call (not by default)")
    fn = collections.Counter(a["Function"].split("_v")[0] for a in api
                             if a["Domain"] == "CUDA_RUNTIME_API")
    c.eq(fn["cudaLaunchKernel"], want["launch_calls"] + want["captured_launch_calls"],
         "cudaLaunchKernel calls")
    c.eq(fn["cudaGraphLaunch"], want["graph_launches"], "cudaGraphLaunch calls")
    c.eq(fn["cudaMemcpy"], want["h2d"] - 1 + want["d2h"] + want["d2d"] + want["h2h"],
         "cudaMemcpy calls")
    c.eq(fn["cudaMalloc"], want["device_allocations"], "cudaMalloc calls")
    c.eq(fn["cudaMemset"], 1, "cudaMemset calls")
    by_corr = collections.defaultdict(list)
    for a in api:
        by_corr[int(a["Correlation_Id"])].append(a)
    uncorrelated = 0
    for k in kernels:
        launches = [a for a in by_corr.get(int(k["Correlation_Id"]), []) if is_launch(a["Function"])]
        ok = any(a["Thread_Id"] == k["Thread_Id"] and
                 int(a["Start_Timestamp"]) <= int(k["Start_Timestamp"]) for a in launches)
        uncorrelated += 0 if ok else 1
    c.eq(uncorrelated, 0, "kernels without their launching API call (id, thread, order)")

    # Per stream, kernels are monotonic and never overlap.
    per_stream = collections.defaultdict(list)
    for k in kernels:
        per_stream[k["Stream_Id"]].append((int(k["Start_Timestamp"]), int(k["End_Timestamp"])))
    c.eq(len(per_stream), want["streams"], "streams with kernels")
    bad = 0
    for spans in per_stream.values():
        spans.sort()
        bad += sum(1 for (s0, e0), (s1, _) in zip(spans, spans[1:]) if e0 > s1)
        bad += sum(1 for s, e in spans if e < s)
    c.eq(bad, 0, "overlapping or reversed kernels on one stream")

    # JSON: graph kernels are attributed (graph id and node id).
    with open(glob.glob(os.path.join(outdir, "run_results.json"))[0]) as f:
        doc = json.load(f)["rocprofiler-sdk-tool"][0]
    jk = doc["buffer_records"]["kernel_dispatch"]
    c.eq(len(jk), want["kernels"], "JSON kernel_dispatch records")
    graph = [r for r in jk if r.get("graph_id", 0) != 0]
    c.eq(len(graph), want["graph_kernels"], "JSON kernels attributed to a graph")
    c.check(all(r.get("graph_node_id", 0) != 0 for r in graph), "graph kernels carry a node id")
    c.eq(len({r["graph_node_id"] for r in graph}), want["graph_kernels"] // want["graph_launches"],
         "distinct graph nodes")

    # rocpd: copies with bytes per direction, memsets, allocations.
    db = sqlite3.connect(glob.glob(os.path.join(outdir, "run_results.db"))[0])
    c.eq(db.execute("SELECT COUNT(*) FROM kernels").fetchone()[0], want["kernels"],
         "rocpd kernels view rows")
    copies = collections.defaultdict(list)
    for name, size in db.execute("SELECT name, size FROM memory_copies"):
        copies[name].append(size)
    got = {k: sorted(v) for k, v in copies.items()}
    c.eq(got.get("MEMORY_COPY_HOST_TO_DEVICE"), sorted(want["h2d_bytes"]), "H2D copies (bytes)")
    c.eq(got.get("MEMORY_COPY_DEVICE_TO_HOST"), sorted(want["d2h_bytes"]), "D2H copies (bytes)")
    c.eq(got.get("MEMORY_COPY_DEVICE_TO_DEVICE"),
         sorted(want["d2d_bytes"] + [want["graph_copy_bytes"]] * want["graph_copies"]),
         "D2D copies (bytes)")
    c.eq(got.get("MEMORY_COPY_HOST_TO_HOST"), sorted(want["h2h_bytes"]), "H2H copies (bytes)")
    c.eq(sorted(r[0] for r in db.execute(
        "SELECT size FROM rocpd_memory_copy rc JOIN rocpd_string s ON rc.name_id = s.id "
        "WHERE s.string = 'MEMORY_SET'")), sorted(want["memset_bytes"]), "memsets (bytes)")
    allocs = db.execute("SELECT type, size FROM rocpd_memory_allocate").fetchall()
    n_alloc = want["device_allocations"] + want["pinned_allocations"]
    c.eq(sorted(s for t, s in allocs if t == "ALLOC"), [want["allocation_bytes"]] * n_alloc,
         "allocations (bytes)")
    c.eq(sum(1 for t, _ in allocs if t == "FREE"), n_alloc, "frees")

    # CSV memsets and allocations agree with rocpd.
    memsets = read_csv(outdir, "memory_set_trace") or []
    c.eq(sorted(int(m["Size"]) for m in memsets), sorted(want["memset_bytes"]), "memset CSV")
    allocs_csv = read_csv(outdir, "memory_allocation_trace") or []
    c.eq(sum(1 for a in allocs_csv if a["Operation"] == "MEMORY_ALLOCATION_ALLOCATE"), n_alloc,
         "allocation CSV rows")

    # NVTX ranges from the sample (through NVTX injection into the tool).
    markers = read_csv(outdir, "marker_api_trace") or []
    ranges = sorted(m["Function"] for m in markers if m["Function"].startswith("cuda_app:")
                    and m["Start_Timestamp"] != m["End_Timestamp"])
    c.eq(len(ranges), want["nvtx_ranges"], f"NVTX ranges ({ranges})")

    # GPU agent in agent_info.csv.
    agents = read_csv(outdir, "agent_info") or []
    gpus = [a for a in agents if a["Agent_Type"] == "GPU"]
    c.check(len(gpus) >= 1 and all(int(g["Cu_Count"]) > 0 for g in gpus),
            "agent_info.csv has a GPU with compute units")
    c.check(any("H100" in g["Name"] or "H200" in g["Name"] or g["Name"] for g in gpus),
            "GPU agent is named")

    pftrace = glob.glob(os.path.join(outdir, "run_results.pftrace"))
    if proto and shutil.which("protoc") and pftrace:
        with open(pftrace[0], "rb") as fh:
            d = subprocess.run(["protoc", f"--proto_path={os.path.dirname(proto)}",
                                "--decode=perfetto.protos.Trace", os.path.basename(proto)],
                               stdin=fh, capture_output=True, text=True)
        c.eq(d.returncode, 0, "protoc decodes the pftrace")
        c.check("vec_add" in d.stdout, "pftrace names the vec_add kernel")
        c.check(d.stdout.count("flow_ids") + d.stdout.count("terminating_flow_ids") > 0,
                "pftrace has flows")
    else:
        print("note: protoc not available; pftrace not decoded here")
    otf2 = glob.glob(os.path.join(outdir, "run_results.otf2"))
    if shutil.which("otf2-print") and otf2:
        d = subprocess.run(["otf2-print", otf2[0]], capture_output=True, text=True)
        c.eq(d.returncode, 0, "otf2-print reads the archive")
        c.check(d.stdout.count("ENTER") >= want["kernels"], "OTF2 has kernel enters")
    else:
        print("note: otf2-print not available; OTF2 not read here")
    for f in (glob.glob(os.path.join(outdir, "run_kernel_trace.csv")) + pftrace):
        cc.copy_to_out(f)


def check_kernel_rename(c, rocprofv3, app, workdir):
    outdir = os.path.join(workdir, "exact_rename")
    p = run_cli(rocprofv3, ["--kernel-trace", "--marker-trace", "--kernel-rename",
                            "--output-format", "csv"], app, outdir)
    c.eq(p.returncode, 0, "rocprofv3 --kernel-rename exit status")
    want = cc.summary_from(p.stdout, "CUDA_APP_SUMMARY")
    names = collections.Counter(k["Kernel_Name"] for k in (read_csv(outdir, "kernel_trace") or []))
    c.eq(names.get("cuda_app:kernels", 0), want["plain_kernels"] + want["templated_float_kernels"]
         + want["templated_int_kernels"], "kernels renamed to 'cuda_app:kernels'")
    c.eq(names.get("cuda_app:graph", 0), want["graph_kernels"], "graph kernels renamed")


def main():
    rocprofv3, app, workdir = sys.argv[1:4]
    proto = sys.argv[4] if len(sys.argv) > 4 else None
    cc.require_gpu("cli_cuda_exact")
    os.makedirs(workdir, exist_ok=True)
    c = cc.checker("cli_cuda_exact")
    check_sys_trace(c, rocprofv3, app, workdir, proto)
    check_kernel_rename(c, rocprofv3, app, workdir)
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
