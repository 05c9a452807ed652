#!/usr/bin/env python3
"""End to end on the GPU: the CUDA sample program under our plugin injected alone
(CUDA_INJECTION64_PATH, standalone JSON output), compared with what the program says it did.
PLUGIN is the test variant with the standalone sink (librocprofiler-sdk-cuda-standalone.so).

usage: check_cuda_app_standalone.py CUDA_APP PLUGIN WORKDIR
"""
import collections
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuda_checks as cc  # noqa: E402

MiB = 1 << 20


def api_named(api, name):
    pattern = re.compile(r"^_*" + re.escape(name) + r"(_v\d+)?$")
    return [a for a in api if pattern.match(a["name"])]


def main():
    app, plugin, workdir = sys.argv[1:4]
    cc.require_gpu("cuda_app_standalone")
    os.makedirs(workdir, exist_ok=True)
    out = os.path.join(workdir, "cuda_app_standalone.json")
    env = dict(os.environ, CUDA_INJECTION64_PATH=plugin, ROCPROF_CUDA_STANDALONE_OUTPUT=out,
               ROCPROF_CUDA_VERBOSE="1")
    env.pop("ROCPROF_CUDA_DOMAINS", None)
    p = subprocess.run([app], env=env, capture_output=True, text=True, timeout=120)
    print(p.stderr, end="")
    c = cc.checker("cuda_app_standalone")
    c.eq(p.returncode, 0, "cuda_app exit status")
    want = cc.summary_from(p.stdout, "CUDA_APP_SUMMARY")
    with open(out) as f:
        got = json.load(f)
    cc.copy_to_out(out)
    print("plugin status:", got["status"])
    c.check(got["status"].startswith("running"), "plugin ran: " + got["status"])
    c.eq(got["dropped"], 0, "dropped records")

    # Agents: one per device, from the driver's attributes.
    c.check(len(got["agents"]) >= 1, "at least one GPU agent")
    if got["agents"]:
        a = got["agents"][0]
        c.check(a["cu_count"] > 0 and a["wave_front_size"] == 32, f"agent SMs/warp: {a}")
        c.check(a["uuid"].startswith("GPU-"), f"agent uuid {a['uuid']}")

    kernels = got["kernels"]
    names = {s["kernel_id"]: s["name"] for s in got["kernel_symbols"]}
    c.eq(len(kernels), want["kernels"], "kernel records")
    by_name = collections.Counter(names.get(k["kernel_id"], "?") for k in kernels)
    vec = sum(n for name, n in by_name.items() if "vec_add" in name)
    ffloat = sum(n for name, n in by_name.items() if "fillIf" in name)
    fint = sum(n for name, n in by_name.items() if "fillIi" in name)
    c.eq(vec, want["plain_kernels"] + want["graph_kernels"] // 2, "vec_add kernels")
    c.eq(ffloat, want["templated_float_kernels"] + want["graph_kernels"] // 2, "fill<float> kernels")
    c.eq(fint, want["templated_int_kernels"], "fill<int> kernels")
    c.eq(sorted(k["dispatch_id"] for k in kernels), list(range(1, len(kernels) + 1)),
         "dispatch ids 1..N")

    # Correlation: every kernel shares its id with the runtime call that launched it.
    api = got["api"]
    by_corr = {a["corr"]: a for a in api}
    launch_names = ("cudaLaunchKernel", "cudaGraphLaunch")
    for k in kernels:
        a = by_corr.get(k["corr"])
        ok = a is not None and any(a["name"].lstrip("_").startswith(n) for n in launch_names)
        c.check(ok, f"kernel dispatch {k['dispatch_id']} correlates with a launch call "
                    f"(corr {k['corr']}: {a['name'] if a else None})")
        if a is not None:
            c.check(k["start"] >= a["start"], f"kernel {k['dispatch_id']} starts after its launch call")
            c.eq(k["tid"], a["tid"], f"kernel {k['dispatch_id']} launching thread")
    graph = [k for k in kernels if k["graph_id"] != 0]
    c.eq(len(graph), want["graph_kernels"], "kernels attributed to the graph")
    graph_corrs = {k["corr"] for k in graph}
    c.eq(len(graph_corrs), want["graph_launches"], "one correlation id per graph launch")
    for corr in graph_corrs:
        a = by_corr.get(corr)
        c.check(a is not None and a["name"].startswith("cudaGraphLaunch"),
                f"graph kernels of corr {corr} belong to cudaGraphLaunch")

    # Per stream: monotonic, non-overlapping kernels.
    streams = collections.defaultdict(list)
    for k in kernels:
        c.check(k["end"] >= k["start"] > 0, f"kernel {k['dispatch_id']} timestamps")
        streams[(k["queue"], k["stream"])].append(k)
    c.check(len(streams) >= want["streams"], f"kernels on {len(streams)} streams")
    for key, ks in streams.items():
        ks.sort(key=lambda k: k["start"])
        for x, y in zip(ks, ks[1:]):
            c.check(x["end"] <= y["start"], f"stream {key}: kernels {x['dispatch_id']} and "
                                            f"{y['dispatch_id']} overlap")

    # Copies, by direction and size.
    copies = got["memcpy"]
    def sizes(direction, graph_only=None):
        return sorted(m["bytes"] for m in copies if m["direction"] == direction and
                      (graph_only is None or (m["graph_id"] != 0) == graph_only))
    c.eq(sizes("MEMORY_COPY_HOST_TO_DEVICE"), sorted(want["h2d_bytes"]), "H2D copies (bytes)")
    c.eq(sizes("MEMORY_COPY_DEVICE_TO_HOST"), sorted(want["d2h_bytes"]), "D2H copies (bytes)")
    c.eq(sizes("MEMORY_COPY_DEVICE_TO_DEVICE", False), sorted(want["d2d_bytes"]), "D2D copies (bytes)")
    c.eq(sizes("MEMORY_COPY_DEVICE_TO_DEVICE", True), [want["graph_copy_bytes"]] * want["graph_copies"],
         "graph D2D copies (bytes)")
    print("H2H copy records:", sizes("MEMORY_COPY_HOST_TO_HOST"), "(the app made", want["h2h_bytes"], ")")
    for m in copies:
        c.check(m["corr"] in by_corr, f"copy of {m['bytes']} B correlates with an API call")
        c.check(m["src_agent"] != 0 and m["dst_agent"] != 0, f"copy agents {m}")

    sets = got["memset"]
    c.eq(sorted(s["bytes"] for s in sets), sorted(want["memset_bytes"]), "memsets (bytes)")

    allocs = got["memory_allocation"]
    dev = [a for a in allocs if a["operation"] == "ALLOCATE" and a["kind"] == "DEVICE"
           and a["bytes"] == want["allocation_bytes"]]
    pin = [a for a in allocs if a["operation"] == "ALLOCATE" and a["kind"] == "PINNED"
           and a["bytes"] == want["allocation_bytes"]]
    c.eq(len(dev), want["device_allocations"], "device allocations of 1 MiB")
    c.eq(len(pin), want["pinned_allocations"], "pinned allocations of 1 MiB")
    ours = {a["address"] for a in dev + pin}
    frees = [a for a in allocs if a["operation"] == "FREE" and a["address"] in ours]
    c.eq(len(frees), len(ours), "frees of those allocations")

    # API calls: exact counts of the calls the program made.
    c.eq(len(api_named(api, "cudaLaunchKernel")), want["launch_calls"] + want["captured_launch_calls"],
         "cudaLaunchKernel calls")
    c.eq(len(api_named(api, "cudaGraphLaunch")), want["graph_launches"], "cudaGraphLaunch calls")
    c.eq(len(api_named(api, "cudaMemcpy")), want["h2d"] - 1 + want["d2h"] + want["d2d"] + want["h2h"],
         "cudaMemcpy calls")
    c.eq(len(api_named(api, "cudaMemset")), 1, "cudaMemset calls")
    c.eq(len(api_named(api, "cudaMemsetAsync")), 1, "cudaMemsetAsync calls")
    c.eq(len(api_named(api, "cudaMalloc")), want["device_allocations"], "cudaMalloc calls")
    c.check(any(a["domain"] == "CUDA_DRIVER_API" for a in api), "driver API calls recorded")
    # Only the application's own driver calls, not those the runtime makes inside its calls.
    runtime_calls = [a for a in api if a["domain"] == "CUDA_RUNTIME_API"]
    driver_calls = [a for a in api if a["domain"] == "CUDA_DRIVER_API"]
    c.check(sum(a["name"].startswith("cuDriverGetVersion") for a in driver_calls) >=
            want.get("direct_driver_calls", 0), "the application's own driver call recorded")
    c.eq(sum(any(r["tid"] == d["tid"] and r["start"] < d["start"] and d["end"] < r["end"]
                 for r in runtime_calls) for d in driver_calls), 0,
         "driver records inside a runtime call (not by default)")
    for a in api:
        if a["end"] < a["start"]:
            c.check(False, f"API call {a['name']} ends before it starts")
            break
    c.check(len({a["corr"] for a in api}) == len(api), "API correlation ids are unique")

    c.check(len(got["code_objects"]) >= 1, "code objects (modules) reported")
    c.check(all(co["size"] > 0 and co["crc"] != 0 for co in got["code_objects"]),
            "code objects carry size and CRC")
    print("counts:", {k: len(got[k]) for k in ("api", "kernels", "memcpy", "memset",
                                                "memory_allocation", "code_objects")})
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
