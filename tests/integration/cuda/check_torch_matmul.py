#!/usr/bin/env python3
"""End to end on the GPU: the PyTorch x @ x sample. With the CLI (when given and working):
`rocprofv3 --sys-trace` must show the GEMM kernel in kernel_trace.csv; always: our plugin
injected alone sees the GEMM kernel and shares libcupti with PyTorch (one copy in the process).
PLUGIN is the test variant with the standalone sink (librocprofiler-sdk-cuda-standalone.so).

usage: check_torch_matmul.py SCRIPT PLUGIN WORKDIR [ROCPROFV3]
"""
import csv
import glob
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuda_checks as cc  # noqa: E402


def main():
    script, plugin, workdir = sys.argv[1:4]
    rocprofv3 = sys.argv[4] if len(sys.argv) > 4 else None
    cc.require_gpu("torch_matmul")
    probe = subprocess.run([sys.executable, "-c", "import torch"], capture_output=True)
    if probe.returncode != 0:
        print("SKIP torch_matmul: PyTorch is not installed")
        return cc.SKIP
    os.makedirs(workdir, exist_ok=True)
    c = cc.checker("torch_matmul")

    out = os.path.join(workdir, "torch_standalone.json")
    env = dict(os.environ, CUDA_INJECTION64_PATH=plugin, ROCPROF_CUDA_STANDALONE_OUTPUT=out,
               ROCPROF_CUDA_VERBOSE="1", ROCPROF_CUDA_DOMAINS="runtime,kernel,memcpy,alloc,code")
    p = subprocess.run([sys.executable, script], env=env, capture_output=True, text=True, timeout=300)
    print(p.stderr[-3000:], end="")
    c.eq(p.returncode, 0, "torch_matmul exit status (standalone plugin)")
    if p.returncode == 0:
        want = cc.summary_from(p.stdout, "TORCH_MATMUL_SUMMARY")
        with open(out) as f:
            got = json.load(f)
        print("plugin status:", got["status"])
        c.check("already loaded" in got["status"],
                "the plugin reused the libcupti PyTorch had loaded: " + got["status"])
        names = {s["kernel_id"]: s["name"] for s in got["kernel_symbols"]}
        gemm = [k for k in got["kernels"] if "gemm" in names.get(k["kernel_id"], "").lower()]
        c.eq(len(gemm), want["matmuls"], "GEMM kernels (one per x @ x)")
        for name in sorted({names[k["kernel_id"]] for k in gemm}):
            print("GEMM kernel:", name[:200])
        c.check(len(got["code_objects"]) >= 1, "modules captured")

    if rocprofv3:
        outdir = os.path.join(workdir, "torch_cli")
        p = subprocess.run([rocprofv3, "--sys-trace", "--output-format", "csv", "-d", outdir,
                            "-o", "torch", "--", sys.executable, script],
                           capture_output=True, text=True, timeout=300)
        print(p.stdout[-2000:], p.stderr[-3000:])
        c.eq(p.returncode, 0, "rocprofv3 --sys-trace torch_matmul exit status")
        files = glob.glob(os.path.join(outdir, "**", "*kernel_trace.csv"), recursive=True)
        c.check(len(files) == 1, f"one kernel_trace.csv ({files})")
        if files:
            cc.copy_to_out(files[0])
            with open(files[0], newline="") as f:
                rows = list(csv.DictReader(f))
            gemm = [r for r in rows if "gemm" in r.get("Kernel_Name", "").lower()]
            c.check(len(gemm) >= 1, f"--sys-trace shows the GEMM kernel ({len(rows)} kernels)")
            for r in gemm[:2]:
                print("CLI GEMM kernel:", r.get("Kernel_Name", "")[:200])
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
