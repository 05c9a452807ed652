#!/usr/bin/env python3
"""End-to-end checks of the real rocprofv3 binary on env_recorder (tests/apps/env_recorder).

env_recorder writes its argv and environment as JSON into $ROCPROF_OUTPUT_PATH, so each pass's
hand-off is read back with Python's json module. Usage:
    cli_e2e.py --rocprofv3 PATH --recorder PATH [--probes DIR] CASE
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

ARGS = None
CASES = {}


def case(function):
    CASES[function.__name__] = function
    return function


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def run(args, cwd=None, env=None, timeout=60):
    # These cases check the hand-off of made-up counter names (A, B, C) on machines without a
    # GPU: the CLI's counter check (tests/integration/cli/counters_e2e.py) is off here.
    env = dict(os.environ if env is None else env)
    env.setdefault("ROCPROF_COUNTER_CHECK", "0")
    return subprocess.run([ARGS.rocprofv3] + args, cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)


def record(directory):
    path = os.path.join(directory, "env_recorder.json")
    check(os.path.isfile(path), f"no record at {path}")
    with open(path) as handle:
        return json.load(handle)


def tool_library():
    root = os.path.dirname(os.path.dirname(os.path.realpath(ARGS.rocprofv3)))
    return os.path.join(root, "lib", "rocprofiler-sdk", "librocprofiler-sdk-tool.so")


def recorders_under(directory):
    found = []
    for root, _dirs, files in os.walk(directory):
        found += [os.path.join(root, name) for name in files if name.startswith("env_recorder")]
    return found


@case
def single_pass_environment(tmp):
    result = run(["--kernel-trace", "--memory-copy-trace=no", "-d", tmp, "-o", "run_%pid%",
                  "-f", "csv", "json", "--", ARGS.recorder, "first", "second"])
    check(result.returncode == 0, result.stderr)
    data = record(tmp)
    env = data["env"]
    check(data["argv"][1:] == ["first", "second"], data["argv"])
    check(env.get("ROCPROF_KERNEL_TRACE") == "1", env)
    check("ROCPROF_MEMORY_COPY_TRACE" not in env, "a false flag must not be written")
    check(env.get("ROCPROF_OUTPUT_PATH") == tmp, env.get("ROCPROF_OUTPUT_PATH"))
    check(env.get("ROCPROF_OUTPUT_FILE_NAME") == "run_%pid%", env)
    check(env.get("ROCPROF_OUTPUT_FORMAT") == "csv,json", env)
    check(env.get("ROCPROFILER_LIBRARY_CTOR") == "1", env)
    check(env.get("ROCP_TOOL_LIBRARIES") == tool_library(), env.get("ROCP_TOOL_LIBRARIES"))
    check(os.path.isfile(env["LD_PRELOAD"].split(":")[-1]), env["LD_PRELOAD"])


@case
def default_output_directory_is_cwd(tmp):
    env = dict(os.environ)
    env.pop("ROCPROF_OUTPUT_PATH", None)
    result = run(["--kernel-trace", "--", ARGS.recorder], cwd=tmp, env=env)
    check(result.returncode == 0, result.stderr)
    check(record(tmp)["env"]["ROCPROF_OUTPUT_PATH"] == os.path.realpath(tmp), "cwd expected")


@case
def yaml_jobs_are_passes(tmp):
    jobs = os.path.join(tmp, "jobs.yaml")
    with open(jobs, "w") as handle:
        handle.write("jobs:\n  - kernel_trace: true\n  - marker_trace: true\n"
                     "    pmc_groups: [[A, B], [C]]\n    pmc_group_interval: 3\n")
    out = os.path.join(tmp, "out")
    result = run(["-i", jobs, "-d", out, "--", ARGS.recorder])
    check(result.returncode == 0, result.stderr)
    first, second = record(os.path.join(out, "pass_1"))["env"], record(os.path.join(out, "pass_2"))["env"]
    check(first.get("ROCPROF_KERNEL_TRACE") == "1" and "ROCPROF_MARKER_API_TRACE" not in first, first)
    check(first["ROCPROF_OUTPUT_PATH"] == os.path.join(out, "pass_1"), first["ROCPROF_OUTPUT_PATH"])
    check(second.get("ROCPROF_MARKER_API_TRACE") == "1" and "ROCPROF_KERNEL_TRACE" not in second, second)
    check(second.get("NVTX_INJECTION64_PATH") == tool_library(), second)
    check(second.get("ROCPROF_COUNTER_GROUPS") == "pmc: A B\npmc: C", second)
    check(second.get("ROCPROF_COUNTER_GROUPS_INTERVAL") == "3", second)


@case
def txt_lines_are_pmc_passes(tmp):
    counters = os.path.join(tmp, "counters.txt")
    with open(counters, "w") as handle:
        handle.write("# counters\npmc: SQ_WAVES GRBM_COUNT\npmc: SQ_INSTS_VALU\n")
    result = run(["-i", counters, "-d", tmp, "--", ARGS.recorder])
    check(result.returncode == 0, result.stderr)
    check(record(os.path.join(tmp, "pmc_1"))["env"]["ROCPROF_COUNTERS"] == "pmc: SQ_WAVES GRBM_COUNT", "pmc_1")
    check(record(os.path.join(tmp, "pmc_2"))["env"]["ROCPROF_COUNTERS"] == "pmc: SQ_INSTS_VALU", "pmc_2")
    check(record(os.path.join(tmp, "pmc_2"))["env"]["ROCPROF_COUNTER_COLLECTION"] == "1", "collection")


@case
def pmc_flags_are_passes(tmp):
    result = run(["--pmc", "A", "B", "--pmc", "C", "-d", tmp, "--", ARGS.recorder])
    check(result.returncode == 0, result.stderr)
    check(record(os.path.join(tmp, "pass_1"))["env"]["ROCPROF_COUNTERS"] == "pmc: A B", "pass_1")
    check(record(os.path.join(tmp, "pass_2"))["env"]["ROCPROF_COUNTERS"] == "pmc: C", "pass_2")
    single = os.path.join(tmp, "single")
    result = run(["--pmc", "A", "-d", single, "--", ARGS.recorder])
    check(result.returncode == 0, result.stderr)
    check(record(single)["env"]["ROCPROF_COUNTERS"] == "pmc: A", "a single --pmc has no sub-directory")


@case
def ld_preload_order(tmp):
    libs = [os.path.join(ARGS.probes, f"libpreload_probe_{name}.so") for name in "abc"]
    check(all(os.path.isfile(lib) for lib in libs), f"probe libraries missing: {libs}")
    env = dict(os.environ, LD_PRELOAD=libs[2])
    result = run(["--marker-trace", "--preload", libs[0], libs[1], "-d", tmp, "--", ARGS.recorder],
                 env=env)
    check(result.returncode == 0, result.stderr)
    check("cannot be preloaded" not in result.stderr, result.stderr)
    preload = record(tmp)["env"]["LD_PRELOAD"].split(":")
    check(preload[:4] == [libs[0], libs[1], libs[2], tool_library()], preload)
    roctx = os.path.join(os.path.dirname(os.path.dirname(tool_library())), "librocprofiler-sdk-roctx.so")
    check(preload[4:] == ([roctx] if os.path.exists(roctx) else []), preload)


@case
def aggregates_and_backend_warning(tmp):
    result = run(["--sys-trace", "--hsa-trace", "no", "-d", tmp, "--", ARGS.recorder])
    check(result.returncode == 0, result.stderr)
    env = record(tmp)["env"]
    for name in ("ROCPROF_HIP_RUNTIME_API_TRACE", "ROCPROF_HIP_COMPILER_API_TRACE",
                 "ROCPROF_MARKER_API_TRACE", "ROCPROF_KERNEL_TRACE", "ROCPROF_MEMORY_COPY_TRACE",
                 "ROCPROF_CUDA_RUNTIME_API_TRACE", "ROCPROF_CUDA_DRIVER_API_TRACE"):
        check(env.get(name) == "1", name)
    check(not any(name.startswith("ROCPROF_HSA_") for name in env), "HSA must be dropped")
    warnings = [l for l in result.stderr.splitlines() if "no AMD (ROCm) backend" in l]
    check(len(warnings) == 1 and "--hip-runtime-trace" in warnings[0] and "--hsa" not in warnings[0],
          result.stderr)


@case
def kokkos_and_cuda_injection(tmp):
    result = run(["--kokkos-trace", "--cuda-trace", "-d", tmp, "--", ARGS.recorder])
    check(result.returncode == 0, result.stderr)
    env = record(tmp)["env"]
    lib = os.path.dirname(tool_library())
    check(env.get("KOKKOS_TOOLS_LIBS") == os.path.join(lib, "librocprofiler-sdk-tool-kokkosp.so"), env)
    check(env.get("KOKKOS_PROFILE_LIBRARY") == env.get("KOKKOS_TOOLS_LIBS"), env)
    check(env.get("ROCPROF_KOKKOS_TRACE") == "1" and env.get("ROCPROF_KERNEL_RENAME") == "1", env)
    plugin = os.path.join(lib, "librocprofiler-sdk-cuda.so")
    if os.path.exists(plugin):
        check(env.get("CUDA_INJECTION64_PATH") == plugin, env)
    else:
        check("CUDA_INJECTION64_PATH" not in env, env)
        check(result.stderr.count("CUDA backend plugin not found") == 1, result.stderr)


@case
def exit_status_propagates(tmp):
    result = run(["--kernel-trace", "-d", tmp, "--", ARGS.recorder, "--exit", "3"])
    check(result.returncode == 3, f"expected 3, got {result.returncode}")
    result = run(["--pmc", "A", "--pmc", "B", "-d", tmp, "--", ARGS.recorder, "--exit", "5"])
    check(result.returncode == 5, f"multi-pass: expected 5, got {result.returncode}")


@case
def killed_app_gives_128_plus_signal(tmp):
    result = run(["--kernel-trace", "-d", tmp, "--", ARGS.recorder, "--kill-self", "9"])
    check(result.returncode == 137, f"expected 137, got {result.returncode}")


def check_forwarded(tmp, signal_number):
    out = os.path.join(tmp, f"signal_{signal_number}")
    proc = subprocess.Popen([ARGS.rocprofv3, "--kernel-trace", "-d", out, "--", ARGS.recorder,
                             "--sleep", "30", "--report-signals"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    path = os.path.join(out, "env_recorder.json")
    deadline = time.time() + 20
    while not os.path.exists(path) and time.time() < deadline:
        time.sleep(0.05)
    check(os.path.exists(path), "the application did not start")
    proc.send_signal(signal_number)
    _out, err = proc.communicate(timeout=20)
    check(proc.returncode == 128 + signal_number,
          f"signal {signal_number}: expected {128 + signal_number}, got {proc.returncode}: {err}")
    with open(path + ".signals") as handle:
        received = handle.read().strip()
    check(received == f"signal {signal_number}", f"the application got {received!r}")


@case
def sigterm_is_forwarded(tmp):
    check_forwarded(tmp, signal.SIGTERM)


@case
def sigint_sigquit_sighup_are_forwarded(tmp):
    for signal_number in (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP):
        check_forwarded(tmp, signal_number)


@case
def echo_and_log_level(tmp):
    result = run(["--kernel-trace", "--echo", "-d", tmp, "--", ARGS.recorder, "x"])
    check(result.returncode == 0, result.stderr)
    check(f"command: ['{ARGS.recorder}', 'x']" in result.stdout, result.stdout)
    check("ROCPROF_KERNEL_TRACE=1" in result.stdout, result.stdout)
    check(not recorders_under(tmp), "--echo must not launch")
    result = run(["--kernel-trace", "--log-level", "env", "-d", tmp, "--", ARGS.recorder])
    check(result.returncode == 0 and "ROCPROF_KERNEL_TRACE=1" in result.stderr, result.stderr)
    check("ROCPROF_LOG_LEVEL" not in record(tmp)["env"], "env is a CLI-only level")
    result = run(["--kernel-trace", "--log-level", "config", "-d", tmp, "--", ARGS.recorder])
    check("kernel_trace = True" in result.stderr, result.stderr)


@case
def list_avail_and_version(tmp):
    result = run(["--list-avail"])
    check(result.returncode == 0 and "CPU agents:" in result.stdout, result.stdout + result.stderr)
    result = run(["--version"])
    check(result.returncode == 0 and "         version: " in result.stdout, result.stdout)


@case
def errors_launch_nothing(tmp):
    bad_yaml = os.path.join(tmp, "bad.yaml")
    with open(bad_yaml, "w") as handle:
        handle.write("jobs:\n  - kernel_trace: true\n    no_such_key: 1\n")
    conflict = os.path.join(tmp, "conflict.yaml")
    with open(conflict, "w") as handle:
        handle.write("jobs:\n  - output_file: a\n")
    not_exec = os.path.join(tmp, "not_exec")
    with open(not_exec, "w") as handle:
        handle.write("#!/bin/sh\n")
    os.chmod(not_exec, 0o644)
    a_file = os.path.join(tmp, "a_file")
    with open(a_file, "w") as handle:
        handle.write("x")
    out = os.path.join(tmp, "out")
    app = ["--", ARGS.recorder]
    cases = [
        (["--kernel-trace"], "no application"),
        (["--kernel-trace", "--bogus"] + app, "--bogus"),
        (["--kernel-trace", "perhaps"] + app, "perhaps"),
        (["--output-format", "xml", "--kernel-trace"] + app, "xml"),
        (["--kernel-trace", "--kernel-include-regex", "(unclosed"] + app, "regular expression"),
        (["--kernel-trace", "--summary-groups", "*._API"] + app, "regular expression"),
        (["-i", bad_yaml] + app, "no_such_key"),
        (["-i", conflict, "-o", "b"] + app, "conflicting"),
        (["--kernel-trace", "-d", a_file + "/sub"] + [a for a in app], "output directory"),
        (["--kernel-trace", "-d", "/proc/self"] + app, "not writable"),
        (["--kernel-trace", "--", os.path.join(tmp, "missing")], "does not exist"),
        (["--kernel-trace", "--", not_exec], "not executable"),
        (["--pc-sampling-method", "host_trap", "--pc-sampling-beta-enabled"] + app, "PC sampling"),
    ]
    for args, expected in cases:
        if "-d" not in args:
            args = ["-d", out] + args
        result = run(args)
        errors = [l for l in result.stderr.splitlines() if l.startswith("rocprofv3: error: ")]
        check(result.returncode != 0, f"{args}: exit status 0")
        check(len(errors) == 1 and expected in errors[0], f"{args}: {result.stderr!r}")
        check(not recorders_under(tmp), f"{args}: the application was launched")


@case
def parser_bombs_and_bad_values(tmp):
    """Issue 14: each parser bomb and overflowing value is one clean error, exit status 1,
    within a second, and the application never starts."""
    def write(name, text):
        path = os.path.join(tmp, name)
        with open(path, "wb") as handle:
            handle.write(text if isinstance(text, bytes) else text.encode())
        return path

    bomb = "a0: &a0 [lol]\n"
    for level in range(1, 10):
        bomb += f"a{level}: &a{level} [" + ",".join([f"*a{level - 1}"] * 9) + "]\n"
    bomb += "jobs: [{pmc: *a9}]\n"
    out = os.path.join(tmp, "out")
    app = ["--", ARGS.recorder]
    cases = [
        (["-i", write("self.yaml", "a: &a [*a,*a]")], "self.yaml:1: alias refers to a node"),
        (["-i", write("bomb.yaml", bomb)], "bomb.yaml:"),
        (["-i", write("deep.json", "[" * 100000 + "]" * 100000)], "nested deeper than 64"),
        # One argument stays under the kernel's 128 KiB per argument.
        (["--kernel-trace", "--kernel-include-regex", "(" * 60000 + ")" * 60000],
         "argument --kernel-include-regex: invalid regular expression"),
        (["--kernel-trace", "--kernel-include-regex", "(" * 1000 + ")" * 1000], "nested more than"),
        (["--kernel-trace", "--summary-groups", "(a)\\1"], "backreference \\1 is not supported"),
        (["--kernel-trace", "--summary-groups", "(?<=x)y"], "lookbehind"),
        (["--kernel-trace", "-o", "%arg99999999999999999999%"], "argument --output-file"),
        (["--kernel-trace", "--minimum-output-data", "18014398509481984"],
         "argument --minimum-output-data: must be at most"),
        (["--kernel-trace", "-P", "3000000:1:1", "--collection-period-unit", "hour"],
         "argument --collection-period"),
        (["--kernel-trace", "--kernel-iteration-range", "[1-"], "argument --kernel-iteration-range"),
        (["--pmc", "SQ_WAVES", "BAD\udcff"], "not valid UTF-8"),
        (["-i", write("interval.yaml", "jobs:\n  - pmc_groups: [[A]]\n    pmc_group_interval: 0\n")],
         "interval.yaml:3: jobs[0]: key 'pmc_group_interval': must be greater than 0"),
    ]
    for args, expected in cases:
        started = time.monotonic()
        result = subprocess.run([ARGS.rocprofv3, "-d", out] + args + app, capture_output=True,
                                timeout=60, errors="surrogateescape")
        elapsed = time.monotonic() - started
        errors = [l for l in result.stderr.splitlines() if l.startswith("rocprofv3: error: ")]
        shown = args if len(repr(args)) < 200 else repr(args)[:200] + "..."
        check(result.returncode == 1, f"{shown}: exit status {result.returncode}")
        check(len(errors) == 1 and expected in errors[0], f"{shown}: {result.stderr[:400]!r}")
        check(elapsed < 1.0, f"{shown}: took {elapsed:.2f} s")
        check(not recorders_under(tmp), f"{shown}: the application was launched")
    # An exported tool variable that no option set is checked before launch too.
    env = dict(os.environ, ROCPROF_KERNEL_FILTER_RANGE="[1-")
    result = run(["-d", out, "--kernel-trace"] + app, env=env)
    check(result.returncode == 1 and
          "environment variable ROCPROF_KERNEL_FILTER_RANGE" in result.stderr, result.stderr)


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--rocprofv3", required=True)
    parser.add_argument("--recorder", required=True)
    parser.add_argument("--probes", default="", help="directory of libpreload_probe_{a,b,c}.so")
    parser.add_argument("case", choices=sorted(CASES))
    ARGS = parser.parse_args()
    ARGS.rocprofv3 = os.path.abspath(ARGS.rocprofv3)
    ARGS.recorder = os.path.abspath(ARGS.recorder)
    with tempfile.TemporaryDirectory(prefix="rocprofv3-e2e-") as tmp:
        try:
            CASES[ARGS.case](os.path.realpath(tmp))
        except AssertionError as error:
            print(f"FAIL {ARGS.case}: {error}", file=sys.stderr)
            return 1
    print(f"PASS {ARGS.case}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
