#!/usr/bin/env python3
"""GPU only (exit 77 without one): the installed sample tools on the CUDA sample program
(tests/apps/cuda_app), each preloaded with the installed CUDA plugin injected. Their records are
checked against the program's CUDA_APP_SUMMARY: kernels by name, copies by direction and size,
memsets, CUDA runtime calls with their arguments, code objects and kernel symbols, and one
external id request answered per launch, each found again in its work's records.

usage: check_samples_cuda_app.py SAMPLE_TOOLS_DIR CUDA_PLUGIN CUDA_APP OUT_DIR
  (CTest: the tools install_and_build.py built and the installed plugin; on the GPU machine the
  device bundle's copies, see tests/integration/cuda/run_on_device.sh)
"""
import collections
import os
import re
import sys

from samples_checks import (checker, of, one, preloaded, require_gpu, run_with_tool,
                            summary_from)


def base_name(op):
    """cudaMemcpy_v3020 -> cudaMemcpy (CUPTI's names carry the API version)."""
    return re.sub(r"_v\d+$", "", op or "")


def kernel_family(name):
    for family in ("vec_add", "fill<float>", "fill<int>"):
        if family in (name or ""):
            return family
    return name


def main():
    require_gpu("samples_cuda_app")
    tools, plugin, app, out = sys.argv[1:5]
    c = checker("samples_cuda_app")
    os.makedirs(out, exist_ok=True)
    want = {}
    # The core beside the plugin's folder (lib/ of the install), wherever the tools were built.
    core_dir = os.path.dirname(os.path.dirname(os.path.abspath(plugin)))

    def run(tool):
        env = dict(preloaded(os.path.join(tools, f"librocprof-sample-{tool}.so")),
                   CUDA_INJECTION64_PATH=plugin,
                   LD_LIBRARY_PATH=os.pathsep.join(
                       p for p in (core_dir, os.environ.get("LD_LIBRARY_PATH")) if p))
        path = os.path.join(out, tool + ".txt")
        p, lines = run_with_tool([app], env, path, timeout=300)
        c.eq(p.returncode, 0, f"{tool}: program exit status")
        want.update(summary_from(p.stdout, "CUDA_APP_SUMMARY"))
        c.eq(of(lines, "error"), [], f"{tool}: no error lines")
        return lines

    lines = run("buffered-tracing")
    kernels = of(lines, "record", kind="KERNEL_DISPATCH")
    c.eq(len(kernels), want["kernels"], "buffered: kernel dispatches")
    half = want["graph_kernels"] // 2
    c.eq(dict(collections.Counter(kernel_family(k.get("kernel")) for k in kernels)),
         {"vec_add": want["plain_kernels"] + half,
          "fill<float>": want["templated_float_kernels"] + half,
          "fill<int>": want["templated_int_kernels"]}, "buffered: kernels by name")
    copies = collections.defaultdict(list)
    for k in of(lines, "record", kind="MEMORY_COPY"):
        copies[k.get("op")].append(int(k.get("bytes", "0")))
    c.eq({op: sorted(sizes) for op, sizes in copies.items()},
         {"MEMORY_COPY_HOST_TO_DEVICE": sorted(want["h2d_bytes"]),
          "MEMORY_COPY_DEVICE_TO_HOST": sorted(want["d2h_bytes"]),
          "MEMORY_COPY_DEVICE_TO_DEVICE": sorted(want["d2d_bytes"] +
                                                 [want["graph_copy_bytes"]] * want["graph_copies"]),
          "MEMORY_COPY_HOST_TO_HOST": sorted(want["h2h_bytes"])}, "buffered: copies")
    c.eq(sorted(int(k.get("bytes", "0")) for k in of(lines, "record", kind="MEMORY_SET")),
         sorted(want["memset_bytes"]), "buffered: memsets")
    calls = of(lines, "record", kind="CUDA_RUNTIME_API")
    by_name = collections.Counter(base_name(k.get("op")) for k in calls)
    c.eq(by_name["cudaLaunchKernel"], want["launch_calls"] + want["captured_launch_calls"],
         "buffered: cudaLaunchKernel calls")
    first_copy = [k for k in calls if base_name(k.get("op")) == "cudaMemcpy"][:1]
    c.check(bool(first_copy) and f"count={want['h2d_bytes'][0]}" in first_copy[0].get("args", ""),
            f"buffered: the first cudaMemcpy's count argument ({first_copy})")
    launch_ids = {k.get("cid") for k in calls if base_name(k.get("op")) in
                  ("cudaLaunchKernel", "cudaGraphLaunch")}
    c.eq(sum(1 for k in kernels if k.get("cid") not in launch_ids), 0,
         "buffered: kernels without their launching call's correlation id")

    lines = run("callback-tracing")
    mallocs = [f for f in of(lines, "callback", kind="CUDA_RUNTIME_API", phase="exit")
               if base_name(f.get("op")) == "cudaMalloc"]
    c.eq(len(mallocs), want["device_allocations"], "callback: cudaMalloc EXITs")
    c.check(all("devPtr=0x" in f.get("args", "") and "->0x" in f.get("args", "")
                for f in mallocs), "callback: cudaMalloc's devPtr followed at EXIT")

    lines = run("code-object-tracing")
    c.check(len(of(lines, "code_object", phase="load")) >= 1, "code objects: at least one module")
    names = {kernel_family(s.get("name")) for s in of(lines, "kernel_symbol", phase="load")}
    c.check({"vec_add", "fill<float>", "fill<int>"} <= names, f"code objects: kernels ({names})")

    lines = run("external-correlation")
    requests = collections.Counter(r.get("kind") for r in of(lines, "request"))
    c.check(requests["KERNEL_DISPATCH"] >= want["launch_calls"], f"external ids: {requests}")
    s = one(lines, "summary")
    copies_total = (len(want["h2d_bytes"]) + len(want["d2h_bytes"]) + len(want["d2d_bytes"]) +
                    len(want["h2h_bytes"]) + want["graph_copies"])
    c.eq(int(s.get("records", "-1")), want["kernels"] + copies_total + len(want["memset_bytes"]),
         "external ids: records of kernels, copies and memsets")
    c.eq((s.get("unseen"), s.get("unknown")), ("0", "0"),
         "external ids: every answer came back, nothing else came")
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
