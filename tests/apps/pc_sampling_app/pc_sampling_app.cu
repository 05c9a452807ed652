// PC sampling workload: a pointer chase (each step waits for the previous load: long-scoreboard
// stalls) and an FMA loop (dependent and independent FMAs: math pipe / wait / selected /
// not-selected), each launched until about `seconds` of GPU time passed. The check scripts
// find the loop lines by the markers "HOT-CHASE" and "HOT-FMA" in this file.
//   pc_sampling_app {chase|fma|both} [seconds]
// Prints: SUMMARY {"chase_ms":..,"fma_ms":..,"chase_launches":..,"fma_launches":..}
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#define CHECK(x)                                                                              \
  do {                                                                                        \
    cudaError_t e_ = (x);                                                                     \
    if (e_ != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(2);                                                                           \
    }                                                                                         \
  } while (0)

__global__ void pointer_chase(const unsigned* next, unsigned steps, unsigned* out) {
  // Start inside the table (its size is a power of two: 2^26 entries).
  unsigned p = ((blockIdx.x * blockDim.x + threadIdx.x) * 7919u) & ((1u << 26) - 1);
  for (unsigned i = 0; i < steps; ++i) {
    p = next[p];  // HOT-CHASE
  }
  if (p == 0xffffffffu) out[0] = p;
}

__global__ void fma_loop(float* out, unsigned iterations) {
  float a = threadIdx.x * 1e-3f, b = 1.0001f, c = 0.9999f, d = 0.5f;
  // One line on purpose: the check expects every FMA sample on the HOT-FMA line.
  // clang-format off
  for (unsigned i = 0; i < iterations; ++i) {
    a = fmaf(a, b, c); b = fmaf(b, c, d); c = fmaf(c, d, a); d = fmaf(d, a, b);  // HOT-FMA
  }
  // clang-format on
  out[blockIdx.x * blockDim.x + threadIdx.x] = a + b + c + d;
}

namespace {

float time_ms(cudaEvent_t start, cudaEvent_t stop) {
  float ms = 0.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  return ms;
}

}  // namespace

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "both";
  const double seconds = argc > 2 ? std::atof(argv[2]) : 1.0;
  const bool chase = std::strcmp(mode, "fma") != 0, fma = std::strcmp(mode, "chase") != 0;
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const unsigned blocks = static_cast<unsigned>(sms) * 4, threads = 256;

  // 256 MiB of indices in one random cycle: far larger than L2, every step misses.
  const size_t n = size_t{1} << 26;
  std::vector<unsigned> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin(), order.end(), std::mt19937{42});
  std::vector<unsigned> next(n);
  for (size_t i = 0; i < n; ++i)
    next[order[i]] = order[(i + 1) % n];
  unsigned *d_next = nullptr, *d_out = nullptr;
  float* d_f = nullptr;
  CHECK(cudaMalloc(&d_next, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_out, sizeof(unsigned)));
  CHECK(cudaMalloc(&d_f, size_t{blocks} * threads * sizeof(float)));
  CHECK(cudaMemcpy(d_next, next.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  double chase_ms = 0, fma_ms = 0;
  int chase_launches = 0, fma_launches = 0;
  const double budget_ms = seconds * 1000.0;
  while (chase && chase_ms < budget_ms) {
    CHECK(cudaEventRecord(start));
    pointer_chase<<<blocks, threads>>>(d_next, 4000, d_out);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    chase_ms += time_ms(start, stop);
    ++chase_launches;
  }
  while (fma && fma_ms < budget_ms) {
    CHECK(cudaEventRecord(start));
    fma_loop<<<blocks, threads>>>(d_f, 2000000);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    fma_ms += time_ms(start, stop);
    ++fma_launches;
  }
  CHECK(cudaDeviceSynchronize());
  std::printf(
      "SUMMARY {\"chase_ms\":%.3f,\"fma_ms\":%.3f,\"chase_launches\":%d,\"fma_launches\":%d}\n",
      chase_ms, fma_ms, chase_launches, fma_launches);
  CHECK(cudaFree(d_next));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_f));
  return 0;
}
