#!/usr/bin/env python3
"""rocprofv3 --spm on the H100 (issue 11, items 2, 3 and 5), read back with python's csv and
protoc (readers we did not write). Cases:
  overlap  busy_idle under --kernel-trace --spm sm__cycles_active.avg at 100 us: samples that
           lie inside the kernels' (merged) time spans read > 0, samples more than 2 intervals
           away from any kernel read 0 (>= 95 % of each, >= 20 of each); the pftrace decodes
           and holds the counter track.
  torch    PyTorch x @ x in a loop: >= 80 % of the samples inside the loop read > 0.
  rate     busy_idle at 100, 10 and 1 us: samples received against expected (lost samples),
           and the wall time with --spm at 100 us (10 kHz) against without. Prints the figures
           for docs/performance.md; fails only when nothing was sampled.
usage: check_cli_spm_gpu.py CASE --rocprofv3 CLI --app BUSY_IDLE --work DIR
                            [--torch-script torch_matmul.py] [--proto perfetto_trace.proto]
exit 77 (CTest skip) without a GPU.
"""
import argparse
import csv
import glob
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuda_checks as cc  # noqa: E402

COUNTER = "sm__cycles_active.avg"


def run(cli, outdir, app_cmd, interval_us="100", unit="us", formats=("csv",)):
    shutil.rmtree(outdir, ignore_errors=True)
    cmd = [cli, "--kernel-trace", "--spm-beta-enabled", "--spm", COUNTER, "--spm-sample-interval",
           interval_us, "--spm-sample-interval-unit", unit, "--output-format", *formats,
           "-d", outdir, "-o", "run", "--", *app_cmd]
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    wall = time.monotonic() - t0
    print(f"-- {' '.join(cmd)}: exit {p.returncode}, {wall:.3f} s")
    if p.returncode != 0:
        print(p.stdout[-3000:], p.stderr[-3000:])
    print("\n".join(line for line in p.stderr.splitlines() if "spm" in line.lower()))
    return p, wall


def rows(outdir, name):
    files = glob.glob(os.path.join(outdir, f"run_{name}.csv"))
    if not files:
        return []
    cc.copy_to_out(files[0])
    with open(files[0], newline="") as f:
        return list(csv.DictReader(f))


def merged_kernel_spans(outdir):
    spans = sorted((int(r["Start_Timestamp"]), int(r["End_Timestamp"]))
                   for r in rows(outdir, "kernel_trace"))
    merged = []
    for s, e in spans:
        if merged and s <= merged[-1][1] + 20_000:  # back-to-back launches: one busy span
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    return merged


def samples(outdir):
    return sorted((int(r["Timestamp"]), float(r["Counter_Value"]))
                  for r in rows(outdir, "device_counter_collection") if r["Counter_Name"] == COUNTER)


def case_overlap(a):
    out = os.path.join(a.work, "overlap")
    p, _ = run(a.rocprofv3, out, [a.app], formats=("csv", "pftrace"))
    spans, got = merged_kernel_spans(out), samples(out)
    interval = 100_000
    inside, outside = [], []
    for t, v in got:
        if any(s <= t and t + interval <= e for s, e in spans):
            inside.append(v)
        elif all(t + interval + 2 * interval < s or e + 2 * interval < t for s, e in spans):
            outside.append(v)
    busy_ok = sum(v > 0 for v in inside) / max(1, len(inside))
    idle_ok = sum(v == 0 for v in outside) / max(1, len(outside))
    print(f"busy spans {len(spans)}, samples {len(got)}: inside {len(inside)} ({busy_ok:.1%} > 0),"
          f" outside {len(outside)} ({idle_ok:.1%} == 0)")
    ok = p.returncode == 0 and len(inside) >= 20 and len(outside) >= 20
    ok = ok and busy_ok >= 0.95 and idle_ok >= 0.95
    pftrace = glob.glob(os.path.join(out, "run_results.pftrace"))
    if a.proto and shutil.which("protoc") and pftrace:
        with open(pftrace[0], "rb") as f:
            d = subprocess.run(["protoc", f"--proto_path={os.path.dirname(a.proto)}",
                                "--decode=perfetto.protos.Trace", os.path.basename(a.proto)],
                               stdin=f, capture_output=True)
        decoded = d.stdout.decode(errors="replace")
        has_track = d.returncode == 0 and COUNTER in decoded and "counter_value" in decoded
        print(f"pftrace decodes with a {COUNTER} counter track: {has_track}")
        ok = ok and has_track
    return ok


def case_torch(a):
    out = os.path.join(a.work, "torch")
    p, _ = run(a.rocprofv3, out, [sys.executable, a.torch_script, "--iterations", "200"])
    spans, got = merged_kernel_spans(out), samples(out)
    if not spans or not got:
        print("no kernels or no samples")
        return False
    loop = (spans[len(spans) // 2][0] if len(spans) > 2 else spans[0][0], spans[-1][1])
    within = [v for t, v in got if loop[0] <= t <= loop[1]]
    active = sum(v > 0 for v in within) / max(1, len(within))
    print(f"samples in the GEMM loop: {len(within)}, {active:.1%} with SM activity")
    return p.returncode == 0 and len(within) >= 20 and active >= 0.8


def case_rate(a):
    base_t0 = time.monotonic()
    subprocess.run([a.app], capture_output=True, timeout=300)
    base = time.monotonic() - base_t0
    any_samples = False
    for interval_us, unit, ns in (("100", "us", 100_000), ("10", "us", 10_000), ("1", "us", 1_000)):
        out = os.path.join(a.work, f"rate_{interval_us}{unit}")
        p, wall = run(a.rocprofv3, out, [a.app], interval_us, unit)
        got = samples(out)
        span = (got[-1][0] - got[0][0]) if len(got) > 1 else 0
        expected = span // ns + 1 if span else 0
        lost = max(0, expected - len(got))
        any_samples = any_samples or bool(got)
        print(f"RATE interval {interval_us} {unit}: {len(got)} samples over {span / 1e9:.3f} s, "
              f"expected {expected}, lost {lost}; wall {wall:.3f} s vs {base:.3f} s without "
              f"rocprofv3 ({(wall / base - 1) * 100:+.1f} %)")
    return any_samples


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case", choices=["overlap", "torch", "rate"])
    ap.add_argument("--rocprofv3", required=True)
    ap.add_argument("--app", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--torch-script")
    ap.add_argument("--proto")
    a = ap.parse_args()
    cc.require_gpu(f"spm.{a.case}")
    if a.case == "torch":
        try:
            import torch  # noqa: F401
        except ImportError:
            print("SKIP: no PyTorch")
            return cc.SKIP
    os.makedirs(a.work, exist_ok=True)
    ok = {"overlap": case_overlap, "torch": case_torch, "rate": case_rate}[a.case](a)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
