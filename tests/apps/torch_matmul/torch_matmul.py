#!/usr/bin/env python3
"""x @ x on a 4096x4096 float32 matrix on the GPU: the PyTorch sample for the CUDA backend.

It prints one line "TORCH_MATMUL_SUMMARY {json}" with what it did, so a test can check that the
profiler saw the GEMM kernel. With --iterations N it repeats the product (the GPU-bound loop of
the overhead measurement) and reports the wall time of the loop.
"""
import argparse
import json
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=4096)
    parser.add_argument("--iterations", type=int, default=1)
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        print("torch_matmul: PyTorch is not installed", file=sys.stderr)
        return 77  # the CTest SKIP_RETURN_CODE of the tests that run it
    if not torch.cuda.is_available():
        print("torch_matmul: no CUDA device", file=sys.stderr)
        return 77
    x = torch.randn(args.size, args.size, device="cuda")
    y = x @ x  # warm-up: loads cuBLAS and its kernels
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(args.iterations):
        y = x @ x
    torch.cuda.synchronize()
    elapsed = time.perf_counter() - start
    summary = {
        "size": args.size,
        "matmuls": args.iterations + 1,
        "loop_seconds": elapsed,
        "checksum": float(y[0, 0].item()),
        "device": torch.cuda.get_device_name(0),
        "torch": torch.__version__,
    }
    print("TORCH_MATMUL_SUMMARY " + json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
