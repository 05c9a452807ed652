#!/usr/bin/env python3
"""CPU-only end to end of the CLI's counter checks with the real CUDA plugin and the toolkit's
real libcupti (its profiler host API needs no GPU): counters checked against a chip named with
--counter-chip, or against GPUs listed by a stand-in libcuda.so.1 (fake_cupti/
fake_cuda_driver.cpp); unknown names with their closest names, a group that needs several
hardware passes (the error and its split), --replay-mode kernel / application, -E errors, the
error without any GPU, and --list-avail's counters (text and the -d CSV files, read back with
Python's csv module), and checks that passed kept across runs (the second run does not load
libnvperf_host, as LD_DEBUG=files shows). The application (env_recorder) records the environment
it was given.

usage: check_cli_counters.py ROCPROFV3 RECORDER FAKE_DRIVER_LIB WORKDIR CASE
"""
import csv
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuda_checks as cc  # noqa: E402

# cupti-notes §5's group: 2 passes offline on GH100 (3 on the H100 with its availability image).
BIG_GROUP = ["smsp__warps_launched.sum", "dram__bytes_read.sum", "sm__cycles_elapsed.max",
             "smsp__inst_executed.sum", "lts__t_bytes.sum",
             "sm__warps_active.avg.pct_of_peak_sustained_active",
             "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
             "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
             "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", "dram__bytes_write.sum",
             "l1tex__t_bytes.sum", "gpu__time_duration.sum"]

ARGS = {}


def run(args, env_extra=None, fake_gpus=None, timeout=180):
    env = dict(os.environ)
    for name in ("ROCPROF_COUNTER_CHIP", "ROCPROF_COUNTER_CHECK"):
        env.pop(name, None)
    env["ROCPROF_COUNTER_CHECK_CACHE"] = "0"  # every case but kept_checks checks in full
    if fake_gpus is not None:
        env["FAKE_CUDA_DEVICES"] = str(fake_gpus)
        env["LD_LIBRARY_PATH"] = ARGS["driver_dir"] + (":" + env["LD_LIBRARY_PATH"]
                                                       if env.get("LD_LIBRARY_PATH") else "")
        env.pop("CUDA_VISIBLE_DEVICES", None)
    env.update(env_extra or {})
    p = subprocess.run([ARGS["rocprofv3"]] + args, env=env, capture_output=True, text=True,
                       timeout=timeout)
    print("$ rocprofv3", " ".join(args), "->", p.returncode)
    print(p.stderr[-3000:])
    return p


