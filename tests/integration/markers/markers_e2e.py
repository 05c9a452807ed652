#!/usr/bin/env python3
"""End-to-end marker tests: run a sample program under the real rocprofv3 and check its outputs
with readers we did not write: python's csv, json and sqlite3 modules. Without the CLI (or a
sample program) a case fails: it never falls back to setting the tool's environment by hand,
which would test a copy of the CLI's hand-off instead of the CLI.

Usage: markers_e2e.py --build-dir DIR --case NAME [--work-dir DIR]
Exit status 0 = pass, anything else = failure.
"""
import argparse
import collections
import csv
import glob
import json
import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys

class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class Runner:
    """Runs an application under the profiler; outputs land in <work>/out/<name>_*."""

    def __init__(self, build, work, memory_limit_mib=256):
        self.build = build
        self.memory_limit_mib = memory_limit_mib
        self.work = work
        self.cli = os.path.join(build, "bin", "rocprofv3")
        self.kokkosp = os.path.join(build, "lib", "rocprofiler-sdk",
                                    "librocprofiler-sdk-tool-kokkosp.so")
        check(os.access(self.cli, os.X_OK), "rocprofv3 missing: " + self.cli)

    def run(self, app_args, name="run", formats=("csv", "json", "rocpd"), options=(),
            kokkos=False, selected_regions=False, expect_ok=True, timeout=600, app_env=None):
        """options: extra rocprofv3 options; app_env: variables for the application (tool
        variables that have no CLI option)."""
        out = os.path.join(self.work, "out")
        os.makedirs(out, exist_ok=True)
        env = dict(os.environ)
        cmd = [self.cli, "--kokkos-trace" if kokkos else "--marker-trace",
               "--output-format", *formats, "-d", out, "-o", name, *options]
        if selected_regions:
            cmd.append("--selected-regions")
        cmd += ["--", *app_args]
        env.update(app_env or {})
        print("running: {}".format(" ".join(cmd)), flush=True)
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
        sys.stdout.write(proc.stdout[-4000:])
        sys.stderr.write(proc.stderr[-4000:])
        if expect_ok:
            check(proc.returncode == 0, "exit status {}".format(proc.returncode))
        return proc, os.path.join(out, name)


# ---------------------------------------------------------------------------------------------
# Readers

MARKER_COLUMNS = ["Domain", "Function", "Process_Id", "Thread_Id", "Correlation_Id",
                  "Start_Timestamp", "End_Timestamp"]


def read_marker_csv(prefix):
    path = prefix + "_marker_api_trace.csv"
    check(os.path.exists(path), "missing " + path)
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        check(reader.fieldnames == MARKER_COLUMNS,
              "marker CSV header is {}".format(reader.fieldnames))
        rows = list(reader)
    for row in rows:
        for col in ("Process_Id", "Thread_Id", "Correlation_Id", "Start_Timestamp",
                    "End_Timestamp"):
            row[col] = int(row[col])
        check(row["End_Timestamp"] >= row["Start_Timestamp"], "end before start: {}".format(row))
    return rows


def range_rows(rows):
    return [r for r in rows if r["Domain"] == "MARKER_CORE_RANGE_API"]


def read_json(prefix):
    path = prefix + "_results.json"
    check(os.path.exists(path), "missing " + path)
    with open(path) as f:
        doc = json.load(f)
    check("rocprofiler-sdk-tool" in doc, "JSON lacks the rocprofiler-sdk-tool key")
    return doc["rocprofiler-sdk-tool"][0]


def read_rocpd(prefix):
    path = prefix + "_results.db"
    check(os.path.exists(path), "missing " + path)
    db = sqlite3.connect(path)
    threads = {tid: name for tid, name in db.execute("SELECT tid, name FROM rocpd_info_thread")}
    messages = collections.Counter()
    for (message,) in db.execute(
            "SELECT json_extract(e.extdata, '$.message') FROM rocpd_region r "
            "JOIN rocpd_event e ON r.event_id = e.id"):
        messages[message] += 1
    db.close()
    return threads, messages


