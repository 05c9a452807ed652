#!/usr/bin/env python3
"""End-to-end robustness tests: the real rocprofv3 on applications that die, are interrupted,
fork, share output names, or find links planted at their output names. Outputs are read back
with readers we did not write: python's csv, json and sqlite3 modules, protoc --decode, otf2-print.

Usage: robustness_e2e.py --build-dir DIR --case NAME --proto PERFETTO_PROTO
Exit status 0 = pass, anything else = failure.
"""
import argparse
import collections
import csv
import glob
import json
import os
import pty
import re
import resource
import select
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

ALL_FORMATS = ("csv", "json", "rocpd", "pftrace", "otf2")


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)
    print("ok   " + message, flush=True)


# ---------------------------------------------------------------------------------------------
# Readers: how many ranges of each message each format holds.

def csv_counts(prefix):
    with open(prefix + "_marker_api_trace.csv", newline="") as f:
        return collections.Counter(r["Function"] for r in csv.DictReader(f))


def json_counts(prefix):
    with open(prefix + "_results.json") as f:
        doc = json.load(f)["rocprofiler-sdk-tool"][0]
    return collections.Counter(e["value"] for e in doc["strings"]["marker_api"])


def rocpd_counts(prefix):
    db = sqlite3.connect(prefix + "_results.db")
    try:
        return collections.Counter(m for (m,) in db.execute(
            "SELECT json_extract(e.extdata, '$.message') FROM rocpd_region r "
            "JOIN rocpd_event e ON r.event_id = e.id"))
    finally:
        db.close()


def perfetto_counts(prefix, proto):
    with open(prefix + "_results.pftrace", "rb") as f:
        d = subprocess.run(["protoc", "--proto_path=" + os.path.dirname(proto),
                            "--decode=perfetto.protos.Trace", os.path.basename(proto)],
                           stdin=f, capture_output=True, text=True, timeout=600)
    check(d.returncode == 0, "protoc decodes " + prefix + "_results.pftrace")
    names, counts = {}, collections.Counter()
    for packet in d.stdout.split("\npacket {")[1:]:
        seq = re.search(r"trusted_packet_sequence_id: (\d+)", packet)
        seq = seq.group(1) if seq else "0"
        for iid, name in re.findall(r'event_names \{\s*iid: (\d+)\s*name: "([^"]*)"', packet):
            names[(seq, iid)] = name
        for iid in re.findall(r"type: TYPE_SLICE_BEGIN\s*name_iid: (\d+)", packet):
            counts[names.get((seq, iid), "?")] += 1
    return counts


def otf2_counts(prefix):
    d = subprocess.run(["otf2-print", prefix + "_results.otf2"], capture_output=True, text=True,
                       timeout=600)
    check(d.returncode == 0, "otf2-print reads " + prefix + "_results.otf2")
    return collections.Counter(m for m in re.findall(r'^ENTER .*Region: "([^"]*)"', d.stdout,
                                                     re.MULTILINE))


def counts_in(fmt, prefix, proto):
    return {"csv": csv_counts, "json": json_counts, "rocpd": rocpd_counts,
            "pftrace": lambda p: perfetto_counts(p, proto), "otf2": otf2_counts}[fmt](prefix)


def leftovers(directory):
    found = []
    for pattern in (".rocprofv3-journal-*", ".rocprofv3-spool-*", ".*.partial", ".*.partial.*",
                    "*.partial*"):
        found += glob.glob(os.path.join(directory, "**", pattern), recursive=True)
    return sorted(set(found))


# ---------------------------------------------------------------------------------------------
# Running rocprofv3

