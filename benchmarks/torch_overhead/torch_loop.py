#!/usr/bin/env python3
"""The launch-bound PyTorch loop of the overhead comparison: `x = x * a + b` on 1 024 floats,
N iterations (two kernels per iteration). Prints one line "TORCH_LOOP_US_PER_OP <µs>" with the
loop's wall time per iteration, measured inside the process so that start-up and output writing
(of any profiler) are not part of it.

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

    def loop() -> float:
        nonlocal x
        start = time.perf_counter()
        for _ in range(args.iterations):
            x = x * a + b
        torch.cuda.synchronize()
        return time.perf_counter() - start

    if args.profiler == "torch":
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            elapsed = loop()
        events = len(prof.events())  # the profiler's own post-processing, outside the timing
        print(f"torch_loop: torch.profiler recorded {events} events", file=sys.stderr)
    else:
        elapsed = loop()
    print(f"TORCH_LOOP_US_PER_OP {elapsed / args.iterations * 1e6:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