def app_tids(stdout):
    """'worker <k> tid <tid>' and 'main tid <tid>' lines printed by roctx_app."""
    tids = {}
    for line in stdout.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[0] == "worker" and parts[2] == "tid":
            tids["worker-" + parts[1]] = int(parts[3])
        elif len(parts) == 3 and parts[0] == "main" and parts[1] == "tid":
            tids["main"] = int(parts[2])
    return tids


def check_counts(counter, expected, where):
    for name, count in expected.items():
        check(counter.get(name, 0) == count,
              "{}: '{}' appears {} times, expected {}".format(where, name, counter.get(name, 0),
                                                             count))


def check_nesting(rows, outer, inner):
    """Every `inner` range lies inside an `outer` range of the same thread."""
    by_tid = collections.defaultdict(list)
    for r in rows:
        if r["Function"] in (outer, inner):
            by_tid[r["Thread_Id"]].append(r)
    for tid, items in by_tid.items():
        outers = sorted((r["Start_Timestamp"], r["End_Timestamp"]) for r in items
                        if r["Function"] == outer)
        for r in items:
            if r["Function"] != inner:
                continue
            check(any(s <= r["Start_Timestamp"] and r["End_Timestamp"] <= e for s, e in outers),
                  "'{}' on thread {} not nested in '{}'".format(inner, tid, outer))


# ---------------------------------------------------------------------------------------------
# Cases

def case_roctx(runner, selected_regions=False):
    threads, iterations = 4, 50
    app = os.path.join(runner.build, "bin", "roctx_app")
    proc, prefix = runner.run([app, str(threads), str(iterations)],
                              name="sel" if selected_regions else "roctx",
                              selected_regions=selected_regions)
    tids = app_tids(proc.stdout)
    check(len(tids) == threads + 1, "app printed {} thread ids".format(len(tids)))

    rows = read_marker_csv(prefix)
    ranges = range_rows(rows)
    counts = collections.Counter(r["Function"] for r in ranges)
    expected = {"outer": threads * iterations, "inner": threads * iterations,
                "worker-done": threads, "process-range": 1, "start": 1, "end": 1,
                "while-paused": 0, "while-paused-mark": 0,
                "before-resume": 0 if selected_regions else 1}
    check_counts(counts, expected, "marker CSV")
    check(sum(counts.values()) == sum(expected.values()),
          "unexpected marker rows: {}".format(counts))

    # Thread ids: each worker recorded its own ranges.
    for k in range(threads):
        tid = tids["worker-%d" % k]
        mine = collections.Counter(r["Function"] for r in ranges if r["Thread_Id"] == tid)
        check(mine["outer"] == iterations and mine["inner"] == iterations,
              "worker-{} (tid {}) has {}".format(k, tid, dict(mine)))
    check(all(r["Process_Id"] == ranges[0]["Process_Id"] for r in ranges), "several pids")
    check_nesting(ranges, "outer", "inner")

    marks = [r for r in ranges if r["Function"] in ("worker-done", "start", "end",
                                                    "before-resume")]
    check(all(r["Start_Timestamp"] == r["End_Timestamp"] for r in marks), "a mark has a duration")

    # The process range was started on main and stopped on worker 0.
    (process,) = [r for r in ranges if r["Function"] == "process-range"]
    check(process["Thread_Id"] in (tids["main"], tids["worker-0"]),
          "process range on thread {}".format(process["Thread_Id"]))
    start_mark = [r for r in ranges if r["Function"] == "start"][0]
    first_outer_w0 = min(r["Start_Timestamp"] for r in ranges
                         if r["Function"] == "outer" and r["Thread_Id"] == tids["worker-0"])
    check(process["Start_Timestamp"] <= start_mark["Start_Timestamp"] and
          process["End_Timestamp"] <= first_outer_w0,
          "process range does not end on worker 0 before its ranges")

    corr = [r["Correlation_Id"] for r in ranges]
    check(len(set(corr)) == len(corr), "correlation ids are not unique")

    control = collections.Counter(r["Function"] for r in rows if r["Domain"] == "MARKER_CONTROL_API")
    check(control.get("roctxProfilerPause", 0) >= 1, "no pause record: {}".format(control))

    # JSON: the same marker records and messages.
    doc = read_json(prefix)
    marker_records = doc["buffer_records"]["marker_api"]
    check(len(marker_records) == len(rows),
          "JSON has {} marker records, CSV {}".format(len(marker_records), len(rows)))
    json_tids = collections.Counter(r["thread_id"] for r in marker_records)
    csv_tids = collections.Counter(r["Thread_Id"] for r in rows)
    check(json_tids == csv_tids, "JSON and CSV disagree per thread: {} vs {}".format(
        dict(json_tids), dict(csv_tids)))
    for k in range(threads):
        check(json_tids[tids["worker-%d" % k]] >= 2 * iterations + 1,
              "JSON records of worker-%d: %d" % (k, json_tids[tids["worker-%d" % k]]))

    # rocpd: thread names and messages.
    names, messages = read_rocpd(prefix)
    for label, tid in tids.items():
        check(names.get(tid) == label,
              "rocpd thread {} is named {!r}, expected {!r}".format(tid, names.get(tid), label))
    check_counts(messages, {"outer": threads * iterations, "inner": threads * iterations,
                            "process-range": 1}, "rocpd regions")


