// Cost of a roctxRangePushA + roctxRangePop pair with a tool configured (marker buffer tracing
// on, LOSSLESS buffer, records delivered on the core's callback thread), on 1 and 8 threads,
// printed as a ratio to two clock_gettime(CLOCK_BOOTTIME) calls measured in the same run.
//
// Each thread's own CPU time (CLOCK_THREAD_CPUTIME_ID) is what is measured, so that 8 threads
// on fewer cores compare like with like: the baseline runs on the same number of threads.
// Exits non-zero only if records were lost (the ratio is reported, not enforced: shared
// machines are noisy).
#include <rocprofiler-sdk-roctx/roctx.h>
#include <rocprofiler-sdk/rocprofiler.h>
#include <time.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

std::atomic<uint64_t> g_records{0};
std::atomic<uint64_t> g_drops{0};
rocprofiler_context_id_t g_ctx{};
rocprofiler_buffer_id_t g_buf{};

void on_records(rocprofiler_context_id_t, rocprofiler_buffer_id_t, rocprofiler_record_header_t**,
                size_t n, void*, uint64_t drops) {
  g_records.fetch_add(n, std::memory_order_relaxed);
  g_drops.fetch_add(drops, std::memory_order_relaxed);
}

int initialize(rocprofiler_client_finalize_t, void*) {
  if (rocprofiler_create_context(&g_ctx) != ROCPROFILER_STATUS_SUCCESS) return 1;
  // rocprofv3's buffer parameters: 16 pages, watermark 15 pages, LOSSLESS.
  if (rocprofiler_create_buffer(g_ctx, 16 * 4096, 15 * 4096, ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                on_records, nullptr, &g_buf) != ROCPROFILER_STATUS_SUCCESS)
    return 1;
  if (rocprofiler_configure_buffer_tracing_service(g_ctx,
                                                   ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API,
                                                   nullptr, 0, g_buf) != ROCPROFILER_STATUS_SUCCESS)
    return 1;
  return rocprofiler_start_context(g_ctx) == ROCPROFILER_STATUS_SUCCESS ? 0 : 1;
}

rocprofiler_tool_configure_result_t* configure(uint32_t, const char*, uint32_t,
                                               rocprofiler_client_id_t* id) {
  id->name = "roctx-bench";
  static rocprofiler_tool_configure_result_t result{sizeof(result), initialize, nullptr, nullptr};
  return &result;
}

uint64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// Runs body(iterations) on `threads` threads; returns CPU ns per iteration (all threads).
template <typename Body>
double per_iteration_ns(int threads, uint64_t iterations, Body body) {
  std::vector<uint64_t> cpu(static_cast<size_t>(threads), 0);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      body(iterations / 10);  // warm up: thread state, lanes, caches
      const uint64_t start = thread_cpu_ns();
      body(iterations);
      cpu[static_cast<size_t>(t)] = thread_cpu_ns() - start;
    });
  for (auto& w : workers)
    w.join();
  uint64_t total = 0;
  for (uint64_t c : cpu)
    total += c;
  return static_cast<double>(total) /
         static_cast<double>(iterations * static_cast<uint64_t>(threads));
}

void two_clock_calls(uint64_t n) {
  timespec a{}, b{};
  for (uint64_t i = 0; i < n; ++i) {
    clock_gettime(CLOCK_BOOTTIME, &a);
    clock_gettime(CLOCK_BOOTTIME, &b);
    asm volatile("" : : "r"(&a), "r"(&b) : "memory");  // keep both calls
  }
}

void push_pop_pairs(uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) {
    roctxRangePushA("benchmark range");
    roctxRangePop();
  }
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t iterations = 2000000;
  std::vector<int> thread_counts{1, 8};
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--iterations") == 0 && i + 1 < argc)
      iterations = std::strtoull(argv[++i], nullptr, 10);
  }
  if (rocprofiler_force_configure(configure) != ROCPROFILER_STATUS_SUCCESS) {
    std::fprintf(stderr, "cannot configure the benchmark tool\n");
    return 2;
  }
  uint64_t expected = 0;
  for (int threads : thread_counts) {
    const double clock_ns = per_iteration_ns(threads, iterations, two_clock_calls);
    const double pair_ns = per_iteration_ns(threads, iterations, push_pop_pairs);
    expected += static_cast<uint64_t>(threads) * (iterations + iterations / 10);
    std::printf(
        "roctx push+pop pair, %d thread%s: %.1f ns; two clock_gettime(CLOCK_BOOTTIME): %.1f ns; "
        "ratio %.2f (goal <= 2)\n",
        threads, threads == 1 ? "" : "s", pair_ns, clock_ns, pair_ns / clock_ns);
  }
  rocprofiler_flush_buffer(g_buf);
  const uint64_t got = g_records.load();
  std::printf("records delivered: %llu of %llu, dropped: %llu\n",
              static_cast<unsigned long long>(got), static_cast<unsigned long long>(expected),
              static_cast<unsigned long long>(g_drops.load()));
  return got == expected && g_drops.load() == 0 ? 0 : 1;
}
