#!/usr/bin/env python3
"""CPU-only end to end: the arguments of CUDA runtime calls in rocprofv3's outputs, as rocprofv3
shows HIP's. fake_cuda_app plays one cudaMemcpy(dst=0xd000, src=0xc000, count=4096, kind=1) and
five cudaLaunchKernel calls (grid 64, block 128) through the stand-in libcupti. Read back with
python's json module and with protoc (--decode=perfetto.protos.Trace).

usage: check_fake_cupti_api_args.py ROCPROFV3 FAKE_APP FAKE_LIBCUPTI WORKDIR PERFETTO_PROTO
"""
import glob
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuda_checks as cc  # noqa: E402


def main():
    rocprofv3, app, fake, workdir, proto = sys.argv[1:6]
    out = os.path.join(workdir, "fake_cupti_api_args")
    shutil.rmtree(out, ignore_errors=True)
    # Arguments are recorded with --cuda-api-args (a callback per call); the default (API
    # activity records) has none.
    cmd = [rocprofv3, "--cuda-runtime-trace", "--cuda-api-args", "--output-format", "json",
           "pftrace", "-d", out, "-o", "run", "--", app]
    p = subprocess.run(cmd, env=dict(os.environ, CUPTI_LIB=fake), capture_output=True, text=True,
                       timeout=120)
    print(p.stdout[-2000:], p.stderr[-3000:])
    c = cc.checker("fake_cupti_api_args")
    c.eq(p.returncode, 0, "rocprofv3 exit status")

    files = glob.glob(os.path.join(out, "**", "run_results.json"), recursive=True)
    c.eq(len(files), 1, "one results.json")
    if files:
        with open(files[0]) as f:
            doc = json.load(f)["rocprofiler-sdk-tool"][0]
        kinds = doc["strings"]["buffer_records"]
        records = doc["buffer_records"]["cuda_api"]

        def name(r):
            return kinds[r["kind"]]["operations"][r["operation"]]

        memcpy = [r for r in records if name(r).startswith("cudaMemcpy")]
        c.eq(len(memcpy), 1, "one cudaMemcpy record")
        if memcpy:
            args = {a["name"]: (a["type"], a["value"]) for a in memcpy[0].get("args", [])}
            c.eq(args, {"dst": ("void*", "0xd000"), "src": ("const void*", "0xc000"),
                        "count": ("size_t", "4096"), "kind": ("enum cudaMemcpyKind", "1")},
                 "cudaMemcpy args: type and value by name, in the record")
            c.eq([a["name"] for a in memcpy[0]["args"]], ["dst", "src", "count", "kind"],
                 "cudaMemcpy args in declaration order")
            c.eq(memcpy[0].get("retval"), 0, "cudaMemcpy retval")
        launches = [r for r in records if name(r).startswith("cudaLaunchKernel")]
        c.eq(len(launches), 5, "cudaLaunchKernel records")
        c.check(all({"name": "gridDim", "type": "dim3", "value": "{64, 1, 1}"} in r.get("args", [])
                    for r in launches), "cudaLaunchKernel's gridDim")

    traces = glob.glob(os.path.join(out, "**", "run_results.pftrace"), recursive=True)
    c.eq(len(traces), 1, "one results.pftrace")
    if traces and shutil.which("protoc"):
        with open(traces[0], "rb") as fh:
            d = subprocess.run(["protoc", f"--proto_path={os.path.dirname(proto)}",
                                "--decode=perfetto.protos.Trace", os.path.basename(proto)],
                               stdin=fh, capture_output=True, text=True)
        c.eq(d.returncode, 0, "protoc decodes the pftrace")
        text = " ".join(d.stdout.split())

        def annotated(name, value):
            # protoc prints a message's fields by field number: string_value (6) before name (10).
            return (f'string_value: "{value}" name: "{name}"' in text or
                    f'name: "{name}" string_value: "{value}"' in text)
        c.check(annotated("count", "4096"), "the cudaMemcpy slice has a count annotation")
        c.check(annotated("kind_arg", "1"),
                "cudaMemcpy's kind argument, renamed beside the slice's own kind")
        c.check(annotated("gridDim", "{64, 1, 1}"),
                "the cudaLaunchKernel slices have a gridDim annotation")
    elif traces:
        print("note: protoc not available; pftrace not decoded here")
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
