// 20 000 empty kernel launches, then one synchronize: the CPU-side cost of a launch, which is
// what a tracer adds to (cupti-notes §7). Prints "LAUNCH_BENCH {json}" with µs per launch.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

__global__ void empty_kernel() {}

int main(int argc, char** argv) {
  const int launches = argc > 1 ? std::atoi(argv[1]) : 20000;
  const int warmup = 200;
  for (int i = 0; i < warmup; ++i)
    empty_kernel<<<1, 1>>>();
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::fprintf(stderr, "launch_bench: no usable CUDA device\n");
    return 77;
  }
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  for (int i = 0; i < launches; ++i)
    empty_kernel<<<1, 1>>>();
  const auto launched = clock::now();
  const cudaError_t err = cudaDeviceSynchronize();
  const auto done = clock::now();
  if (err != cudaSuccess) {
    std::fprintf(stderr, "launch_bench: %s\n", cudaGetErrorString(err));
    return 2;
  }
  const double us_launch =
      std::chrono::duration<double, std::micro>(launched - start).count() / launches;
  const double us_total =
      std::chrono::duration<double, std::micro>(done - start).count() / launches;
  std::printf(
      "LAUNCH_BENCH {\"launches\": %d, \"us_per_launch\": %.4f, \"us_per_launch_with_sync\": "
      "%.4f}\n",
      launches, us_launch, us_total);
  return 0;
}
