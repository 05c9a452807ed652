// The test backend's device sampler: what a CUDA backend's PM sampling does, driven by the
// test. device_sampler_start checks what the hardware would (at most 3 native counters, the
// single pass; an interval of at least 1000 ns); samples arrive only when the test asks
// (test_backend_device_samples), through the core's sink, as a backend thread would deliver
// them.
#include <rocprofiler-sdk/backend/backend_abi.h>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "test_backend_counters.hpp"

namespace test_counters {
namespace {

struct running_sampler {
  uint64_t handle = 0;
  uint64_t counters = 0;
  rocprof_device_sample_sink_t sink{};
  uint64_t next_index = 1;
};

// $ROCPROF_TEST_SAMPLER_TEARDOWN_PROBE=1: the sampler behaves like CUPTI's PM sampling at
// exit. Its first start builds library state lazily (a static whose destructor runs at exit,
// in the order of its construction), every start takes a while (CUPTI's enable-to-start), and
// any call after that state's destruction ends the process with status 3, naming the call.
std::atomic<uint64_t> g_starts_entered{0};
std::atomic<bool> g_torn_down{false};

bool teardown_probe_wanted() {
  static const bool wanted = std::getenv("ROCPROF_TEST_SAMPLER_TEARDOWN_PROBE") != nullptr;
  return wanted;
}

void check_library_alive(const char* call) {
  if (!teardown_probe_wanted() || !g_torn_down.load()) return;
  std::fprintf(stderr, "test backend: device sampler %s called after its library's teardown\n",
               call);
  std::fflush(stderr);
  _exit(3);
}

struct lazy_library_state {
  ~lazy_library_state() { g_torn_down.store(true); }
};

void enter_probed_start() {
  if (!teardown_probe_wanted()) return;
  static lazy_library_state state;  // constructed at the first start, destroyed at exit
  (void)state;
  check_library_alive("start");
  g_starts_entered.fetch_add(1);
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  check_library_alive("start");
}

std::mutex g_mutex;
std::vector<running_sampler> g_samplers;
uint64_t g_next_handle = 1;
uint64_t g_drains = 0;

rocprofiler_status_t sampler_start(void*, rocprofiler_agent_id_t, const char* const* names,
                                   uint64_t count, uint64_t interval_ns,
                                   const rocprof_device_sample_sink_t* sink, uint64_t* sampler,
                                   const char** why) {
  thread_local std::string reason;
  if (count > 3) {
    reason = "these counters need " + std::to_string((count + 2) / 3) +
             " passes; device sampling takes one:";
    for (uint64_t i = 0; i < count; ++i)
      reason += std::string(" ") + names[i];
    *why = reason.c_str();
    return ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT;
  }
  if (interval_ns < 1000) {
    reason = "interval " + std::to_string(interval_ns) + " ns is below the minimum of 1000 ns";
    *why = reason.c_str();
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  enter_probed_start();
  std::lock_guard<std::mutex> lock(g_mutex);
  running_sampler s;
  s.handle = g_next_handle++;
  s.counters = count;
  s.sink = *sink;
  g_samplers.push_back(s);
  *sampler = s.handle;
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t sampler_drain(void*, uint64_t) {
  check_library_alive("drain");
  std::lock_guard<std::mutex> lock(g_mutex);
  ++g_drains;
  return ROCPROFILER_STATUS_SUCCESS;
}

void sampler_stop(void*, uint64_t sampler) {
  check_library_alive("stop");
  std::lock_guard<std::mutex> lock(g_mutex);
  for (auto it = g_samplers.begin(); it != g_samplers.end(); ++it)
    if (it->handle == sampler) {
      g_samplers.erase(it);
      return;
    }
}

}  // namespace

void install_sampler(rocprof_backend_t* out) {
  out->device_sampler_start = sampler_start;
  out->device_sampler_drain = sampler_drain;
  out->device_sampler_stop = sampler_stop;
}

}  // namespace test_counters

extern "C" {

/// Delivers `n` samples to every running sampler: native counter i of each sample reads
/// value * (i + 1); sample k spans [start + k * 1000, start + (k + 1) * 1000). skip: indices
/// to leave out before these (a hardware loss). Returns how many samplers run.
__attribute__((visibility("default"))) uint64_t test_backend_device_samples(uint32_t n,
                                                                            double value,
                                                                            uint64_t start,
                                                                            uint32_t skip) {
  std::lock_guard<std::mutex> lock(test_counters::g_mutex);
  for (test_counters::running_sampler& s : test_counters::g_samplers) {
    s.next_index += skip;
    std::vector<double> values(s.counters);
    for (uint64_t i = 0; i < s.counters; ++i)
      values[i] = value * static_cast<double>(i + 1);
    for (uint32_t k = 0; k < n; ++k)
      s.sink.sample(s.sink.user_data, s.next_index++, start + k * 1000, start + (k + 1) * 1000,
                    values.data(), values.size());
  }
  return test_counters::g_samplers.size();
}

/// How many starts entered the sampler (counted with ROCPROF_TEST_SAMPLER_TEARDOWN_PROBE).
__attribute__((visibility("default"))) uint64_t test_backend_device_starts_entered(void) {
  return test_counters::g_starts_entered.load();
}

/// How many times the core asked a sampler to drain.
__attribute__((visibility("default"))) uint64_t test_backend_device_drains(void) {
  std::lock_guard<std::mutex> lock(test_counters::g_mutex);
  return test_counters::g_drains;
}

}  // extern "C"
