#!/usr/bin/env python3
"""API tracing from CUPTI's API activity records (issue 15): rocprofv3 --sys-trace on a program,
once through callbacks (the default) and once with --cuda-api-records (each traced call's record
made after the fact from CUPTI's asynchronous API activity record). Both runs must give the same
API calls: the same function names, as many of each, per thread (threads numbered by first
appearance, so two processes compare), driver calls made inside runtime calls absent from both;
with records: every kernel carries the correlation id of one launch call of the same run (the
launching thread's), each API call has its own id, every call ends after it starts, the calls of
one thread are disjoint or nested (never partly overlapping), and a kernel starts after its
launch call did. Missing only the first traced call (during which the tools may start) is
accepted. cuda_api_trace.csv and kernel_trace.csv are read with python's csv module.

usage: check_cuda_api_records.py ROCPROFV3 WORKDIR (--fake FAKE_LIBCUPTI | --gpu) -- APP [ARGS...]
  --fake: the fake libcupti plays each runtime launch with a nested cuLaunchKernel.
Exit 77 with --gpu and no GPU.
"""
import argparse
import collections
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuda_checks as cc  # noqa: E402

LAUNCHES = ("cudaLaunchKernel", "cudaLaunchCooperativeKernel", "cudaGraphLaunch",
            "cuLaunchKernel", "cuLaunchCooperativeKernel", "cuGraphLaunch")


def run(c, args, out, records):
    mode = "API records" if records else "callbacks"
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, ROCPROF_CUDA_VERBOSE="1")
    for name in ("ROCPROF_CUDA_API_RECORDS", "ROCPROF_CUDA_LAUNCH_CALLBACKS",
                 "ROCPROF_CUDA_NESTED_DRIVER_API"):
        env.pop(name, None)
    if args.fake:
        env.update(CUPTI_LIB=args.fake, FAKE_CUPTI_NESTED_DRIVER="1")
    cmd = [args.rocprofv3, "--sys-trace", "--output-format", "csv", "-d", out, "-o", "run"]
    if records:
        cmd.append("--cuda-api-records")
    p = subprocess.run(cmd + ["--"] + args.app, env=env, capture_output=True, text=True,
                       timeout=600)
    print(p.stdout[-1500:], p.stderr[-2500:])
    c.eq(p.returncode, 0, f"rocprofv3 exit status ({mode})")
    c.eq("API calls from API records" in p.stderr, records, f"the plugin says which path ({mode})")
    api = [r for r in cc.csv_rows(out, "cuda_api_trace")
           if r["Domain"] in ("CUDA_RUNTIME_API", "CUDA_DRIVER_API")]
    c.check(len(api) > 0, f"API rows ({mode})")
    return api, cc.csv_rows(out, "kernel_trace")


def per_thread(api):
    """(thread number by first call, domain, function) -> count."""
    order = {}
    for r in sorted(api, key=lambda r: int(r["Start_Timestamp"])):
        order.setdefault(r["Thread_Id"], len(order))
    return collections.Counter((order[r["Thread_Id"]], r["Domain"], r["Function"]) for r in api)


def check_records(c, api, kernels):
    ids = [r["Correlation_Id"] for r in api]
    c.check(all(int(i) > 0 for i in ids), "every API call has a correlation id")
    c.eq(len(set(ids)), len(ids), "one correlation id per API call")
    c.check(all(int(r["End_Timestamp"]) >= int(r["Start_Timestamp"]) for r in api),
            "every API call ends after it starts")
    partial = 0
    by_thread = collections.defaultdict(list)
    for r in api:
        by_thread[r["Thread_Id"]].append((int(r["Start_Timestamp"]), int(r["End_Timestamp"])))
    for calls in by_thread.values():
        open_ends = []  # ends of the calls enclosing the current one
        for start, end in sorted(calls, key=lambda t: (t[0], -t[1])):
            while open_ends and open_ends[-1] <= start:
                open_ends.pop()
            if open_ends and end > open_ends[-1]:
                partial += 1
            open_ends.append(end)
    c.eq(partial, 0, "the calls of a thread are disjoint or nested")
    launches = {r["Correlation_Id"]: r for r in api if r["Function"].startswith(LAUNCHES)}
    c.check(len(kernels) > 0, "kernel rows")
    unjoined = [k for k in kernels if k["Correlation_Id"] not in launches]
    c.eq(len(unjoined), 0, f"every kernel joins a launch call: {unjoined[:3]}")
    joined = [(k, launches[k["Correlation_Id"]]) for k in kernels
              if k["Correlation_Id"] in launches]
    c.check(all(k["Thread_Id"] == l["Thread_Id"] for k, l in joined),
            "each kernel names its launch call's thread")
    c.check(all(int(k["Start_Timestamp"]) >= int(l["Start_Timestamp"]) for k, l in joined),
            "each kernel starts after its launch call started")


def main():
    args = cc.parse_with_app(argparse.ArgumentParser())
    if args.gpu:
        cc.require_gpu("cuda_api_records")
    c = cc.checker("cuda_api_records")
    cb_api, _ = run(c, args, os.path.join(args.workdir, "api_by_callbacks"), False)
    rec_api, rec_kernels = run(c, args, os.path.join(args.workdir, "api_by_records"), True)
    want, got = per_thread(cb_api), per_thread(rec_api)
    differ = sorted((k, want.get(k, 0), got.get(k, 0)) for k in set(want) | set(got)
                    if want.get(k, 0) != got.get(k, 0))
    # The call during which the tools start (the first after cuInit, when the tools' start is
    # deferred to it) is traced by callbacks; from records only if CUPTI writes a record for a
    # call whose records were enabled inside its own entry. Missing that one call is accepted.
    first = min(cb_api, key=lambda r: int(r["Start_Timestamp"]), default=None)
    if first and differ:
        key = (0, first["Domain"], first["Function"])
        if differ == [(key, want[key], want[key] - 1)]:
            print(f"NOTE: records lack the first call only ({first['Function']}): accepted")
            differ = []
    c.eq(differ, [], "same API calls per thread: (thread, domain, function, callbacks, records)")
    print("API calls per path:", len(cb_api), "by callbacks,", len(rec_api), "from records")
    check_records(c, rec_api, rec_kernels)
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
