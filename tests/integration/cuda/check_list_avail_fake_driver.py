#!/usr/bin/env python3
"""CPU-only end to end of `rocprofv3 --list-avail` listing GPU agents: the real CLI opens the
real CUDA plugin, which queries a stand-in libcuda.so.1 (fake_cupti/fake_cuda_driver.cpp) put on
LD_LIBRARY_PATH. Two devices are listed with what the driver reported; with none, one line says
so and why, and the exit status stays 0.

usage: check_list_avail_fake_driver.py ROCPROFV3 FAKE_DRIVER_LIB
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuda_checks as cc  # noqa: E402


def list_avail(rocprofv3, driver_dir, devices):
    env = dict(os.environ, FAKE_CUDA_DEVICES=str(devices))
    env["LD_LIBRARY_PATH"] = driver_dir + (":" + env["LD_LIBRARY_PATH"]
                                           if env.get("LD_LIBRARY_PATH") else "")
    env.pop("CUDA_VISIBLE_DEVICES", None)
    p = subprocess.run([rocprofv3, "--list-avail"], env=env, capture_output=True, text=True,
                       timeout=60)
    print(p.stdout, p.stderr)
    return p


def main():
    rocprofv3, driver = sys.argv[1:3]
    driver_dir = os.path.dirname(os.path.abspath(driver))
    c = cc.checker("list_avail_fake_driver")

    p = list_avail(rocprofv3, driver_dir, 2)
    c.eq(p.returncode, 0, "exit status with two devices")
    c.check("CPU agents:" in p.stdout, "CPU agents still listed")
    gpus = re.findall(r"^  GPU:(\d+)\n    Name: (.*)\n    UUID: (.*)\n    PCI location: (.*)\n"
                      r"    Compute capability: (.*)\n    Compute units \(SMs\): (\d+)\n",
                      p.stdout, re.M)
    c.eq([g[0] for g in gpus], ["0", "1"], "GPU ordinals")
    if len(gpus) == 2:
        c.eq([g[1] for g in gpus], ["Fake GPU 0", "Fake GPU 1"], "names from cuDeviceGetName")
        # UUID bytes 0x10*dev+i, printed as nvidia-smi does.
        c.eq(gpus[1][2], "GPU-1011" "1213-1415-1617-1819-1a1b1c1d1e1f", "UUID of GPU 1")
        c.eq([g[3] for g in gpus], ["0000:40:00.0", "0000:41:00.0"], "PCI locations")
        c.eq({g[4] for g in gpus}, {"9.0"}, "compute capability")
        c.eq({g[5] for g in gpus}, {"132"}, "SM count")
    c.check("none found" not in p.stdout, "no 'none found' line when devices exist")

    p = list_avail(rocprofv3, driver_dir, 0)
    c.eq(p.returncode, 0, "exit status without devices")
    lines = [l for l in p.stdout.splitlines() if l.startswith("GPU agents")]
    c.eq(len(lines), 1, f"one GPU agents line ({lines})")
    c.check(bool(lines) and lines[0].startswith("GPU agents: none found (CUDA backend: cuInit")
            and "no CUDA-capable device is detected" in lines[0],
            f"the line names the driver's reason ({lines})")
    c.check(not re.search(r"^  GPU:", p.stdout, re.M), "no GPU entries")

    # PC sampling (issue 12): each GPU's configurations, and the CLI's check before a launch.
    p = list_avail(rocprofv3, driver_dir, 1)
    c.check("PC sampling configurations" in p.stdout and "Method: stochastic\n      Unit: cycles"
            "\n      Min_Interval: 32\n      Max_Interval: 2147483648" in p.stdout,
            "the GPU's PC sampling configuration is listed")
    env = dict(os.environ, FAKE_CUDA_DEVICES="1", LD_LIBRARY_PATH=driver_dir)
    base = [rocprofv3, "--pc-sampling-beta-enabled", "--pc-sampling-unit", "cycles",
            "--pc-sampling-method", "stochastic", "--pc-sampling-interval"]
    for interval, words in (("5000", "the nearest valid values are 4096 and 8192"),
                            ("16", "the nearest valid value is 32")):
        p = subprocess.run(base + [interval, "--", "/bin/true"], env=env, capture_output=True,
                           text=True, timeout=60)
        c.check(p.returncode == 1 and words in p.stderr, f"interval {interval}: {p.stderr!r}")
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
