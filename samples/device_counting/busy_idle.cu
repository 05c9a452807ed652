// A CUDA program with known idle and busy phases for device-wide counters: the CUDA context is
// created first, then 400 ms idle, ~600 ms of back-to-back spinning kernels, 400 ms idle. It
// prints each phase boundary on CLOCK_MONOTONIC (ns):
//   PHASE idle|busy|idle_after|end <ns>
#include <cuda_runtime.h>
#include <time.h>

#include <chrono>
#include <cstdio>
#include <thread>

namespace {

__global__ void spin(long long cycles, int* sink) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
  if (threadIdx.x == 0 && sink != nullptr) atomicAdd(sink, 1);
}

unsigned long long monotonic_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<unsigned long long>(ts.tv_sec) * 1000000000ull +
         static_cast<unsigned long long>(ts.tv_nsec);
}

void phase(const char* name) {
  std::printf("PHASE %s %llu\n", name, monotonic_ns());
  std::fflush(stdout);
}

}  // namespace

int main() {
  int* sink = nullptr;
  if (cudaMalloc(&sink, sizeof(int)) != cudaSuccess) {
    std::fprintf(stderr, "busy_idle: no CUDA device\n");
    return 77;
  }
  cudaDeviceSynchronize();
  phase("idle");
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  phase("busy");
  const unsigned long long until = monotonic_ns() + 600000000ull;
  while (monotonic_ns() < until) {
    spin<<<264, 256>>>(2000000, sink);  // ~1 ms per launch on a 1.98 GHz H100
    cudaDeviceSynchronize();
  }
  phase("idle_after");
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  phase("end");
  cudaFree(sink);
  return 0;
}