def case_selected_regions(runner):
    case_roctx(runner, selected_regions=True)


def case_lossless(runner):
    threads, pairs = 8, 100000
    app = os.path.join(runner.build, "bin", "roctx_app")
    proc, prefix = runner.run([app, str(threads), str(pairs), "flat"], name="lossless",
                              formats=("csv",))
    check("dropped" not in proc.stderr, "records were dropped")
    # Bounded memory: 800 000 records are ~70 MB in the trace model; the profiled process must
    # stay far below holding several copies of them.
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print("peak RSS of the profiled process: {:.0f} MiB".format(peak_mib))
    check(peak_mib < runner.memory_limit_mib,
          "profiled process peaked at {:.0f} MiB (limit {} MiB)".format(peak_mib,
                                                                     runner.memory_limit_mib))
    tids = app_tids(proc.stdout)
    rows = range_rows(read_marker_csv(prefix))
    check(len(rows) == threads * pairs, "{} rows, expected {}".format(len(rows), threads * pairs))
    per_tid = collections.Counter(r["Thread_Id"] for r in rows)
    for k in range(threads):
        check(per_tid[tids["worker-%d" % k]] == pairs,
              "worker-%d has %d rows" % (k, per_tid[tids["worker-%d" % k]]))
    check(all(r["Function"] == "pair" for r in rows), "unexpected message")
    leftovers = glob.glob(os.path.join(os.path.dirname(prefix), ".rocprofv3-spool-*"))
    check(not leftovers, "spill files left: {}".format(leftovers))


def sample_app(runner, name):
    """A sample program; CMake registers a case only when its program is built."""
    app = os.path.join(runner.build, "bin", name)
    check(os.path.exists(app), name + " not built")
    return app


def case_nvtx(runner):
    app = sample_app(runner, "nvtx_app")
    n = 20
    proc, prefix = runner.run([app, str(n)], name="nvtx")
    rows = range_rows(read_marker_csv(prefix))
    counts = collections.Counter(r["Function"] for r in rows)
    check_counts(counts, {"outer": n, "inner": n, "ex-push": 1, "registered-range": 1,
                          "mark-a": 1, "ex-mark": 1, "domain-mark": 1, "process-range": 1,
                          "domain-range": 1}, "NVTX marker CSV")
    check(sum(counts.values()) == 2 * n + 7, "unexpected NVTX rows: {}".format(counts))
    check_nesting(rows, "outer", "inner")
    names, messages = read_rocpd(prefix)
    check("nvtx-main" in names.values() and "nvtx-worker" in names.values(),
          "NVTX thread names missing: {}".format(sorted(set(names.values()))))
    main_tid = [t for t, name in names.items() if name == "nvtx-main"][0]
    outer_tids = {r["Thread_Id"] for r in rows if r["Function"] == "outer"}
    check(outer_tids == {main_tid}, "outer ranges on {} not main {}".format(outer_tids, main_tid))
    check(messages["registered-range"] == 1, "registered string not resolved in rocpd")


