#!/usr/bin/env python3
"""Runs anywhere: the plugin exports exactly its entry points and its manifest, and InitializeInjection in a
process without a usable GPU (or one that never uses CUDA) warns at most once and lets the
process finish normally; its standalone report says why tracing is off.

usage: check_plugin_without_gpu.py PLUGIN WORKDIR
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuda_checks as cc  # noqa: E402


def main():
    plugin, workdir = sys.argv[1:3]
    os.makedirs(workdir, exist_ok=True)
    c = cc.checker("plugin_without_gpu")
    nm = subprocess.run(["nm", "-D", "--defined-only", plugin], capture_output=True, text=True)
    exported = sorted(line.split()[-1] for line in nm.stdout.splitlines() if " T " in line)
    c.eq(exported, ["InitializeInjection", "rocprof_backend_register",
                     "rocprof_cuda_list_metrics_json"], "exported functions")
    data = sorted(line.split()[-1] for line in nm.stdout.splitlines() if " R " in line or " D " in line)
    c.eq(data, ["rocprof_backend_manifest"], "exported data (the backend manifest)")
    ldd = subprocess.run(["ldd", plugin], capture_output=True, text=True).stdout
    for lib in ("libcupti", "libcudart", "libcuda.so"):
        c.check(lib not in ldd, f"the plugin does not link {lib}")

    out = os.path.join(workdir, "no_gpu.json")
    code = ("import ctypes, sys; lib = ctypes.CDLL(sys.argv[1]); "
            "assert lib.InitializeInjection() == 1; print('app continues')")
    env = dict(os.environ, ROCPROF_CUDA_STANDALONE_OUTPUT=out, CUDA_VISIBLE_DEVICES="")
    env.pop("ROCPROF_CUDA_VERBOSE", None)
    p = subprocess.run([sys.executable, "-c", code, plugin], env=env, capture_output=True,
                       text=True, timeout=60)
    print(p.stderr, end="")
    c.eq(p.returncode, 0, "process exit status")
    c.check("app continues" in p.stdout, "the process kept running after InitializeInjection")
    ours = [l for l in p.stderr.splitlines() if l.startswith("rocprofv3 [cuda]")]
    c.check(len(ours) <= 1, f"at most one warning line ({len(ours)})")
    with open(out) as f:
        doc = json.load(f)
    c.check(isinstance(doc.get("status"), str) and doc["status"] != "", "status recorded")
    ok, _ = cc.gpu_available()
    if not ok:
        c.check("unavailable" in doc["status"], "status says why tracing is off: " + doc["status"])
        c.check(len(ours) == 1, "exactly one clear warning without a GPU")
    c.eq(doc["kernels"], [], "no kernel records")
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
