#!/usr/bin/env python3
"""The installed sample tools on a CUDA program without a GPU: fake_cuda_app plays 5 launches of
_Z11fake_kernelPf and one 4 KiB host-to-device copy through the stand-in libcupti, after loading
a module whose cubin defines the kernel. The installed CUDA plugin is injected as the CLI would
(CUDA_INJECTION64_PATH). Checks kernels, copies, CUDA calls with their arguments (buffered and
callback), code objects and kernel symbols, and external correlation requests; then the
buffered tool under ROCPROFILER_LIBRARY_CTOR=1, and the deferred start with the fake's stuck-id
model (FAKE_CUPTI_CORRELATION=stuck): the default way keeps every kernel's launch id, the first
way gives no kernel another call's ids.

usage: check_samples_fake_cupti.py WORK FAKE_CUDA_APP FAKE_CUPTI
"""
import collections
import os
import re
import sys

from samples_checks import checker, layout, of, one, preloaded, run_with_tool


def main():
    work, app, fake_cupti = sys.argv[1:4]
    w = layout(work)
    c = checker("samples_fake_cupti")
    out = os.path.join(work, "fake_cupti")
    os.makedirs(out, exist_ok=True)
    cuda = {"CUPTI_LIB": fake_cupti, "CUDA_INJECTION64_PATH": w.cuda_plugin}

    def run(tool, extra=None, tag=""):
        env = dict(preloaded(w.tool(tool)), **cuda)
        env.update(extra or {})
        p, lines = run_with_tool([app], env, os.path.join(out, tool + tag + ".txt"))
        # The fake names runtime calls as CUPTI does (cudaMemcpy_v3020); compared by function.
        for _, fields in lines:
            if "op" in fields:
                fields["op"] = re.sub(r"_v\d+$", "", fields["op"])
        c.eq(p.returncode, 0, f"{tool}: program exit status")
        c.check("FAKE_CUDA_APP_SUMMARY" in p.stdout, f"{tool}: the program ran to its end")
        c.eq(of(lines, "error"), [], f"{tool}: no error lines")
        return lines

    lines = run("buffered-tracing")
    kernels = of(lines, "record", kind="KERNEL_DISPATCH")
    c.eq(len(kernels), 5, "buffered: kernel dispatches")
    # The SDK reports _Z11fake_kernelPf; the sample prints it demangled, as AMD's samples do.
    c.eq({k.get("kernel") for k in kernels}, {"fake_kernel(float*)"},
         "buffered: kernels named (demangled) through code-object tracing")
    copies = of(lines, "record", kind="MEMORY_COPY")
    c.eq([(k.get("op"), k.get("bytes")) for k in copies],
         [("MEMORY_COPY_HOST_TO_DEVICE", "4096")], "buffered: the copy")
    calls = of(lines, "record", kind="CUDA_RUNTIME_API")
    c.eq(collections.Counter(k.get("op") for k in calls),
         {"cudaLaunchKernel": 5, "cudaMemcpy": 1}, "buffered: CUDA runtime calls by name")
    memcpy = [k for k in calls if k.get("op") == "cudaMemcpy"]
    c.check(len(memcpy) == 1 and "count=4096" in memcpy[0].get("args", "") and
            "kind=1" in memcpy[0].get("args", "") and "dst=0xd000" in memcpy[0].get("args", ""),
            f"buffered: cudaMemcpy's arguments ({memcpy})")
    launches = [k for k in calls if k.get("op") == "cudaLaunchKernel"]
    c.check(all("gridDim={64, 1, 1}" in k.get("args", "") and
                "blockDim={128, 1, 1}" in k.get("args", "") for k in launches),
            "buffered: cudaLaunchKernel's grid and block")
    launch_ids = {k.get("cid") for k in launches}
    c.check(all(k.get("cid") in launch_ids for k in kernels),
            "buffered: each kernel carries its launch's correlation id")

    lines = run("callback-tracing")
    enter = of(lines, "callback", kind="CUDA_RUNTIME_API", op="cudaMemcpy", phase="enter")
    c.check(len(enter) == 1 and "count=4096" in enter[0].get("args", ""),
            f"callback: cudaMemcpy ENTER with its arguments ({enter})")
    c.eq(len(of(lines, "callback", kind="CUDA_RUNTIME_API", op="cudaLaunchKernel", phase="exit")),
         5, "callback: cudaLaunchKernel EXITs")

    lines = run("code-object-tracing")
    objects = of(lines, "code_object", phase="load")
    c.check(len(objects) == 1 and objects[0].get("storage") == "memory" and
            objects[0].get("uri", "").startswith("memory://"), f"code objects: one cubin ({objects})")
    symbols = of(lines, "kernel_symbol", phase="load")
    c.eq([s.get("name") for s in symbols], ["fake_kernel(float*)"], "code objects: kernel symbol")
    c.check(all(s.get("code_object") == objects[0].get("id") for s in symbols) if objects else False,
            "code objects: the symbol names its code object")

    lines = run("external-correlation")
    requests = of(lines, "request")
    c.eq(collections.Counter(r.get("kind") for r in requests),
         {"KERNEL_DISPATCH": 5, "MEMORY_COPY": 1}, "external ids: one request per launch")
    s = one(lines, "summary")
    c.eq((s.get("records"), s.get("unseen"), s.get("unknown")), ("6", "0", "0"),
         "external ids: every answer came back in its work's record, nothing else")

    # ROCPROFILER_LIBRARY_CTOR=1: the SDK initialises the tool from its own constructor, before
    # the tool library's constructors have run; the tool's tables must survive them.
    lines = run("buffered-tracing", {"ROCPROFILER_LIBRARY_CTOR": "1"}, "-ctor")
    calls = of(lines, "record", kind="CUDA_RUNTIME_API")
    c.eq(collections.Counter(k.get("op") for k in calls), {"cudaLaunchKernel": 5, "cudaMemcpy": 1},
         "ctor: CUDA runtime calls by name")
    kernels = of(lines, "record", kind="KERNEL_DISPATCH")
    c.eq([k.get("kernel") for k in kernels], ["fake_kernel(float*)"] * 5, "ctor: kernel names")
    launch_ids = {k.get("cid") for k in calls if k.get("op") == "cudaLaunchKernel"}
    c.check(len(launch_ids) == 5 and all(k.get("cid") in launch_ids for k in kernels),
            "ctor: each kernel carries its launch's correlation id")

    # The tools' deferred start with a libcupti that, once the catch-all callbacks are switched
    # off inside a call's ENTER callback, gives that call's id to everything after
    # (FAKE_CUPTI_CORRELATION=stuck, one reading of the H100 runs). The default way never
    # switches them off there: every kernel keeps its launch's id.
    stuck = {"FAKE_CUPTI_CORRELATION": "stuck"}
    lines = run("buffered-tracing", stuck, "-stuck")
    launch_ids = {k.get("cid") for k in of(lines, "record", kind="CUDA_RUNTIME_API",
                                          op="cudaLaunchKernel")}
    kernels = of(lines, "record", kind="KERNEL_DISPATCH")
    c.check(len(kernels) == 5 and len(launch_ids) == 5 and
            all(k.get("cid") in launch_ids for k in kernels),
            f"stuck ids, default way: each kernel carries its launch's id ({kernels})")
    # The first way (catch-all off in the ENTER callback) makes the stuck id: no kernel may then
    # take another call's ids; they are attributed to no launch.
    first_way = dict(stuck, ROCPROF_CUDA_DEFERRED_ACTIVITY="hook",
                     ROCPROF_CUDA_DEFERRED_DOMAINS_OFF="enter")
    lines = run("buffered-tracing", first_way, "-stuck-first-way")
    call_ids = {k.get("cid") for k in of(lines, "record", kind="CUDA_RUNTIME_API")}
    kernels = of(lines, "record", kind="KERNEL_DISPATCH")
    c.check(len(kernels) == 5 and not any(k.get("cid") in call_ids for k in kernels) and
            len({k.get("cid") for k in kernels}) == 5,
            f"stuck ids, first way: no kernel carries an API call's id ({kernels})")
    lines = run("external-correlation", first_way, "-stuck-first-way")
    answers = collections.Counter(r.get("ext") for r in of(lines, "record") if r.get("ext") != "0")
    c.check(len(of(lines, "record")) == 6 and all(n == 1 for n in answers.values()),
            f"stuck ids, first way: no record carries another request's answer ({answers})")
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