def recorded(directory):
    path = os.path.join(directory, "env_recorder.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)["env"]


def fresh(name):
    path = os.path.join(ARGS["work"], name)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def app():
    return ["--", ARGS["recorder"]]


def expect_error(c, p, directory, *parts):
    errors = [l for l in p.stderr.splitlines() if l.startswith("rocprofv3: error: ")]
    c.eq(p.returncode, 1, "exit status of a refused run")
    c.eq(len(errors), 1, "one error line")
    for part in parts:
        c.check(part in p.stderr, f"the error says {part!r}")
    c.check(recorded(directory) is None, "the application did not start")


def offline_chip(c):
    out = fresh("offline")
    p = run(["--counter-chip", "GH100", "--pmc", "SQ_WAVES", "smsp__inst_executed.sum,FETCH_SIZE",
             "-d", out] + app())
    c.eq(p.returncode, 0, "a valid group on GH100 runs")
    env = recorded(out) or {}
    c.eq(env.get("ROCPROF_COUNTERS"), "pmc: SQ_WAVES smsp__inst_executed.sum,FETCH_SIZE",
         "the counters handed to the tool")
    c.eq(env.get("ROCPROF_COUNTER_COLLECTION"), "1", "counter collection on")
    # The chip may come from the environment too; an architecture names its first chip.
    out = fresh("offline_env")
    p = run(["--pmc", "GRBM_COUNT", "-d", out] + app(), {"ROCPROF_COUNTER_CHIP": "sm_90"})
    c.eq(p.returncode, 0, "ROCPROF_COUNTER_CHIP=sm_90")


def unknown_counters(c):
    out = fresh("unknown")
    p = run(["--counter-chip", "GH100", "--pmc", "smsp__warps_launchd.sum", "-d", out] + app())
    expect_error(c, p, out, "counter 'smsp__warps_launchd.sum' is not available on chip GH100",
                 "closest names: smsp__warps_launched.sum")
    p = run(["--counter-chip", "GH100", "--pmc", "smsp__warps_launched.summ", "-d", out] + app())
    expect_error(c, p, out, "'.summ' is not a roll-up or sub-metric of smsp__warps_launched")
    p = run(["--counter-chip", "GH100", "--pmc", "SQ_WAVE", "-d", out] + app())
    expect_error(c, p, out, "closest names: SQ_WAVES")


def multi_pass_group(c):
    gpu_multipass_group(c)
    out = fresh("multipass")
    p = run(["--counter-chip", "GH100", "--pmc"] + BIG_GROUP + ["-d", out] + app())
    expect_error(c, p, out, "hardware passes on sm_90", "--replay-mode kernel")
    p = run(["--counter-chip", "GH100", "--pmc"] + BIG_GROUP + ["--replay-mode", "kernel",
                                                                "-d", out] + app())
    c.eq(p.returncode, 0, "--replay-mode kernel collects it in one run")
    env = recorded(out) or {}
    c.eq(env.get("ROCPROF_KERNEL_REPLAY"), "1", "ROCPROF_KERNEL_REPLAY")
    c.eq(env.get("ROCPROF_COUNTERS"), "pmc: " + " ".join(BIG_GROUP), "one group of every counter")
    out = fresh("application")
    p = run(["--counter-chip", "GH100", "--pmc"] + BIG_GROUP + ["--replay-mode", "application",
                                                                "-d", out] + app())
    if p.returncode != 0:
        c.check("even alone" in p.stderr, "application replay refuses only counters that need "
                "several passes alone")
        return
    passes = sorted(d for d in os.listdir(out) if d.startswith("pass_"))
    c.check(len(passes) >= 2, f"application replay runs the application per group ({passes})")
    names = []
    for d in passes:
        env = recorded(os.path.join(out, d)) or {}
        names += env.get("ROCPROF_COUNTERS", "pmc: ")[5:].split()
        c.check("ROCPROF_KERNEL_REPLAY" not in env, f"{d}: no kernel replay")
    c.eq(sorted(names), sorted(BIG_GROUP), "every counter in exactly one run")


def gpu_multipass_group(c):
    """The GPU check's group (check_cli_counters_gpu.py multipass) must be refused before launch
    without --replay-mode, and its suggested split accepted: on the H100 its former group (9
    metrics) fitted CUPTI's one-pass plan, so nothing was refused."""
    out = fresh("gpu_multipass")
    p = run(["--counter-chip", "GH100", "--pmc"] + cc.MULTIPASS_GROUP + ["-d", out] + app())
    expect_error(c, p, out, "need 2 hardware passes on sm_90", "--replay-mode kernel")
    split = [a for g in cc.MULTIPASS_SPLIT for a in ["--pmc"] + g]
    p = run(["--counter-chip", "GH100"] + split + ["-d", out] + app())
    c.eq(p.returncode, 0, "the GPU check's split (one pass per --pmc) is accepted")
    passes = sorted(d for d in os.listdir(out) if d.startswith("pass_")) if p.returncode == 0 else []
    c.eq([(recorded(os.path.join(out, d)) or {}).get("ROCPROF_COUNTERS") for d in passes],
         ["pmc: " + " ".join(g) for g in cc.MULTIPASS_SPLIT], "one run per group of the split")


def definitions_file(directory, name, counter, expression):
    """An -E file defining one counter for sm_90; its expression is on line 9."""
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write("rocprofiler-sdk:\n  counters-schema-version: 1\n  counters:\n"
                f"  - name: {counter}\n    description: 'test counter'\n    properties: []\n"
                f"    definitions:\n    - architectures: [sm_90]\n      expression: {expression}\n")
    return path


def extra_counters(c):
    out = fresh("extra")
    good = definitions_file(out, "good.yaml", "TWICE_WAVES", "2*SQ_WAVES")
    run_dir = os.path.join(out, "run")
    p = run(["--counter-chip", "GH100", "-E", good, "--pmc", "TWICE_WAVES", "-d", run_dir] + app())
    c.eq(p.returncode, 0, "an -E counter is checked like a shipped one")
    env = recorded(run_dir) or {}
    c.check("TWICE_WAVES" in env.get("ROCPROF_EXTRA_COUNTERS_CONTENTS", ""),
            "the -E file's contents are handed over")
    bad = definitions_file(out, "bad.yaml", "BROKEN", "reduce(SQ_WAVES,summ)")
    refused = os.path.join(out, "refused")
    p = run(["--counter-chip", "GH100", "-E", bad, "--pmc", "SQ_WAVES", "-d", refused] + app())
    expect_error(c, p, refused, bad + ":9:", "counter 'BROKEN'", "summ")


def no_gpu(c):
    out = fresh("no_gpu")
    p = run(["--pmc", "SQ_WAVES", "-d", out] + app(), {"CUDA_VISIBLE_DEVICES": ""})
    expect_error(c, p, out, "hardware counters need a GPU", "--counter-chip")
    # The check can be turned off (tests of the hand-off; machines where the CLI sees no GPU).
    p = run(["--pmc", "SQ_WAVES", "-d", out] + app(),
            {"CUDA_VISIBLE_DEVICES": "", "ROCPROF_COUNTER_CHECK": "0"})
    c.eq(p.returncode, 0, "ROCPROF_COUNTER_CHECK=0 hands the counters over unchecked")


def fake_gpus(c):
    out = fresh("fake_gpus")
    p = run(["--pmc", "SQ_WAVES", "smsp__warps_launched.sum:device=1", "-d", out] + app(),
            fake_gpus=2)
    c.eq(p.returncode, 0, "counters checked against two sm_90 GPUs of the stand-in driver")
    p = run(["--pmc", "smsp__warps_launchd.sum", "-d", out] + app(), fake_gpus=1)
    c.check("is not available on GPU 0 (Fake GPU 0, sm_90)" in p.stderr,
            "the GPU is named in the error")
    p = run(["--list-avail"], fake_gpus=2)
    c.eq(p.returncode, 0, "--list-avail with two GPUs")
    c.check("\nGPU:0\nName:GPU 0 (Fake GPU 0, sm_90) [counters of chip GH100]\n" in p.stdout,
            "the first GPU's counters")
    c.check("\nGPU:1\n" in p.stdout and "Counters: the same as GPU:0 (same chip)" in p.stdout,
            "the second GPU refers to the first")


def list_avail(c):
    out = fresh("list_avail")
    p = run(["--list-avail", "--counter-chip", "GH100"])
    c.eq(p.returncode, 0, "--list-avail --counter-chip GH100")
    text = p.stdout
    c.check("\nChip:GH100\n" in text, "a section for the chip")
    c.check("Counter_Name        :\tSQ_WAVES\n" in text, "rocprofv3's names")
    c.check("Expression          :\t" in text, "their expressions")
    c.check("Counter_Name        :\tsmsp__warps_launched\n" in text, "native base metrics")
    c.check("  Set 1 (" in text and ".sum" in text, "the roll-up sets, once")
    entries = text.count("Counter_Name        :")
    c.check(3000 < entries < 10000, f"one entry per base metric, not per full name ({entries})")
    p = run(["--list-avail", "--counter-chip", "GH100", "-d", out, "-o", "avail"])
    c.eq(p.returncode, 0, "--list-avail with -d/-o")
    for name, key in (("avail_basic_metrics.csv", "Block"), ("avail_derived_metrics.csv",
                                                           "Expression")):
        path = os.path.join(out, name)
        c.check(os.path.exists(path), f"{name} written")
        if not os.path.exists(path):
            continue
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        c.check(rows and key in rows[0] and "Dimensions" in rows[0], f"{name} columns")
        names = {r["Name"] for r in rows}
        if key == "Expression":
            c.check({"SQ_WAVES", "GRBM_COUNT", "FETCH_SIZE"} <= names, "derived counters")
        else:
            c.check("smsp__warps_launched" in names and len(rows) > 3000, "native counters")


def kept_checks(c):
    out = fresh("kept_checks")
    kept = os.path.join(out, "kept")
    run_dir = os.path.join(out, "run")
    group = ["--counter-chip", "GH100", "--pmc", "SQ_WAVES", "smsp__inst_executed.sum"]

    def checked(args, cache=kept):
        p = run(args + ["-d", run_dir] + app(),
                {"ROCPROF_COUNTER_CHECK_CACHE": cache, "LD_DEBUG": "files"})
        nvperf = "libnvperf_host.so" in p.stderr  # the host API's library, loaded for a full check
        return p, nvperf, sorted(os.listdir(kept)) if os.path.isdir(kept) else []

    p, nvperf, files = checked(group)
    c.eq(p.returncode, 0, "first run of a valid group")
    c.check(nvperf, "the first run checks in full (libnvperf_host loaded)")
    c.eq(len(files), 1, "the passed check is kept in $ROCPROF_COUNTER_CHECK_CACHE")
    if files:
        with open(os.path.join(kept, files[0]), "rb") as f:
            text = f.read().decode(errors="replace")
        for part in ("program ", "backend cupti ", "nvperf_host ", "target chip GH100",
                     " pmc SQ_WAVES smsp__inst_executed.sum"):
            c.check(part in text, f"the kept key names {part.strip()!r}")
    p, nvperf, again = checked(group)
    c.eq(p.returncode, 0, "second run of the same group")
    c.check(not nvperf, "the second run does not load libnvperf_host")
    c.eq(again, files, "nothing new kept")
    c.eq((recorded(run_dir) or {}).get("ROCPROF_COUNTERS"), "pmc: SQ_WAVES smsp__inst_executed.sum",
         "the counters are handed to the tool as after a full check")

    # Another group, another -E file's contents: checked in full and kept beside.
    definitions = definitions_file(out, "extra.yaml", "TWICE_WAVES", "2*SQ_WAVES")
    extra = ["--counter-chip", "GH100", "-E", definitions, "--pmc", "TWICE_WAVES"]
    p, nvperf, files = checked(extra)
    c.check(p.returncode == 0 and nvperf and len(files) == 2, "an -E group is checked and kept")
    definitions_file(out, "extra.yaml", "TWICE_WAVES", "2*SQ_WAVE")  # now wrong
    p, nvperf, files = checked(extra)
    c.check(p.returncode == 1 and "SQ_WAVE" in p.stderr,
            "an edited -E file is checked again (its error, not the kept pass)")
    c.eq(len(files), 2, "a failed check is not kept")

    # Unknown counters are refused whatever was kept; a damaged file is checked again.
    p, _, _ = checked(["--counter-chip", "GH100", "--pmc", "SQ_WAVE"])
    c.check(p.returncode == 1 and "closest names: SQ_WAVES" in p.stderr, "a typo still refused")
    first = os.path.join(kept, sorted(os.listdir(kept))[0])
    with open(first, "w") as f:
        f.write("something else")
    p1, nvperf1, _ = checked(group)
    p2, nvperf2, _ = checked(extra[:-1] + ["SQ_WAVES"])
    c.check(p1.returncode == 0 and p2.returncode == 0, "both groups run after the damage")
    c.check(nvperf1 or nvperf2, "the damaged file's group is checked in full again")

    # A value that is neither a folder nor on/off is refused before launch.
    refused = fresh("kept_checks_refused")
    p = run(group + ["-d", refused] + app(), {"ROCPROF_COUNTER_CHECK_CACHE": "maybe"})
    expect_error(c, p, refused, "ROCPROF_COUNTER_CHECK_CACHE='maybe'", "folder", "on/off")

    # Off: nothing kept, every run checks in full.
    off = os.path.join(out, "off")
    p = run(group + ["-d", off] + app(), {"ROCPROF_COUNTER_CHECK_CACHE": "0",
                                           "LD_DEBUG": "files"})
    c.check(p.returncode == 0 and "libnvperf_host.so" in p.stderr,
            "ROCPROF_COUNTER_CHECK_CACHE=0 checks in full")


CASES = {f.__name__: f for f in (offline_chip, unknown_counters, multi_pass_group, extra_counters,
                                 no_gpu, fake_gpus, list_avail, kept_checks)}


def main():
    rocprofv3, recorder, driver, work, case = sys.argv[1:6]
    ARGS.update(rocprofv3=rocprofv3, recorder=recorder, work=work,
                driver_dir=os.path.dirname(os.path.abspath(driver)))
    os.makedirs(work, exist_ok=True)
    c = cc.checker(f"cli_counters.{case}")
    CASES[case](c)
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
