#!/usr/bin/env python3
"""The launch-bound PyTorch loop of the overhead comparison: `x = x * a + b` on 1 024 floats,
N iterations (two kernels per iteration). Prints one line "TORCH_LOOP_US_PER_OP <µs>" with the
loop's wall time per iteration, measured inside the process so that start-up and output writing
(of any profiler) are not part of it, and one line "TORCH_LOOP_SEGMENTS_US <µs> ..." with the
same for each of --segments equal parts of the loop (each ends with a synchronize): on the H100
VM the pace of one process moves by up to 2x from one part to the next, which the parts show.

  --profiler none   the loop alone (also what runs under rocprofv3)
  --profiler torch  the loop inside torch.profiler.profile(activities=[CPU, CUDA])
"""
import argparse
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--iterations", type=int, default=20000)
    parser.add_argument("--profiler", choices=["none", "torch"], default="none")
    parser.add_argument("--segments", type=int, default=20)
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        print("torch_loop: PyTorch is not installed", file=sys.stderr)
        return 77
    if not torch.cuda.is_available():
        print("torch_loop: no CUDA device", file=sys.stderr)
        return 77
    x = torch.ones(1024, device="cuda")
    a = torch.full((1024,), 0.999, device="cuda")
    b = torch.full((1024,), 0.001, device="cuda")
    for _ in range(200):  # warm-up: kernels loaded, allocator primed
        x = x * a + b
    torch.cuda.synchronize()

    segments = max(1, min(args.segments, args.iterations))
    parts = [args.iterations // segments + (1 if i < args.iterations % segments else 0)
             for i in range(segments)]
    times = []

    def loop() -> float:
        nonlocal x
        for n in parts:
            start = time.perf_counter()
            for _ in range(n):
                x = x * a + b
            torch.cuda.synchronize()
            times.append(time.perf_counter() - start)
        return sum(times)

    if args.profiler == "torch":
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            elapsed = loop()
        events = len(prof.events())  # the profiler's own post-processing, outside the timing
        print(f"torch_loop: torch.profiler recorded {events} events", file=sys.stderr)
    else:
        elapsed = loop()
    print(f"TORCH_LOOP_US_PER_OP {elapsed / args.iterations * 1e6:.3f}")
    print("TORCH_LOOP_SEGMENTS_US " + " ".join(f"{t / n * 1e6:.3f}" for t, n in zip(times, parts)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
