// A CUDA program with known idle and busy phases for device-wide counters: the CUDA context is
// created first, then 400 ms idle, ~600 ms of back-to-back spinning kernels, 400 ms idle. It
// prints each phase boundary on CLOCK_MONOTONIC (ns):
//   PHASE idle|busy|idle_after|end <ns>
// and, after the busy phase, how much work it did and how long that took:
//   BUSY launches <n> seconds <s>
// Options: --busy-ms N (a busy phase of N ms, the default 600), --launches N (exactly N kernels
// of ~1 ms each instead: a fixed amount of GPU work whose time shows a profiler's overhead),
// --idle-ms N (each idle phase, default 400).
#include <cuda_runtime.h>
#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

struct options {
  unsigned long long busy_ms = 600, launches = 0, idle_ms = 400;
};

// "--name N" or "--name=N".
bool number_option(int argc, char** argv, int& i, const char* name, unsigned long long& out) {
  const size_t n = std::strlen(name);
  if (std::strncmp(argv[i], name, n) != 0) return false;
  const char* text = nullptr;
  if (argv[i][n] == '=')
    text = argv[i] + n + 1;
  else if (argv[i][n] == '\0' && i + 1 < argc)
    text = argv[++i];
  if (text == nullptr) return false;
  out = std::strtoull(text, nullptr, 10);
  return true;
}

bool parse(int argc, char** argv, options& o) {
  for (int i = 1; i < argc; ++i) {
    if (!number_option(argc, argv, i, "--busy-ms", o.busy_ms) &&
        !number_option(argc, argv, i, "--launches", o.launches) &&
        !number_option(argc, argv, i, "--idle-ms", o.idle_ms)) {
      std::fprintf(stderr, "usage: busy_idle [--busy-ms N | --launches N] [--idle-ms N]\n");
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  if (!parse(argc, argv, o)) return 2;
  int* sink = nullptr;
  if (cudaMalloc(&sink, sizeof(int)) != cudaSuccess) {
    std::fprintf(stderr, "busy_idle: no CUDA device\n");
    return 77;
  }
  cudaDeviceSynchronize();
  phase("idle");
  std::this_thread::sleep_for(std::chrono::milliseconds(o.idle_ms));
  phase("busy");
  const unsigned long long began = monotonic_ns(), until = began + o.busy_ms * 1000000ull;
  unsigned long long launched = 0;
  while (o.launches != 0 ? launched < o.launches : monotonic_ns() < until) {
    spin<<<264, 256>>>(2000000, sink);  // ~1 ms per launch on a 1.98 GHz H100
    cudaDeviceSynchronize();
    ++launched;
  }
  const double seconds = static_cast<double>(monotonic_ns() - began) / 1e9;
  phase("idle_after");
  std::printf("BUSY launches %llu seconds %.6f\n", launched, seconds);
  std::fflush(stdout);
  std::this_thread::sleep_for(std::chrono::milliseconds(o.idle_ms));
  phase("end");
  cudaFree(sink);
  return 0;
}