class Run:
    def __init__(self, args, work):
        self.build, self.work = os.path.abspath(args.build_dir), work
        self.proto = os.path.abspath(args.proto)
        self.cli = os.path.join(self.build, "bin", "rocprofv3")
        self.out = os.path.join(work, "out")
        check(os.access(self.cli, os.X_OK), "rocprofv3 is built")

    def app(self, name):
        path = os.path.join(self.build, "bin", name)
        check(os.access(path, os.X_OK), name + " is built")
        return path

    def command(self, app_args, name, formats=ALL_FORMATS, options=()):
        return [self.cli, "--marker-trace", "--output-format", *formats, "-d", self.out, "-o",
                name, *options, "--", *app_args]


def read_until(stream, word, timeout=300):
    """Lines of `stream` until one starting with `word`; returns (that line's number, lines)."""
    deadline = time.time() + timeout
    lines = []
    while time.time() < deadline:
        line = stream.readline()
        if not line:
            break
        lines.append(line)
        if line.startswith(word):
            return int(line.split()[1]), lines
    raise Failure("no '{}' line from the application: {}".format(word, lines))


def checkpoint_run(run, mode, pairs, name, formats=ALL_FORMATS, act=None, preexec=None,
                   app_prefix=()):
    """Starts crash_app <mode> under rocprofv3, waits for its checkpoint, calls act(app_pid),
    waits for the end. Returns (returncode, stderr, records made before the checkpoint)."""
    cmd = run.command([*app_prefix, run.app("crash_app"), mode, str(pairs)], name, formats)
    print("running: " + " ".join(cmd), flush=True)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=run.work, preexec_fn=preexec)
    app_pid, _ = read_until(proc.stdout, "pid")
    made, _ = read_until(proc.stdout, "checkpoint")
    if act:
        act(app_pid)
    out, err = proc.communicate(timeout=600)
    sys.stdout.write(out[-2000:])
    sys.stderr.write(err[-4000:])
    return proc.returncode, err, made, proc.pid


def check_recovered(run, prefix, made, formats, goal=0.99):
    for fmt in formats:
        got = counts_in(fmt, prefix, run.proto).get("pre-kill", 0)
        fraction = got / made
        print("{}: {} of {} records made before the checkpoint ({:.2%})".format(
            fmt, got, made, fraction), flush=True)
        check(got <= made and fraction >= goal,
              "{}: at least {:.0%} of the records made before the checkpoint".format(fmt, goal))


def check_clean(run, launcher_pid):
    check(not leftovers(run.out), "no journal, spill or partial file left: {}".format(
        leftovers(run.out)))
    tmp = os.environ.get("TMPDIR", "/tmp")
    check(not glob.glob(os.path.join(tmp, "rocprofv3-{}-*".format(launcher_pid))),
          "the recovery registry is removed")


# ---------------------------------------------------------------------------------------------
# Cases: the target dies

def case_sigkill(run):
    """SIGKILL 200 ms after the checkpoint while 4 threads keep recording: the launcher writes
    every format from the journal."""
    status, err, made, launcher = checkpoint_run(
        run, "kill", 20000, "killed",
        act=lambda pid: (time.sleep(0.2), os.kill(pid, signal.SIGKILL)))
    check(status == 128 + signal.SIGKILL, "exit status is SIGKILL's ({})".format(status))
    check("killed by signal 9 (SIGKILL)" in err and "recovered" in err,
          "rocprofv3 says how the target ended and that outputs were recovered")
    check_recovered(run, os.path.join(run.out, "killed"), made, ALL_FORMATS)
    check_clean(run, launcher)


