// Timing shared by the two ROCTx benchmarks: per-thread CPU time of a loop body on N threads,
// the baseline (two clock_gettime(CLOCK_BOOTTIME) calls) and the measured push+pop pair.
//
// Each thread's own CPU time (CLOCK_THREAD_CPUTIME_ID) is what is measured, so that 8 threads
// on fewer cores compare like with like: the baseline runs on the same number of threads.
#pragma once

#include <rocprofiler-sdk-roctx/roctx.h>
#include <sys/resource.h>
#include <time.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace roctx_bench {

inline uint64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

/// Voluntary context switches of the calling thread: a writer that waited for the delivery
/// thread (LOSSLESS with both blocks in delivery) sleeps, and each sleep counts one.
inline uint64_t thread_voluntary_switches() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return static_cast<uint64_t>(usage.ru_nvcsw);
}

struct timing {
  double ns = 0;                // CPU ns per iteration, all threads
  double sleeps_per_mille = 0;  // voluntary context switches per 1000 iterations
};

/// Runs body(iterations) on `threads` threads after a warm-up of iterations / 10 (thread state,
/// lanes, caches).
template <typename Body>
timing per_iteration(int threads, uint64_t iterations, Body body) {
  std::vector<uint64_t> cpu(static_cast<size_t>(threads), 0);
  std::vector<uint64_t> sleeps(static_cast<size_t>(threads), 0);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      body(iterations / 10);
      const uint64_t switches = thread_voluntary_switches();
      const uint64_t start = thread_cpu_ns();
      body(iterations);
      cpu[static_cast<size_t>(t)] = thread_cpu_ns() - start;
      sleeps[static_cast<size_t>(t)] = thread_voluntary_switches() - switches;
    });
  for (auto& w : workers)
    w.join();
  uint64_t total = 0, total_sleeps = 0;
  for (size_t t = 0; t < cpu.size(); ++t) {
    total += cpu[t];
    total_sleeps += sleeps[t];
  }
  const auto all = static_cast<double>(iterations * static_cast<uint64_t>(threads));
  return timing{static_cast<double>(total) / all, 1000.0 * static_cast<double>(total_sleeps) / all};
}

inline void two_clock_calls(uint64_t n) {
  timespec a{}, b{};
  for (uint64_t i = 0; i < n; ++i) {
    clock_gettime(CLOCK_BOOTTIME, &a);
    clock_gettime(CLOCK_BOOTTIME, &b);
    asm volatile("" : : "r"(&a), "r"(&b) : "memory");  // keep both calls
  }
}

inline void push_pop_pairs(uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) {
    roctxRangePushA("benchmark range");
    roctxRangePop();
  }
}

struct options {
  uint64_t iterations = 2000000;  // per thread
  std::vector<int> threads{1, 8};
};

/// --iterations N (default 2 000 000 per thread), --threads A,B,... (default 1,8).
inline options options_from(int argc, char** argv) {
  options o;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--iterations") == 0) {
      o.iterations = std::strtoull(argv[++i], nullptr, 10);
    } else if (std::strcmp(argv[i], "--threads") == 0) {
      o.threads.clear();
      for (char* p = argv[++i]; *p != '\0';) {
        const long n = std::strtol(p, &p, 10);
        if (n > 0) o.threads.push_back(static_cast<int>(n));
        if (*p != '\0') ++p;  // the comma
      }
    }
  }
  return o;
}

/// Measures and prints one line per thread count; returns how many pairs were recorded
/// (warm-up included), which is how many thread-range records the tool must deliver.
inline uint64_t measure_and_print(const char* mode, const options& o) {
  const uint64_t iterations = o.iterations;
  uint64_t pairs = 0;
  for (int threads : o.threads) {
    const double clock_ns = per_iteration(threads, iterations, two_clock_calls).ns;
    const timing pair = per_iteration(threads, iterations, push_pop_pairs);
    pairs += static_cast<uint64_t>(threads) * (iterations + iterations / 10);
    std::printf(
        "[%s] roctx push+pop pair, %d thread%s: %.1f ns; two clock_gettime(CLOCK_BOOTTIME): "
        "%.1f ns; ratio %.2f (goal <= 2); writer sleeps per 1000 pairs: %.3f\n",
        mode, threads, threads == 1 ? "" : "s", pair.ns, clock_ns, pair.ns / clock_ns,
        pair.sleeps_per_mille);
    std::fflush(stdout);
  }
  return pairs;
}

}  // namespace roctx_bench
