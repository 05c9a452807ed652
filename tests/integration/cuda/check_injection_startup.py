#!/usr/bin/env python3
"""A preloaded tool under CUDA_INJECTION64_PATH alone (no ROCPROFILER_LIBRARY_CTOR), or with
neither (the core then sets CUDA_INJECTION64_PATH to its plugin as it loads): the core's
tools start at the first CUDA call after the injection, never inside it (where the real driver
is inside cuInit), and still see the GPU and trace from then on.

usage: check_injection_startup.py <fake_cuda_app> <libcupti(fake)> <plugin> <tool> <fake libcuda>
"""
import os
import re
import subprocess
import sys


def run_app(app, cupti, plugin, tool, driver, ctor, inject=True):
    env = dict(os.environ)
    for name in ("ROCPROFILER_LIBRARY_CTOR", "ROCP_TOOL_LIBRARIES"):
        env.pop(name, None)
    env.update({
        "CUPTI_LIB": cupti,
        "CUDA_INJECTION64_PATH": plugin,
        "LD_PRELOAD": tool,
        "LD_LIBRARY_PATH": os.path.dirname(driver) + ":" + env.get("LD_LIBRARY_PATH", ""),
        "ROCPROFILER_PC_SAMPLING_BETA_ENABLED": "1",
    })
    if ctor:
        env["ROCPROFILER_LIBRARY_CTOR"] = "1"
    if not inject:
        # The preloaded core names its CUDA plugin in CUDA_INJECTION64_PATH as it loads.
        del env["CUDA_INJECTION64_PATH"]
    run = subprocess.run([app], env=env, capture_output=True, text=True, timeout=120)
    out = run.stdout + run.stderr
    print(out)
    assert run.returncode == 0, f"fake_cuda_app exited {run.returncode}"
    init = re.search(r"STARTUP_TOOL init gpus=(\d+) inside_injection=(-?\d+) pc_configs=(\S+)", out)
    assert init, "the tool never initialised"
    # -1: before the application loaded its driver (ROCPROFILER_LIBRARY_CTOR)
    assert init.group(2) != "1", "the tool initialised inside the injection (cuInit)"
    assert int(init.group(1)) == 1, "the tool saw no GPU agent at its initialisation"
    # The PC sampling offer is known when the tool starts (AMD's PC sampling sample asks then).
    assert init.group(3) == "1", f"PC sampling configurations at tool init: {init.group(3)}"
    return out


def main():
    app, cupti, plugin, tool, driver = sys.argv[1:6]
    # ROCPROFILER_LIBRARY_CTOR: the tool starts as the core loads, before any CUDA.
    run_app(app, cupti, plugin, tool, driver, ctor=True)
    # A tool preloaded alone: the core sets CUDA_INJECTION64_PATH, the tools start as with it.
    run_app(app, cupti, plugin, tool, driver, ctor=False, inject=False)
    out = run_app(app, cupti, plugin, tool, driver, ctor=False)
    calls = re.search(r"FAKE_CUDA_DRIVER_CALLS_IN_INJECTION (\d+)", out)
    assert calls and calls.group(1) == "0", "driver calls were made inside the injection"
    fini = re.search(r"STARTUP_TOOL fini runtime_calls=(\d+)", out)
    assert fini, "the tool was never finalised"
    # One copy and five launches, the copy being the call that started the tool.
    assert int(fini.group(1)) == 6, f"runtime calls traced: {fini.group(1)}, expected 6"
    print("check_injection_startup: OK")


if __name__ == "__main__":
    main()
