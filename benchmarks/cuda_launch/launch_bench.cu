// Empty kernel launches: the CPU-side cost of a launch, which is what a tracer adds to
// (cupti-notes §7). Prints "LAUNCH_BENCH {json}" with µs per launch.
//
//   cuda_launch_bench [launches=20000] [batch=0]
//
// batch 0: all launches back to back, then one synchronize; µs per launch = time until the last
// launch returned / launches. Once the GPU's launch queue is full a launch waits for the GPU,
// so where a tracer makes each kernel slower on the GPU (CUPTI's kernel records add work to
// every kernel) this measures the GPU's pace, not the launching thread's cost.
// batch N: launches in groups of N with a synchronize after each, only the launches timed: the
// queue never fills (N well under its depth), so the time is the launching thread's alone.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

__global__ void empty_kernel() {}

int main(int argc, char** argv) {
  const int launches = argc > 1 ? std::atoi(argv[1]) : 20000;
  const int batch = argc > 2 ? std::atoi(argv[2]) : 0;
  const int warmup = 200;
  for (int i = 0; i < warmup; ++i)
    empty_kernel<<<1, 1>>>();
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::fprintf(stderr, "launch_bench: no usable CUDA device\n");
    return 77;
  }
  using clock = std::chrono::steady_clock;
  using micros = std::chrono::duration<double, std::micro>;
  double launching_us = 0;  // time spent inside the launch loops
  const auto start = clock::now();
  if (batch <= 0) {
    for (int i = 0; i < launches; ++i)
      empty_kernel<<<1, 1>>>();
    launching_us = micros(clock::now() - start).count();
  } else {
    for (int done = 0; done < launches; done += batch) {
      const int n = launches - done < batch ? launches - done : batch;
      const auto group = clock::now();
      for (int i = 0; i < n; ++i)
        empty_kernel<<<1, 1>>>();
      launching_us += micros(clock::now() - group).count();
      if (cudaStreamSynchronize(nullptr) != cudaSuccess) break;
    }
  }
  const cudaError_t err = cudaDeviceSynchronize();
  const auto done = clock::now();
  if (err != cudaSuccess) {
    std::fprintf(stderr, "launch_bench: %s\n", cudaGetErrorString(err));
    return 2;
  }
  std::printf(
      "LAUNCH_BENCH {\"launches\": %d, \"batch\": %d, \"us_per_launch\": %.4f, "
      "\"us_per_launch_with_sync\": %.4f}\n",
      launches, batch, launching_us / launches, micros(done - start).count() / launches);
  return 0;
}