def case_kokkos(runner):
    app = sample_app(runner, "kokkos_app")
    check(os.path.exists(runner.kokkosp), "Kokkos connector missing: " + runner.kokkosp)
    n = 3
    proc, prefix = runner.run([app, str(n)], name="kokkos", kokkos=True)
    check("KokkosP: rocprofv3 Connector" in proc.stdout, "connector banner missing")
    rows = range_rows(read_marker_csv(prefix))
    counts = collections.Counter(r["Function"] for r in rows)
    check_counts(counts, {"iteration": n, "axpy": n, "dot": n, "prefix": n, "section-a": 1,
                          "checkpoint": 1, "Kokkos::Initialization Complete": 1,
                          "Kokkos::Finalization Complete": 1}, "Kokkos marker CSV")
    for kernel in ("axpy", "dot", "prefix"):
        check_nesting(rows, "iteration", kernel)


def crash_case(runner, mode):
    app = os.path.join(runner.build, "bin", "crash_app")
    pairs = 500
    proc, prefix = runner.run([app, mode, str(pairs)], name="crash-" + mode, formats=("csv", "json"),
                              expect_ok=False)
    if mode == "handler":
        check("crash_app handler ran" in proc.stderr, "the application's handler did not run")
        check(proc.returncode == 3, "exit status {}, expected 3".format(proc.returncode))
    else:
        sig = {"sigterm": signal.SIGTERM, "sigint": signal.SIGINT, "sigquit": signal.SIGQUIT,
               "sighup": signal.SIGHUP, "abort": signal.SIGABRT}[mode]
        check(proc.returncode in (-sig, 128 + sig),
              "exit status {}, expected death by {}".format(proc.returncode, sig.name))
    rows = range_rows(read_marker_csv(prefix))
    counts = collections.Counter(r["Function"] for r in rows)
    check_counts(counts, {"crash-pair": pairs, "before-crash": 1}, "crash CSV")
    doc = read_json(prefix)
    check(len(doc["buffer_records"]["marker_api"]) == pairs + 1, "JSON incomplete")


def case_exit_while_running(runner):
    """main returns while two threads keep recording: outputs are complete for main, the
    recording threads' rows are well-formed, and the process exits normally."""
    app = os.path.join(runner.build, "bin", "crash_app")
    pairs = 200
    proc, prefix = runner.run([app, "exit-while-running", str(pairs)], name="busy",
                              formats=("csv", "json"), timeout=120)
    rows = range_rows(read_marker_csv(prefix))
    counts = collections.Counter(r["Function"] for r in rows)
    check_counts(counts, {"crash-pair": pairs, "before-crash": 1}, "busy CSV")
    check(counts["busy-pair"] >= 2, "the busy threads' records are missing")
    busy_tids = {r["Thread_Id"] for r in rows if r["Function"] == "busy-pair"}
    check(len(busy_tids) == 2, "busy-pair rows on {} threads".format(len(busy_tids)))
    doc = read_json(prefix)
    check(len(doc["buffer_records"]["marker_api"]) == len(read_marker_csv(prefix)),
          "JSON and CSV disagree")


