#!/usr/bin/env python3
"""End to end: behaviours that AMD's own rocprofv3 tests (tests/rocprofv3/*/validate.py) rely on,
each on the real CLI and a sample program, read back with readers we did not write (json,
protoc --decode, otf2-print).

usage: check_amd_compat.py --rocprofv3 EXE --roctx-app EXE --legacy-app EXE --proto FILE
                           --workdir DIR CASE
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

ARGS = None
CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def run(args, **kwargs):
    return subprocess.run([ARGS.rocprofv3] + args, capture_output=True, text=True, timeout=120,
                          **kwargs)


def results_json(path):
    with open(path) as f:
        return json.load(f)["rocprofiler-sdk-tool"][0]


@case
def input_job_output_directory(tmp):
    """An input-file job's output_directory and log_level are honoured, and a single job without
    counters writes into that directory itself (no pass_1/), as rocprofv3 does."""
    target = os.path.join(tmp, "job-dir")
    jobs = os.path.join(tmp, "job.yaml")
    with open(jobs, "w") as f:
        f.write("jobs:\n  - marker_trace: true\n    output_directory: " + target + "\n"
                "    output_file: out\n    output_format: [json]\n    log_level: config\n"
                "    summary: true\n    summary_output_file: summary\n")
    p = run(["-i", jobs, "--", ARGS.roctx_app, "2", "3"], cwd=tmp)
    check(p.returncode == 0, p.stderr)
    check("- rocprofv3 configuration" in p.stderr, "log_level: config prints the configuration: "
          + p.stderr[-400:])
    result = os.path.join(target, "out_results.json")
    check(os.path.isfile(result), "outputs in the job's output_directory: " +
          str(sorted(os.listdir(tmp))))
    check(not os.path.exists(os.path.join(target, "pass_1")) and
          not os.path.exists(os.path.join(tmp, "pass_1")), "no pass_1/ for a single job")
    config = results_json(result)["metadata"]["config"]
    keys = list(config)
    check(keys[0] == "benchmark_mode" and keys[69] == "group_by_queue",
          "rocprofv3's 70 config keys first: " + str(keys[:3]) + " ... " + str(keys[68:71]))
    check(config["summary"] is True and config["summary_unit"] == "nsec" and
          config["summary_file"] == "summary", "summary keys under rocprofv3's names")


@case
def legacy_roctx_marks_only(tmp):
    """A program on the legacy roctracer ROCTx header and libroctx64 (roctx_version_major/minor)
    is traced; its trace holds a mark alone, and OTF2's reader still opens the archive."""
    p = run(["--marker-trace", "--output-format", "json", "otf2", "-d", tmp, "-o", "legacy",
             "--", ARGS.legacy_app])
    check(p.returncode == 0, p.stderr)
    check("roctx 4.1" in p.stdout, "the legacy version queries answer 4.1: " + p.stdout)
    doc = results_json(os.path.join(tmp, "legacy_results.json"))
    messages = [m["value"] for m in doc["strings"]["marker_api"]]
    check(messages == ["roctracer/roctx v4.1"], "the mark is recorded: " + str(messages))
    d = subprocess.run(["otf2-print", "-G", os.path.join(tmp, "legacy_results.otf2")],
                       capture_output=True, text=True)
    check(d.returncode == 0 and "ERROR" not in d.stdout + d.stderr,
          "otf2-print reads an archive of marks alone: " + (d.stdout + d.stderr)[-400:])
    check(re.search(r'LOCATION\s+\d+\s+Name: "Thread \d+"', d.stdout) is not None,
          "the marking thread has its location")


def descriptors_and_slice_tracks(decoded):
    """(descriptors {uuid: (parent, kind)}, slice track uuids) from protoc's text output."""
    descriptors, slice_tracks = {}, set()
    for block in decoded.split("\npacket {")[1:]:
        if "track_descriptor {" in block:
            uuid = re.search(r"\n\s*uuid: (\d+)", block).group(1)
            parent = re.search(r"\n\s*parent_uuid: (\d+)", block)
            kind = "process" if re.search(r"\n\s*process \{", block) else (
                "thread" if re.search(r"\n\s*thread \{", block) else "other")
            descriptors[uuid] = (parent.group(1) if parent else None, kind)
        defaults = re.search(r"track_event_defaults \{\n\s*track_uuid: (\d+)", block)
        if defaults:
            slice_tracks.add(defaults.group(1))
    return descriptors, slice_tracks


