#!/usr/bin/env python3
"""Kernel-only tracing on both launch-attribution paths, compared: rocprofv3 --kernel-trace
--memory-copy-trace on a program, once as it runs by default (the CUDA plugin attributes each
kernel and copy to its launching thread from CUPTI's per-API activity records, no launch
callbacks) and once with launch callbacks (ROCPROF_CUDA_LAUNCH_CALLBACKS=1 on a GPU, or the fake
libcupti refusing the per-API records: FAKE_CUPTI_NO_API_RECORDS=1). Both runs must give the
same rows: kernel names, which thread launched each (threads numbered by first appearance, so
two processes compare), copies (their CSV has no thread column); every correlation id non-zero
and one per launching call: a row's id is its own, except that the kernels and copies of one graph
launch share the cudaGraphLaunch's id (cuda_app's CUDA_APP_SUMMARY says how many graph launches
and nodes; a program without one has no graphs); every kernel with a thread. kernel_trace.csv and memory_copy_trace.csv are read with python's csv module.

usage: check_kernel_only_paths.py ROCPROFV3 WORKDIR (--fake FAKE_LIBCUPTI | --gpu)
                                  [--threads N,M,...] -- APP [ARGS...]
  --threads: the expected launches per thread, sorted (e.g. 2,8).
Exit 77 with --gpu and no GPU.
"""
import argparse
import collections
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuda_checks as cc  # noqa: E402


def run(c, args, out, records):
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, ROCPROF_CUDA_VERBOSE="1")
    env.pop("ROCPROF_CUDA_LAUNCH_CALLBACKS", None)
    if args.fake:
        env["CUPTI_LIB"] = args.fake
        if not records:
            env["FAKE_CUPTI_NO_API_RECORDS"] = "1"
    elif not records:
        env["ROCPROF_CUDA_LAUNCH_CALLBACKS"] = "1"
    cmd = [args.rocprofv3, "--kernel-trace", "--memory-copy-trace", "--output-format", "csv",
           "-d", out, "-o", "run", "--"] + args.app
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    print(p.stdout[-1500:], p.stderr[-2500:])
    mode = "API records" if records else "launch callbacks"
    c.eq(p.returncode, 0, f"rocprofv3 exit status ({mode})")
    c.eq("launches from API records" in p.stderr, records, f"the plugin says which path ({mode})")
    kernels = sorted(cc.csv_rows(out, "kernel_trace"), key=lambda r: int(r["Start_Timestamp"]))
    copies = sorted(cc.csv_rows(out, "memory_copy_trace"), key=lambda r: int(r["Start_Timestamp"]))
    c.check(len(kernels) > 0, f"kernel rows ({mode})")
    ids = [int(r["Correlation_Id"]) for r in kernels + copies]
    c.check(all(i > 0 for i in ids), f"non-zero correlation ids ({mode}): {ids[:40]}")
    # Rows sharing an id are one graph launch's nodes: as many groups as graph launches, each
    # with that launch's kernels and copies.
    graphs = graph_shape(p.stdout)
    shared = sorted(n for n in collections.Counter(ids).values() if n > 1)
    c.eq(shared, [graphs[1]] * graphs[0],
         f"one correlation id per launching call, a graph launch's nodes sharing theirs ({mode})")
    tids = [int(r["Thread_Id"]) for r in kernels]  # memory_copy_trace.csv has no thread column
    c.check(all(t > 0 for t in tids), f"every kernel names its thread ({mode}): {tids[:40]}")
    return kernels, copies


def graph_shape(stdout):
    """(graph launches, rows per launch) from cuda_app's summary line; (0, 0) without one."""
    for line in stdout.splitlines():
        if line.startswith("CUDA_APP_SUMMARY "):
            want = json.loads(line[len("CUDA_APP_SUMMARY "):])
            launches = want.get("graph_launches", 0)
            nodes = want.get("graph_kernels", 0) + want.get("graph_copies", 0)
            return launches, nodes // launches if launches else 0
    return 0, 0


def shape(kernels, copies):
    """Kernel names in start order, each with its thread numbered by first appearance; copy
    directions."""
    order = {}
    for r in kernels:
        order.setdefault(int(r["Thread_Id"]), len(order))
    return ([(r["Kernel_Name"], order[int(r["Thread_Id"])]) for r in kernels],
            [r.get("Direction") for r in copies])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads")
    args = cc.parse_with_app(ap)
    if args.gpu:
        cc.require_gpu("kernel_only_paths")
    c = cc.checker("kernel_only_paths")
    by_record = run(c, args, os.path.join(args.workdir, "kernel_only_records"), True)
    by_callback = run(c, args, os.path.join(args.workdir, "kernel_only_callbacks"), False)
    rec, cb = shape(*by_record), shape(*by_callback)
    c.eq(len(rec[0]), len(cb[0]), "kernel rows on both paths")
    c.eq(len(rec[1]), len(cb[1]), "copy rows on both paths")
    if args.fake:  # the fake plays the same timeline in both runs: rows compare one to one
        c.eq(rec, cb, "same kernel names, launch threads and copies on both paths")
    else:  # GPU start times order concurrent streams differently from run to run
        c.eq(sorted(rec[0]), sorted(cb[0]), "same kernels per launching thread on both paths")
    if args.threads:
        per_thread = collections.Counter(t for _, t in rec[0])
        want = [int(n) for n in args.threads.split(",")]
        c.eq(sorted(per_thread.values()), want, "launches per thread")
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