def case_exec_child(runner):
    """A child the application forks and execs inherits the environment and is profiled as a
    process of its own (the shell itself records nothing, so it writes nothing)."""
    app = os.path.join(runner.build, "bin", "roctx_app")
    proc, prefix = runner.run(["/bin/sh", "-c", "'{}' 2 10; true".format(app)],
                              name="exec_%pid%", formats=("csv",))
    tids = app_tids(proc.stdout)
    files = glob.glob(os.path.join(os.path.dirname(prefix), "exec_*_marker_api_trace.csv"))
    check(len(files) == 1, "expected the child's outputs only, found {}".format(files))
    rows = range_rows(read_marker_csv(files[0][:-len("_marker_api_trace.csv")]))
    counts = collections.Counter(r["Function"] for r in rows)
    check_counts(counts, {"outer": 20, "inner": 20, "worker-done": 2}, "exec'ed child CSV")
    check({r["Process_Id"] for r in rows} == {tids["main"]}, "rows of another process")


def case_fork(runner):
    """A forked child starts clean and writes its own outputs under its own pid."""
    app = os.path.join(runner.build, "bin", "crash_app")
    pairs = 300
    proc, prefix = runner.run([app, "fork", str(pairs)], name="fork_%pid%", formats=("csv",))
    pids = {}
    for line in proc.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] == "pid":
            pids[parts[0]] = int(parts[2])
    check(set(pids) == {"parent", "child"}, "app printed {}".format(pids))
    out = os.path.dirname(prefix)
    parent = range_rows(read_marker_csv(os.path.join(out, "fork_%d" % pids["parent"])))
    child = range_rows(read_marker_csv(os.path.join(out, "fork_%d" % pids["child"])))
    check_counts(collections.Counter(r["Function"] for r in parent),
                 {"crash-pair": pairs, "before-crash": 1, "parent-after-fork": 1,
                  "child-pair": 0}, "parent CSV")
    check_counts(collections.Counter(r["Function"] for r in child),
                 {"child-pair": pairs, "crash-pair": 0, "before-crash": 0}, "child CSV")
    check({r["Process_Id"] for r in child} == {pids["child"]}, "child rows carry another pid")


def case_no_signal_handlers(runner):
    """--disable-signal-handlers: the signal kills the app before any output is written."""
    app = os.path.join(runner.build, "bin", "crash_app")
    proc, prefix = runner.run([app, "sigterm", "10"], name="nohandlers", formats=("csv",),
                              options=("--disable-signal-handlers",), expect_ok=False)
    check(proc.returncode in (-signal.SIGTERM, 128 + signal.SIGTERM),
          "exit status {}".format(proc.returncode))
    check(not os.path.exists(prefix + "_marker_api_trace.csv"), "outputs written anyway")


def case_collection_period(runner):
    """A collection period that starts in an hour: nothing is collected, nothing is written."""
    app = sample_app(runner, "nvtx_app")
    proc, prefix = runner.run([app, "5"], name="period", formats=("csv",),
                              options=("--collection-period", "3600:1:1",
                                       "--collection-period-unit", "sec"))
    check(not os.path.exists(prefix + "_marker_api_trace.csv"),
          "records collected outside the collection period")


def read_period_log(path):
    """Sections of `label:begin:end` lines separated by `--` (rocprofv3's test format)."""
    check(os.path.exists(path), "missing " + path)
    sections = []
    with open(path) as f:
        for block in f.read().split("--"):
            lines = [l for l in block.strip().splitlines() if l.strip()]
            if not lines:
                continue
            section = {}
            for line in lines:
                label, begin, end = line.split(":")
                section[label] = (int(begin), int(end))
            sections.append(section)
    return sections


