#!/usr/bin/env python3
"""Runs roctx_pair_app with the real tool library loaded, as `rocprofv3 --marker-trace` loads it,
prints its measurements, and checks that the tool wrote every thread-range record (CSV output,
read with python's csv module) so that the measured path is the one that records.

Launchers: cli runs the real rocprofv3 (build/bin/rocprofv3); env sets the environment rocprofv3
sets for --marker-trace (LD_PRELOAD of the tool, ROCP_TOOL_LIBRARIES, ROCPROF_MARKER_API_TRACE=1,
ROCPROFILER_LIBRARY_CTOR=1, output to a temporary directory); auto picks cli when it is built.

Usage: run_with_tool.py --build-dir DIR --app PATH [--iterations N] [--threads 1,8]
                        [--launcher auto|cli|env] [--keep DIR]
Exit status: 0 every record written, 1 records missing or the run failed, 77 skipped.
"""
import argparse
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile

RANGE_MESSAGE = "benchmark range"  # what roctx_pair_app pushes


def command_and_env(args, out):
    build = args.build_dir
    cli = os.path.join(build, "bin", "rocprofv3")
    tool = os.path.join(build, "lib", "rocprofiler-sdk", "librocprofiler-sdk-tool.so")
    roctx = os.path.join(build, "lib", "librocprofiler-sdk-roctx.so")
    launcher = args.launcher
    if launcher == "auto":
        launcher = "cli" if os.access(cli, os.X_OK) else "env"
    app = [args.app, "--iterations", str(args.iterations)]
    if args.threads:
        app += ["--threads", args.threads]
    env = dict(os.environ)
    if launcher == "cli":
        cmd = [cli, "--marker-trace", "--output-format", "csv", "-d", out, "-o", "bench", "--"]
        return launcher, cmd + app, env
    if not os.path.exists(tool):
        print("SKIP: tool library not built: " + tool)
        sys.exit(77)
    preload = [p for p in (env.get("LD_PRELOAD", ""), tool, roctx) if p]
    env.update({
        "LD_PRELOAD": ":".join(preload),
        "ROCP_TOOL_LIBRARIES": tool,
        "ROCPROFILER_LIBRARY_CTOR": "1",
        "ROCPROF_MARKER_API_TRACE": "1",
        "ROCPROF_OUTPUT_PATH": out,
        "ROCPROF_OUTPUT_FILE_NAME": "bench",
        "ROCPROF_OUTPUT_FORMAT": "CSV",
        "NVTX_INJECTION64_PATH": tool,
    })
    return launcher, app, env


def count_ranges(out):
    path = os.path.join(out, "bench_marker_api_trace.csv")
    if not os.path.exists(path):
        raise RuntimeError("missing " + path)
    with open(path, newline="") as f:
        return sum(1 for row in csv.DictReader(f) if row["Function"] == RANGE_MESSAGE)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--app", required=True)
    parser.add_argument("--iterations", type=int, default=500000)
    parser.add_argument("--threads", help="thread counts for the app, e.g. 1,2,8 (default 1,8)")
    parser.add_argument("--launcher", choices=("auto", "cli", "env"), default="auto")
    parser.add_argument("--keep", help="write the outputs here instead of a temporary directory")
    args = parser.parse_args()

    out = args.keep or tempfile.mkdtemp(prefix="roctx_pair_")
    try:
        launcher, cmd, env = command_and_env(args, out)
        print("running ({}): {}".format(launcher, " ".join(cmd)), flush=True)
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1800)
        sys.stdout.write(proc.stdout)
        sys.stderr.write(proc.stderr[-4000:])
        if proc.returncode != 0:
            print("FAIL: exit status {}".format(proc.returncode))
            return 1
        match = re.search(r"thread ranges recorded: (\d+)", proc.stdout)
        if match is None:
            print("FAIL: the application did not report its range count")
            return 1
        expected = int(match.group(1))
        written = count_ranges(out)
        print("thread-range records written by the tool: {} of {}".format(written, expected))
        return 0 if written == expected else 1
    finally:
        if args.keep is None:
            shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