def case_sigsegv(run):
    """A real fault 200 ms after the checkpoint: status 139, core dump not suppressed, every
    record flushed into the journal by the fault handler."""
    def unlimited_core():
        resource.setrlimit(resource.RLIMIT_CORE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    for core in glob.glob(os.path.join(run.work, "core*")):
        os.remove(core)
    status, err, made, launcher = checkpoint_run(run, "segv", 5000, "segv", preexec=unlimited_core)
    check(status == 139, "exit status 139 ({})".format(status))
    with open("/proc/sys/kernel/core_pattern") as f:
        pattern = f.read().strip()
    if not pattern.startswith("|"):
        check("core dumped" in err, "the core dump is not suppressed (rocprofv3 reports it)")
        cores = glob.glob(os.path.join(run.work, "core*"))
        check(cores, "a core file was written ({})".format(pattern))
        for core in cores:
            os.remove(core)
    check_recovered(run, os.path.join(run.out, "segv"), made, ALL_FORMATS, goal=1.0)
    check_clean(run, launcher)


def case_oom(run):
    """`prlimit --as`: the application runs out of address space and aborts on std::bad_alloc;
    whatever the tool manages in that state, the launcher completes the outputs."""
    prlimit = shutil.which("prlimit")
    check(prlimit is not None, "prlimit is installed (util-linux)")
    status, err, made, launcher = checkpoint_run(
        run, "oom", 5000, "oom", app_prefix=(prlimit, "--as={}".format(768 << 20)))
    check(status == 128 + signal.SIGABRT, "exit status is SIGABRT's ({})".format(status))
    check_recovered(run, os.path.join(run.out, "oom"), made, ALL_FORMATS, goal=1.0)
    check_clean(run, launcher)


def case_exit(run):
    """_exit(0) 200 ms after the checkpoint: no atexit handler runs, status 0 stays."""
    status, err, made, launcher = checkpoint_run(run, "_exit", 5000, "exit")
    check(status == 0, "exit status 0 ({})".format(status))
    check("exited with status 0 before writing its outputs" in err, "rocprofv3 says so")
    check_recovered(run, os.path.join(run.out, "exit"), made, ALL_FORMATS, goal=1.0)
    check_clean(run, launcher)


# ---------------------------------------------------------------------------------------------
# Cases: signals while the outputs are written (a real terminal: Ctrl-C reaches the whole
# foreground process group, rocprofv3 and the application alike)

def pty_run(cmd, presses, gap):
    """Runs cmd on a new terminal; after the checkpoint, types Ctrl-C `presses` times `gap`
    seconds apart. Returns (returncode, output, records made, seconds from first Ctrl-C)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(cmd[0], cmd)
    output = b""
    made = None
    deadline = time.time() + 600
    while made is None and time.time() < deadline:
        ready, _, _ = select.select([fd], [], [], 1)
        if ready:
            try:
                output += os.read(fd, 65536)
            except OSError:
                break
            m = re.search(rb"checkpoint (\d+)", output)
            made = int(m.group(1)) if m else None
    check(made is not None, "the application reached its checkpoint")
    first = time.time()
    for i in range(presses):
        if i:
            time.sleep(gap)
        os.write(fd, b"\x03")
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    _, status = os.waitpid(pid, 0)
    elapsed = time.time() - first
    text = output.decode(errors="replace")
    print(text[-3000:])
    return os.waitstatus_to_exitcode(status), text, made, elapsed


def case_double_signal(run):
    """Ctrl-C twice (0.3 s apart) while the outputs are written: writing completes, then the
    process ends by SIGINT; every format holds every record."""
    cmd = run.command([run.app("crash_app"), "wait", "100000"], "double", ("csv", "json", "rocpd"))
    status, text, made, elapsed = pty_run(cmd, 2, 0.3)
    print("{:.2f} s from the first Ctrl-C to the end".format(elapsed))
    check(status == 128 + signal.SIGINT, "rocprofv3 ends with SIGINT's status ({})".format(status))
    prefix = os.path.join(run.out, "double")
    for fmt in ("csv", "json", "rocpd"):
        check(counts_in(fmt, prefix, run.proto).get("pre-kill", 0) == made,
              "{}: complete ({} records)".format(fmt, made))
    check(not leftovers(run.out), "no partial or journal file left")


def case_triple_signal(run):
    """Ctrl-C three times within a second while the outputs are written: the process stops at
    once, says so, and every output is complete or absent."""
    cmd = run.command([run.app("crash_app"), "wait", "100000"], "triple", ALL_FORMATS)
    status, text, made, elapsed = pty_run(cmd, 3, 0.1)
    print("{:.2f} s from the first Ctrl-C to the end".format(elapsed))
    check(status == 128 + signal.SIGINT, "rocprofv3 ends with SIGINT's status ({})".format(status))
    check("stopped at once" in text, "the forced stop is reported")
    prefix = os.path.join(run.out, "triple")
    present = {"csv": "_marker_api_trace.csv", "json": "_results.json", "rocpd": "_results.db",
               "pftrace": "_results.pftrace", "otf2": "_results.otf2"}
    for fmt, suffix in present.items():
        if os.path.exists(prefix + suffix):
            check(counts_in(fmt, prefix, run.proto).get("pre-kill", 0) == made,
                  "{}: present, therefore complete".format(fmt))
        else:
            print("{}: absent".format(fmt))
    check(not leftovers(run.out), "no partial or journal file left: {}".format(leftovers(run.out)))


# ---------------------------------------------------------------------------------------------
# Cases: fork, shared names, planted links

def case_fork_stress(run):
    """4 threads making markers fork 50 times each (200 forks), with and without the profiler:
    no child may hang."""
    app = run.app("fork_app")
    plain = subprocess.run([app, "4", "50"], capture_output=True, text=True, timeout=900,
                           env=dict(os.environ, LD_PRELOAD=""))
    print(plain.stdout, plain.stderr[-2000:])
    check(plain.returncode == 0 and "hangs 0 " in plain.stdout,
          "without the profiler: 200 forks, no hang")
    profiled = subprocess.run(run.command([app, "4", "50"], "fork_%pid%", ("csv",)),
                              capture_output=True, text=True, timeout=1200)
    print(profiled.stdout, profiled.stderr[-2000:])
    check(profiled.returncode == 0 and "forks 200 hangs 0 failures 0" in profiled.stdout,
          "under rocprofv3: 200 forks, no hang, no failure")
    children = glob.glob(os.path.join(run.out, "fork_*_marker_api_trace.csv"))
    check(len(children) >= 200, "every child wrote its outputs ({} files)".format(len(children)))


def marker_sets(directory, stem):
    """{prefix: Counter} of every output set named <stem>*_marker_api_trace.csv."""
    sets = {}
    for path in glob.glob(os.path.join(directory, stem + "*_marker_api_trace.csv")):
        prefix = path[:-len("_marker_api_trace.csv")]
        sets[prefix] = csv_counts(prefix)
    return sets


def case_two_runs(run):
    """Two runs at once with the same -d and -o: both complete, nothing lost, distinct names."""
    app = run.app("crash_app")
    formats = ("csv", "json", "rocpd", "pftrace")
    procs = [subprocess.Popen(run.command([app, "linger", "5000"], "same", formats),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    results = [p.communicate(timeout=600) for p in procs]
    for p, (out, err) in zip(procs, results):
        sys.stderr.write(err[-2000:])
        check(p.returncode == 0, "run {} exit status 0".format(p.pid))
    warned = sum("another process is writing outputs named" in err for _, err in results)
    check(warned == 1, "exactly one run warns that it writes under its own name")
    sets = marker_sets(run.out, "same")
    check(len(sets) == 2, "two output sets: {}".format(sorted(sets)))
    check(os.path.join(run.out, "same") in sets, "one keeps the name 'same'")
    for prefix, counts in sets.items():
        check(counts.get("pre-kill") == 20000, "{}: all 20000 ranges".format(prefix))
        for fmt in ("json", "rocpd", "pftrace"):
            check(counts_in(fmt, prefix, run.proto).get("pre-kill") == 20000,
                  "{} {}: complete".format(prefix, fmt))


def case_fork_same(run):
    """A forking application with -o same: parent and child write complete outputs under
    distinct names (whichever claims the name second writes it with its pid)."""
    proc = subprocess.run(run.command([run.app("crash_app"), "fork", "300"], "same",
                                      ("csv", "json", "rocpd")),
                          capture_output=True, text=True, timeout=600)
    sys.stderr.write(proc.stderr[-2000:])
    check(proc.returncode == 0, "exit status 0")
    pids = dict(line.split(" pid ") for line in proc.stdout.splitlines() if " pid " in line)
    sets = marker_sets(run.out, "same")
    plain = os.path.join(run.out, "same")
    check(len(sets) == 2 and plain in sets, "two output sets, one named 'same': {}".format(
        sorted(sets)))
    other = [p for p in sets if p != plain][0]
    check(other.endswith("-" + pids["parent"]) or other.endswith("-" + pids["child"]),
          "the other one carries its process's pid: " + other)
    parent = [p for p, c in sets.items() if c.get("crash-pair")]
    child = [p for p, c in sets.items() if c.get("child-pair")]
    check(len(parent) == 1 and len(child) == 1 and parent != child,
          "one set is the parent's, the other the child's")
    for fmt in ("csv", "json", "rocpd"):
        got = counts_in(fmt, parent[0], run.proto)
        marks_kept = fmt == "rocpd" or got.get("parent-after-fork") == 1  # rocpd: marks are samples
        check(got.get("crash-pair") == 300 and marks_kept and "child-pair" not in got,
              "the parent's {} is complete".format(fmt))
        got = counts_in(fmt, child[0], run.proto)
        check(got.get("child-pair") == 300 and "crash-pair" not in got,
              "the child's {} is complete".format(fmt))


def case_symlinks(run):
    """Links planted at every output name point at victims: the victims stay untouched and each
    output replaces its link with a file."""
    os.makedirs(run.out, exist_ok=True)
    victims = os.path.join(run.work, "victims")
    os.makedirs(victims, exist_ok=True)
    names = ["_marker_api_trace.csv", "_agent_info.csv", "_results.json", "_results.pftrace",
             "_results.db", "_results.otf2", "_results.def", "_marker_api_stats.csv",
             "_domain_stats.csv", "_config.json", "_summary.txt"] + \
            ["_results.json.part{}".format(i) for i in range(16)]
    planted = {}
    for i, suffix in enumerate(names):
        victim = os.path.join(victims, "victim{}".format(i))
        with open(victim, "w") as f:
            f.write("precious {}\n".format(i))
        os.symlink(victim, os.path.join(run.out, "links" + suffix))
        planted[suffix] = victim
    proc = subprocess.run(run.command([run.app("roctx_app"), "2", "10"], "links", ALL_FORMATS,
                                      ("--stats", "-S", "--summary-output-file", "summary",
                                       "--output-config")),
                          capture_output=True, text=True, timeout=600)
    sys.stderr.write(proc.stderr[-2000:])
    check(proc.returncode == 0, "exit status 0")
    for i, (suffix, victim) in enumerate(planted.items()):
        with open(victim) as f:
            check(f.read() == "precious {}\n".format(i), "victim of {} untouched".format(suffix))
    prefix = os.path.join(run.out, "links")
    for suffix in names[:11]:
        path = prefix + suffix
        check(os.path.isfile(path) and not os.path.islink(path),
              "{} is a file of its own now".format(suffix))
    for fmt in ALL_FORMATS:
        check(counts_in(fmt, prefix, run.proto).get("outer") == 20, "{} is complete".format(fmt))


CASES = {
    "sigkill": case_sigkill,
    "sigsegv": case_sigsegv,
    "oom": case_oom,
    "exit": case_exit,
    "double_signal": case_double_signal,
    "triple_signal": case_triple_signal,
    "fork_stress": case_fork_stress,
    "two_runs": case_two_runs,
    "fork_same": case_fork_same,
    "symlinks": case_symlinks,
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    parser.add_argument("--proto", required=True)
    args = parser.parse_args()
    work = os.path.abspath(os.path.join(args.build_dir, "tests-work", "robustness", args.case))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    try:
        CASES[args.case](Run(args, work))
    except Failure as failure:
        print("FAIL: {}".format(failure))
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
