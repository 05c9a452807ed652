#!/usr/bin/env python3
"""End to end of `rocprofv3 --list-avail` where no GPU agent can be listed: the real binary must
list the CPU agents, print exactly one line saying no GPU agents were found and why, list no GPU,
and exit 0. Two ways to have no GPU agent, whatever the machine: every GPU hidden
(CUDA_VISIBLE_DEVICES empty; on a machine without a driver the reason is the missing driver),
no CUDA plugin where the backends are looked for (ROCPROF_BACKEND_DIR), and a --rocm-root
without the libraries (the plugin is looked for under it, as a run looks for the tool there).

usage: list_avail_e2e.py ROCPROFV3 WORKDIR
"""
import os
import re
import subprocess
import sys


def run(rocprofv3, options=(), **extra):
    env = dict(os.environ, **extra)
    p = subprocess.run([rocprofv3, "--list-avail", *options], env=env, capture_output=True,
                       text=True, timeout=60)
    print(p.stdout, p.stderr)
    return p


def main():
    rocprofv3, workdir = sys.argv[1:3]
    empty = os.path.join(workdir, "list_avail_no_backends")
    os.makedirs(empty, exist_ok=True)
    failures = []
    for label, options, extra, reason in [
        ("GPUs hidden", (), {"CUDA_VISIBLE_DEVICES": ""}, r"CUDA backend"),
        ("no plugin", (), {"ROCPROF_BACKEND_DIR": empty},
         r"not part of this build \(" + re.escape(empty)),
        ("empty --rocm-root", ("--rocm-root", empty), {},
         r"not part of this build \(" + re.escape(empty + "/lib/rocprofiler-sdk/")),
    ]:
        p = run(rocprofv3, options, **extra)
        lines = [l for l in p.stdout.splitlines() if l.startswith("GPU agents")]
        if p.returncode != 0:
            failures.append(f"{label}: exit status {p.returncode}")
        if "CPU agents:" not in p.stdout or not re.search(r"^  CPU:0$", p.stdout, re.M):
            failures.append(f"{label}: no CPU agent listed")
        if len(lines) != 1 or not re.fullmatch(r"GPU agents: none found \(.*" + reason + r".*\)",
                                                 lines[0]):
            failures.append(f"{label}: want one 'GPU agents: none found (...{reason}...)' line, "
                            f"got {lines}")
        if re.search(r"^  GPU:", p.stdout, re.M):
            failures.append(f"{label}: a GPU was listed")
    for f in failures:
        print("FAIL", f)
    print(f"list_avail_e2e: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
