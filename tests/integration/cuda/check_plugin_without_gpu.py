#!/usr/bin/env python3
"""Runs anywhere: the installed plugin exports exactly its entry points and its manifest and
contains no standalone sink; InitializeInjection in a process without a profiler core (installed plugin) or
without a usable GPU (the test variant with the standalone sink) warns at most once and lets
the process finish normally; the standalone report says why tracing is off.

usage: check_plugin_without_gpu.py PLUGIN STANDALONE_PLUGIN WORKDIR
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuda_checks as cc  # noqa: E402


def exported_symbols(plugin):
    nm = subprocess.run(["nm", "-D", "--defined-only", plugin], capture_output=True, text=True)
    return sorted(line.split()[-1] for line in nm.stdout.splitlines() if " T " in line)


def exported_data(plugin):
    nm = subprocess.run(["nm", "-D", "--defined-only", plugin], capture_output=True, text=True)
    return sorted(line.split()[-1] for line in nm.stdout.splitlines() if " R " in line or " D " in line)


def inject(plugin, env):
    """Calls InitializeInjection in a fresh process; returns it and its rocprofv3 lines."""
    code = ("import ctypes, sys; lib = ctypes.CDLL(sys.argv[1]); "
            "assert lib.InitializeInjection() == 1; print('app continues')")
    env = dict(env)
    env.pop("ROCPROF_CUDA_VERBOSE", None)
    p = subprocess.run([sys.executable, "-c", code, plugin], env=env, capture_output=True,
                       text=True, timeout=60)
    print(p.stderr, end="")
    return p, [l for l in p.stderr.splitlines() if l.startswith("rocprofv3 [cuda]")]


def main():
    plugin, standalone, workdir = sys.argv[1:4]
    os.makedirs(workdir, exist_ok=True)
    c = cc.checker("plugin_without_gpu")
    entry_points = ["InitializeInjection", "rocprof_backend_register",
                    "rocprof_cuda_count_metric_passes", "rocprof_cuda_counter_source",
                    "rocprof_cuda_list_metrics_json"]
    c.eq(exported_symbols(plugin), entry_points, "exported symbols")
    c.eq(exported_symbols(standalone), entry_points, "exported symbols of the test variant")
    c.eq(exported_data(plugin), ["rocprof_backend_manifest"], "exported data (the backend manifest)")
    for lib in ("libcupti", "libcudart", "libcuda.so"):
        ldd = subprocess.run(["ldd", plugin], capture_output=True, text=True).stdout
        c.check(lib not in ldd, f"the plugin does not link {lib}")
    # The standalone sink is a test build's: not a symbol, not its variable, in the product.
    nm = subprocess.run(["nm", "-C", plugin], capture_output=True, text=True).stdout
    c.check("standalone" not in nm, "no standalone sink symbol in the installed plugin")
    with open(plugin, "rb") as f:
        c.check(b"ROCPROF_CUDA_STANDALONE_OUTPUT" not in f.read(),
                "the installed plugin does not read ROCPROF_CUDA_STANDALONE_OUTPUT")

    # The installed plugin alone (no core): one line saying why, and the process goes on.
    out = os.path.join(workdir, "no_gpu.json")
    if os.path.exists(out):
        os.remove(out)  # an earlier run's
    p, ours = inject(plugin, dict(os.environ, ROCPROF_CUDA_STANDALONE_OUTPUT=out,
                                  CUDA_VISIBLE_DEVICES=""))
    c.eq(p.returncode, 0, "process exit status (installed plugin)")
    c.check("app continues" in p.stdout, "the process kept running (installed plugin)")
    c.eq(len(ours), 1, "one warning line without a core (installed plugin)")
    c.check(any("no profiler core" in l for l in ours), "the warning says there is no core")
    c.check(not os.path.exists(out), "the installed plugin writes no standalone report")

    p, ours = inject(standalone, dict(os.environ, ROCPROF_CUDA_STANDALONE_OUTPUT=out,
                                      CUDA_VISIBLE_DEVICES=""))
    c.eq(p.returncode, 0, "process exit status")
    c.check("app continues" in p.stdout, "the process kept running after InitializeInjection")
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
