#!/usr/bin/env python3
"""The device counting sample on the GPU machine: busy_idle under device_counting_tool
(LD_PRELOAD). Each printed SQ_WAVES value covers the time since the previous sample call (its
`at` stamp, CLOCK_MONOTONIC like busy_idle's PHASE lines). Checks:
  * samples whose whole span lies in an idle phase (with a 5 ms margin for the hardware's
    1 ms sampling) read 0;
  * samples whose whole span lies in the busy phase read > 0;
  * there are at least 3 of each.
usage: check_device_counting.py BUSY_IDLE DEVICE_COUNTING_TOOL
exit 77 (CTest skip) without a GPU.
"""
import os
import subprocess
import sys

MARGIN_NS = 5_000_000


def main():
    app, tool = sys.argv[1], sys.argv[2]
    # The core initialises its tools while it loads (as rocprofiler-sdk does with this
    # variable), before main: the tool then sees the GPU agents and starts sampling.
    env = dict(os.environ, LD_PRELOAD=tool, ROCPROFILER_LIBRARY_CTOR="1")
    p = subprocess.run([app], env=env, capture_output=True, text=True, timeout=240)
    print(p.stdout[-4000:])
    print(p.stderr[-4000:], file=sys.stderr)
    if p.returncode == 77 or "no CUDA device" in p.stderr:
        print("no GPU: skipped")
        return 77
    if p.returncode != 0:
        print(f"busy_idle failed: exit {p.returncode}")
        return 1
    phases, samples = {}, []
    for line in p.stdout.splitlines():
        parts = line.split()
        if parts[:1] == ["PHASE"]:
            phases[parts[1]] = int(parts[2])
        elif parts[:2] == ["device_counting:", "SQ_WAVES"]:
            samples.append((int(parts[-1]), float(parts[2])))
    samples.sort()
    if len(phases) != 4 or len(samples) < 10:
        print(f"phases {phases}, {len(samples)} samples: too few")
        return 1
    idle = [(phases["idle"], phases["busy"]), (phases["idle_after"], phases["end"])]
    busy = (phases["busy"], phases["idle_after"])
    inside = lambda a, b, span: span[0] + MARGIN_NS <= a and b <= span[1] - MARGIN_NS
    idle_values, busy_values = [], []
    for (t0, _), (t1, value) in zip(samples, samples[1:]):
        if any(inside(t0, t1, s) for s in idle):
            idle_values.append(value)
        elif inside(t0, t1, busy):
            busy_values.append(value)
    print(f"idle samples: {idle_values}")
    print(f"busy samples: {busy_values}")
    ok = len(idle_values) >= 3 and len(busy_values) >= 3
    ok = ok and all(v == 0 for v in idle_values) and all(v > 0 for v in busy_values)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
