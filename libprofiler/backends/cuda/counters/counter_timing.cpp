#include "counters/counter_timing.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace rocprof::cuda {
namespace {

constexpr size_t k_phases = static_cast<size_t>(counter_phase::count);

struct phase_totals {
  std::atomic<uint64_t> calls{0};
  std::atomic<uint64_t> ns{0};
};

phase_totals g_totals[k_phases];
std::atomic<uint64_t> g_dispatches{0};
std::atomic<bool> g_reported{false};

const char* phase_name(size_t i) {
  static const char* const names[k_phases] = {
      "set-up",      "config image", "set switch", "set_config",        "counter data init",
      "start",       "stop",         "decode",     "counter data info", "evaluate",
      "launch call", "batch flush"};
  return names[i];
}

}  // namespace

bool counter_timing_enabled() {
  static const bool on = [] {
    const char* v = std::getenv("ROCPROF_CUDA_COUNTER_TIMING");
    return v != nullptr && std::strcmp(v, "1") == 0;
  }();
  return on;
}

void add_counter_time(counter_phase phase, uint64_t ns) {
  phase_totals& t = g_totals[static_cast<size_t>(phase)];
  t.calls.fetch_add(1, std::memory_order_relaxed);
  t.ns.fetch_add(ns, std::memory_order_relaxed);
}

uint64_t counter_clock_ns() {
  if (!counter_timing_enabled()) return 0;
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

void add_counter_time_since(counter_phase phase, uint64_t start_ns) {
  if (start_ns == 0) return;
  const uint64_t now = counter_clock_ns();
  add_counter_time(phase, now > start_ns ? now - start_ns : 0);
}

void count_timed_dispatch() {
  if (counter_timing_enabled()) g_dispatches.fetch_add(1, std::memory_order_relaxed);
}

void report_counter_timing() {
  if (!counter_timing_enabled() || g_reported.exchange(true)) return;
  const uint64_t dispatches = g_dispatches.load();
  std::fprintf(stderr,
               "rocprofv3 [cuda]: counter timing (%llu counted dispatches)\n"
               "  %-18s %8s %12s %10s %14s\n",
               static_cast<unsigned long long>(dispatches), "phase", "calls", "total us", "mean us",
               "us / dispatch");
  for (size_t i = 0; i < k_phases; ++i) {
    const uint64_t calls = g_totals[i].calls.load();
    const double us = static_cast<double>(g_totals[i].ns.load()) / 1e3;
    if (calls == 0) continue;
    std::fprintf(stderr, "  %-18s %8llu %12.0f %10.1f %14.1f\n", phase_name(i),
                 static_cast<unsigned long long>(calls), us, us / static_cast<double>(calls),
                 dispatches != 0 ? us / static_cast<double>(dispatches) : 0.0);
  }
}

}  // namespace rocprof::cuda
