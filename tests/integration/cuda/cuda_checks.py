"""Shared helpers of the CUDA end-to-end checks: GPU detection (exit 77 = CTest skip) and the
sample program's summary line."""
import argparse
import csv
import glob
import json
import os
import shutil
import subprocess
import sys

SKIP = 77

# A group of 13 metrics the H100's range profiler collected (the probe's 3-pass group without
# sm__warps_active.avg.pct_of_peak_sustained_active, which rocprofv3 --pmc found "not available"
# there) that CUPTI's offline plan for GH100 puts in 2 hardware passes, and the split into one
# pass each that rocprofv3's error suggests. check_cli_counters.py (CPU, offline GH100) and
# check_cli_counters_gpu.py multipass (H100) use the same lists.
MULTIPASS_SPLIT = [["smsp__warps_launched.sum", "dram__bytes_read.sum", "smsp__inst_executed.sum",
                    "sm__cycles_elapsed.max", "gpu__time_duration.sum", "lts__t_bytes.sum",
                    "l1tex__t_bytes.sum", "dram__bytes_write.sum", "sm__ctas_launched.sum",
                    "lts__t_sectors.sum", "smsp__cycles_active.avg",
                    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"],
                   ["smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"]]
MULTIPASS_GROUP = MULTIPASS_SPLIT[0] + MULTIPASS_SPLIT[1]


def gpu_available():
    if not os.path.exists("/dev/nvidia0"):
        return False, "no /dev/nvidia0"
    smi = shutil.which("nvidia-smi")
    if smi:
        p = subprocess.run([smi, "-L"], capture_output=True, text=True)
        if p.returncode != 0 or "GPU" not in p.stdout:
            return False, "nvidia-smi lists no GPU"
    return True, ""


def require_gpu(test_name):
    ok, why = gpu_available()
    if not ok:
        print(f"SKIP {test_name}: needs an NVIDIA GPU ({why})")
        sys.exit(SKIP)


def summary_from(stdout, tag):
    for line in stdout.splitlines():
        if line.startswith(tag + " "):
            return json.loads(line[len(tag) + 1:])
    raise AssertionError(f"no {tag} line in the program's output:\n{stdout[-2000:]}")


def counter_app_expectations(stdout):
    """counter_app's COUNTER_APP_EXPECT lines, by kernel name (warps, ffma, dram_read,
    dram_write, dispatches each dispatch of the kernel must give); {} for another program."""
    tag = "COUNTER_APP_EXPECT "
    return {e["kernel"]: e for e in (json.loads(line[len(tag):]) for line in stdout.splitlines()
                                     if line.startswith(tag))}


class checker:
    """Collects failures instead of stopping at the first, then exits non-zero if any."""

    def __init__(self, name):
        self.name = name
        self.failures = []
        self.passed = 0

    def check(self, cond, what):
        if cond:
            self.passed += 1
        else:
            self.failures.append(what)
            print(f"FAIL {what}")

    def eq(self, got, want, what):
        self.check(got == want, f"{what}: got {got!r}, want {want!r}")

    def finish(self):
        print(f"{self.name}: {self.passed} checks passed, {len(self.failures)} failed")
        return 1 if self.failures else 0


def copy_to_out(path):
    """On the GPU machine, keep an output for the report ($OUT, when set)."""
    out = os.environ.get("CUDA_TEST_OUT")
    if out and os.path.exists(path):
        os.makedirs(out, exist_ok=True)
        shutil.copy(path, out)


def csv_rows(out, name):
    """The rows of the one run_<name>.csv below `out` (none when there is not exactly one)."""
    files = glob.glob(os.path.join(out, "**", f"run_{name}.csv"), recursive=True)
    if len(files) != 1:
        return []
    with open(files[0], newline="") as f:
        return list(csv.DictReader(f))


def parse_with_app(ap):
    """Parses `ROCPROFV3 WORKDIR (--fake LIB | --gpu) [...] -- APP [ARGS...]`: args.app is the
    command after `--`."""
    ap.add_argument("rocprofv3")
    ap.add_argument("workdir")
    ap.add_argument("--fake")
    ap.add_argument("--gpu", action="store_true")
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    args = ap.parse_args(argv[:cut])
    args.app = argv[cut + 1:]
    return args