def case_collection_period_log(runner):
    """--collection-period 0.1:0.15:2 sec on a program that records a pair every 200 us for 0.7 s:
    ROCPROF_COLLECTION_PERIOD_TESTING=1 writes <prefix>_collection_periods.log with two
    repetitions (delay, start, duration, stop), and every recorded range starts inside a
    start..stop window (1 ms margin for the context switch) and none inside a delay."""
    app = os.path.join(runner.build, "bin", "roctx_app")
    _, prefix = runner.run([app, "1", "700", "timed"], name="period_log", formats=("csv",),
                           options=("--collection-period", "0.1:0.15:2",
                                    "--collection-period-unit", "sec"),
                           app_env={"ROCPROF_COLLECTION_PERIOD_TESTING": "1"})
    sections = read_period_log(prefix + "_collection_periods.log")
    check(len(sections) == 2, "{} sections in the periods log, want 2".format(len(sections)))
    for s in sections:
        check(set(s) == {"delay", "start", "duration", "stop"}, "labels {}".format(sorted(s)))
        check(s["delay"][0] <= s["delay"][1] <= s["start"][0] <= s["start"][1] <=
              s["stop"][0] <= s["stop"][1], "windows out of order: {}".format(s))
        delay_ms = (s["delay"][1] - s["delay"][0]) / 1e6
        duration_ms = (s["duration"][1] - s["duration"][0]) / 1e6
        check(delay_ms >= 100 and duration_ms >= 150,
              "delay {:.1f} ms, duration {:.1f} ms".format(delay_ms, duration_ms))
    rows = [r for r in range_rows(read_marker_csv(prefix)) if r["Function"] == "timed-pair"]
    check(len(rows) > 0, "no range recorded")
    margin = 1000000
    per_window = [0, 0]
    for r in rows:
        start = int(r["Start_Timestamp"])
        inside = [i for i, s in enumerate(sections)
                  if s["start"][0] - margin <= start <= s["stop"][1] + margin]
        check(len(inside) == 1, "range starting at {} is in no collection window".format(start))
        per_window[inside[0]] += 1
        check(not any(s["delay"][0] + margin < start < s["delay"][1] - margin for s in sections),
              "range starting at {} lies in a delay".format(start))
    check(min(per_window) > 0, "ranges per window: {}".format(per_window))


def case_minimum_output(runner):
    """--minimum-output-data: below the threshold no file is written, above it files are."""
    app = sample_app(runner, "nvtx_app")
    _, big = runner.run([app, "20"], name="big_threshold", formats=("csv",),
                        options=("--minimum-output-data", "1024"))
    check(not os.path.exists(big + "_marker_api_trace.csv"), "written below the threshold")
    _, small = runner.run([app, "20"], name="small_threshold", formats=("csv",),
                          options=("--minimum-output-data", "1"))
    check(len(range_rows(read_marker_csv(small))) == 2 * 20 + 7, "incomplete above the threshold")


CASES = {
    "collection_period": case_collection_period,
    "collection_period_log": case_collection_period_log,
    "minimum_output": case_minimum_output,
    "fork": case_fork,
    "exec_child": case_exec_child,
    "no_signal_handlers": case_no_signal_handlers,
    "roctx": case_roctx,
    "selected_regions": case_selected_regions,
    "lossless": case_lossless,
    "nvtx": case_nvtx,
    "kokkos": case_kokkos,
    "crash_sigterm": lambda r: crash_case(r, "sigterm"),
    "crash_abort": lambda r: crash_case(r, "abort"),
    "crash_sigint": lambda r: crash_case(r, "sigint"),
    "crash_sigquit": lambda r: crash_case(r, "sigquit"),
    "crash_sighup": lambda r: crash_case(r, "sighup"),
    "exit_while_running": case_exit_while_running,
    "crash_handler": lambda r: crash_case(r, "handler"),
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    parser.add_argument("--work-dir")
    parser.add_argument("--memory-limit-mib", type=int, default=256,
                        help="peak RSS allowed in the lossless case (sanitizers need more)")
    args = parser.parse_args()
    work = os.path.abspath(
        args.work_dir or os.path.join(args.build_dir, "tests-work", "markers", args.case))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    try:
        CASES[args.case](Runner(os.path.abspath(args.build_dir), work, args.memory_limit_mib))
    except Failure as failure:
        print("FAIL: {}".format(failure))
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
