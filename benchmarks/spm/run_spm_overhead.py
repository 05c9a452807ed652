#!/usr/bin/env python3
"""rocprofv3 --spm on a 30-second GPU-bound run (issue 11, item 5), on the GPU machine.

1. Overhead at 10 kHz: PAIRS interleaved pairs (ABBA order) of busy_idle --launches N alone and
   under `rocprofv3 --spm COUNTER --spm-sample-interval 100 us`. busy_idle times its fixed
   amount of GPU work itself ("BUSY launches <n> seconds <s>"): the ratio of those times is the
   overhead on the GPU-bound run; the whole process's wall time (rocprofv3's start-up, PM
   sampling's ~1 s enable and the output writing included) is printed beside it.
2. Highest rate with no lost sample on that run: one run per interval of the ladder (from the
   slowest), lost = samples expected from the sampled span minus samples received
   (device_counter_collection.csv, read with python's csv); the ladder stops at the first loss.

Prints SPM_OVERHEAD lines; exit 77 (CTest skip) when busy_idle finds no GPU, 1 when nothing
was sampled, else 0 (the figures are for docs/performance.md, not pass/fail).
usage: run_spm_overhead.py --rocprofv3 CLI --app BUSY_IDLE --work DIR
           [--launches 30000] [--pairs 2] [--interval-us 100] [--ladder-us 50,20,10]
"""
import argparse
import csv
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

COUNTER = "sm__cycles_active.avg"
SKIP = 77


def app_cmd(a):
    return [a.app, "--launches", str(a.launches), "--idle-ms", str(a.idle_ms)]


def busy_seconds(stdout):
    m = re.search(r"^BUSY launches (\d+) seconds ([0-9.]+)", stdout, re.M)
    return float(m.group(2)) if m else None


def run_alone(a):
    t0 = time.monotonic()
    p = subprocess.run(app_cmd(a), capture_output=True, text=True, timeout=600)
    return p, time.monotonic() - t0


def run_spm(a, outdir, interval_us):
    shutil.rmtree(outdir, ignore_errors=True)
    cmd = [a.rocprofv3, "--spm-beta-enabled", "--spm", COUNTER, "--spm-sample-interval",
           str(interval_us), "--spm-sample-interval-unit", "us", "--output-format", "csv",
           "-d", outdir, "-o", "run", "--", *app_cmd(a)]
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        print(f"-- {' '.join(cmd)}: exit {p.returncode}\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
    for line in p.stderr.splitlines():
        if "spm" in line.lower() or "lost" in line.lower():
            print(f"   rocprofv3: {line}")
    return p, wall


def sample_losses(outdir, interval_us):
    """(received, expected, lost) from the CSV's timestamps of COUNTER."""
    path = os.path.join(outdir, "run_device_counter_collection.csv")
    if not os.path.exists(path):
        return 0, 0, 0
    n, first, last = 0, None, None
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["Counter_Name"] != COUNTER:
                continue
            t = int(row["Timestamp"])
            first = t if first is None else min(first, t)
            last = t if last is None else max(last, t)
            n += 1
    if n < 2:
        return n, n, 0
    expected = (last - first) // (interval_us * 1000) + 1
    return n, expected, max(0, expected - n)


def overhead_pairs(a):
    ratios, walls, lost_total, sampled = [], [], 0, 0
    for i in range(a.pairs):
        order = ("alone", "spm") if i % 2 == 0 else ("spm", "alone")
        got = {}
        for kind in order:
            if kind == "alone":
                p, wall = run_alone(a)
                got[kind] = (busy_seconds(p.stdout), wall, None)
            else:
                out = os.path.join(a.work, f"pair{i + 1}")
                p, wall = run_spm(a, out, a.interval_us)
                got[kind] = (busy_seconds(p.stdout), wall, sample_losses(out, a.interval_us))
                shutil.rmtree(out, ignore_errors=True)
        (b_busy, b_wall, _), (s_busy, s_wall, (n, expected, lost)) = got["alone"], got["spm"]
        sampled += n
        lost_total += lost
        if b_busy and s_busy:
            ratios.append(s_busy / b_busy)
            walls.append(s_wall / b_wall)
        print(f"SPM_OVERHEAD pair {i + 1} ({'/'.join(order)}): alone busy_s {b_busy} wall_s "
              f"{b_wall:.3f} | spm {a.interval_us} us busy_s {s_busy} wall_s {s_wall:.3f} "
              f"samples {n} expected {expected} lost {lost}", flush=True)
    if ratios:
        busy = statistics.median(ratios)
        wall = statistics.median(walls)
        print(f"SPM_OVERHEAD summary interval_us {a.interval_us} ({1e6 / a.interval_us / 1000:g} kHz)"
              f" launches {a.launches} pairs {len(ratios)}: busy-phase ratio median {busy:.4f} "
              f"({(busy - 1) * 100:+.2f} %, goal <= +1 %: {'met' if busy <= 1.01 else 'NOT met'}),"
              f" min {min(ratios):.4f} max {max(ratios):.4f}; whole-process wall ratio median "
              f"{wall:.4f} ({(wall - 1) * 100:+.2f} %); samples {sampled} lost {lost_total}",
              flush=True)
    return sampled


def rate_ladder(a):
    best, sampled = None, 0
    for interval in a.ladder_us:
        out = os.path.join(a.work, f"rate_{interval}us")
        p, wall = run_spm(a, out, interval)
        n, expected, lost = sample_losses(out, interval)
        shutil.rmtree(out, ignore_errors=True)
        sampled += n
        print(f"SPM_OVERHEAD rate interval_us {interval} ({1e3 / interval:g} kHz): samples {n} "
              f"expected {expected} lost {lost} busy_s {busy_seconds(p.stdout)} wall_s {wall:.3f}",
              flush=True)
        if n == 0 or lost > 0:
            break
        best = interval
    if best is None and a.ladder_us:
        print("SPM_OVERHEAD max_rate: the slowest ladder interval lost samples already")
    elif best is not None:
        print(f"SPM_OVERHEAD max_rate_without_loss interval_us {best} ({1e3 / best:g} kHz) on a "
              f"{a.launches}-launch run (ladder {','.join(map(str, a.ladder_us))} us)", flush=True)
    return sampled


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rocprofv3", required=True)
    ap.add_argument("--app", required=True, help="busy_idle (samples/device_counting)")
    ap.add_argument("--work", required=True)
    ap.add_argument("--launches", type=int, default=30000, help="~1 ms kernels: 30000 ~ 30 s")
    ap.add_argument("--idle-ms", type=int, default=200)
    ap.add_argument("--pairs", type=int, default=2)
    ap.add_argument("--interval-us", type=int, default=100)
    ap.add_argument("--ladder-us", default="50,20,10",
                    help="intervals for the highest lossless rate, slowest first ('' skips)")
    a = ap.parse_args()
    a.ladder_us = [int(x) for x in a.ladder_us.split(",") if x.strip()]
    os.makedirs(a.work, exist_ok=True)
    probe = subprocess.run([a.app, "--launches", "1", "--idle-ms", "0"], capture_output=True,
                           text=True, timeout=120)
    if probe.returncode == SKIP:
        print("SPM_OVERHEAD skipped: busy_idle finds no GPU")
        return SKIP
    sampled = overhead_pairs(a) + rate_ladder(a)
    return 0 if sampled > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