@case
def perfetto_slices_on_thread_or_process_tracks(tmp):
    """Every slice track is a thread's own track or a process-scoped one (AMD's Perfetto test
    reader rejects slices on children of thread tracks), overlap lanes included."""
    p = run(["--marker-trace", "--output-format", "pftrace", "-d", tmp, "-o", "pf", "--",
             ARGS.roctx_app, "3", "20"])
    check(p.returncode == 0, p.stderr)
    with open(os.path.join(tmp, "pf_results.pftrace"), "rb") as f:
        d = subprocess.run(["protoc", "--proto_path=" + os.path.dirname(ARGS.proto),
                            "--decode=perfetto.protos.Trace", os.path.basename(ARGS.proto)],
                           stdin=f, capture_output=True, text=True)
    check(d.returncode == 0, "protoc decodes the trace: " + d.stderr[-300:])
    descriptors, slice_tracks = descriptors_and_slice_tracks(d.stdout)
    processes = [u for u, (_, kind) in descriptors.items() if kind == "process"]
    check(len(processes) == 1, "one process track")
    check(slice_tracks, "slice tracks found")
    for track in slice_tracks:
        parent, _ = descriptors.get(track, (None, None))
        check(parent == processes[0],
              "slice track %s has parent %s, not the process track" % (track, parent))
    # The sample's process range (started on main, stopped on a worker) overlaps main's other
    # markers: main needs a lane besides its own track, and that lane is process-scoped too.
    lanes = [u for u, (_, kind) in descriptors.items() if kind == "other" and u in slice_tracks]
    check(lanes, "an overlap lane was needed (the check would be empty otherwise)")


@case
def version_names_the_rocm_interface(tmp):
    p = run(["--version"])
    check(p.returncode == 0, p.stderr)
    check(re.search(r"^\s+rocm_version: 7\.0\.0 \(.*interface.*\)$", p.stdout, re.M) is not None,
          "rocm_version is labelled as the interface implemented: " + p.stdout)


@case
def sys_trace_with_every_sub_option_off_still_runs(tmp):
    """--sys-trace also turns on CUDA tracing (docs/cli.md), so negating every sub-option that
    rocprofv3 knows still leaves something to collect and --summary is accepted."""
    negated = ["--" + name + "=no" for name in (
        "hip-trace", "hsa-trace", "marker-trace", "kernel-trace", "memory-copy-trace",
        "memory-allocation-trace", "scratch-memory-trace", "rccl-trace", "kokkos-trace",
        "rocdecode-trace", "rocjpeg-trace", "hip-runtime-trace", "hip-compiler-trace",
        "hsa-core-trace", "hsa-amd-trace", "hsa-image-trace", "hsa-finalizer-trace",
        "advanced-thread-trace", "kernel-rename")]
    p = run(["-M", "--sys-trace", "-d", tmp, "-o", "out"] + negated +
            ["--summary", "--echo", "--", ARGS.roctx_app])
    check(p.returncode == 0, p.stderr)
    check(re.search(r"command:.*" + re.escape(ARGS.roctx_app), p.stdout) is not None, p.stdout)
    check("ROCPROF_CUDA_RUNTIME_API_TRACE=1" in p.stdout, "CUDA tracing stays on: " + p.stdout)


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    for name in ("--rocprofv3", "--roctx-app", "--legacy-app", "--proto", "--workdir"):
        parser.add_argument(name, required=True)
    parser.add_argument("case", choices=sorted(CASES))
    ARGS = parser.parse_args()
    tmp = os.path.join(ARGS.workdir, ARGS.case)
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    try:
        CASES[ARGS.case](tmp)
    except AssertionError as error:
        print("FAIL %s: %s" % (ARGS.case, error))
        return 1
    print("ok   " + ARGS.case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
