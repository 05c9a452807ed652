"""Shared helpers of the CUDA end-to-end checks: GPU detection (exit 77 = CTest skip) and the
sample program's summary line."""
import json
import os
import shutil
import subprocess
import sys

SKIP = 77


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
