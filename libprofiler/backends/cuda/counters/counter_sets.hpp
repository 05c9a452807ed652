// The CUDA backend's side of the core's counter catalogue (backend_abi.h, ABI 3): the native
// counters of each GPU agent (NVIDIA metrics from CUPTI's profiler host API, plus the agent
// constants rocprofv3-style definitions use), on-demand sub-metrics, and counter sets (the
// metric lists the core asks to collect together, with their pass counts).
//
// What an agent lists: every base metric of the range profiler with, for counters, the four
// roll-ups (.sum .avg .min .max) and, for ratios and throughputs, each sub-metric CUPTI has for
// them: ~14 600 names on GH100. A counter's 40 further sub-metrics (.sum.per_second,
// .avg.pct_of_peak_sustained_elapsed, ...) are valid too but listing all 150 000 names costs
// ~160 MB in the profiled process; describe() adds any of them on request
// (rocprofiler_find_counter).
//
// Offline (no availability image) CUPTI may plan fewer passes than the device needs; sets
// are planned offline, and the range session builds the device's config image again with the
// context's counter availability image.
//
// Thread-safe; nothing here is on a hot path.
#pragma once

#include <rocprofiler-sdk/backend/backend_abi.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cuda_events.hpp"
#include "metrics/metric_catalogue.hpp"

namespace rocprof::cuda {

struct cuda_counter_agent {
  uint64_t agent_id = 0;
  gpu_agent device;
  std::string architecture;  // "sm_90"
};

struct counter_set {
  uint64_t handle = 0;
  uint64_t agent_id = 0;
  std::string chip;
  std::vector<std::string> metrics;
  uint64_t passes = 0;
};

// GPCs of a chip (its full configuration; no CUDA attribute gives the enabled count), 0 when
// unknown. Used as `array_count`.
uint32_t gpc_count_of_chip(const std::string& chip);

class counter_sets {
 public:
  // host: the profiler host API of the loaded libcupti (nullptr: no counters). chip_of_device:
  // the device's chip (cuptiDeviceGetChipName); "" lets the architecture's representative chip
  // stand in.
  void configure(profiler_host_api* host, std::function<std::string(int)> chip_of_device);

  void add_agent(uint64_t agent_id, const gpu_agent& device);
  bool agent(uint64_t agent_id, cuda_counter_agent& out);
  uint64_t agent_of_device(int ordinal);
  std::string chip_of(uint64_t agent_id);

  rocprofiler_status_t list(uint64_t agent_id, const char** architecture,
                            rocprof_backend_counter_cb_t cb, void* user);
  rocprofiler_status_t describe(uint64_t agent_id, const char* name,
                                rocprof_backend_counter_cb_t cb, void* user, std::string& why);
  rocprofiler_status_t create(uint64_t agent_id, const std::vector<std::string>& metrics,
                              uint64_t& handle, uint64_t& passes, std::string& why);
  bool find(uint64_t handle, counter_set& out);

 private:
  metric_catalogue* catalogue_locked(uint64_t agent_id, std::string& why);

  std::mutex mutex_;
  profiler_host_api* host_ = nullptr;
  std::function<std::string(int)> chip_of_device_;
  std::map<uint64_t, cuda_counter_agent> agents_;
  std::map<uint64_t, std::string> chips_;  // agent -> chip, resolved on first use
  std::map<std::string, std::unique_ptr<metric_catalogue>> catalogues_;  // by chip
  std::map<uint64_t, std::string> architectures_;  // static storage for list()
  std::vector<counter_set> sets_;                  // handle = index + 1
};

// The plugin's one instance.
counter_sets& plugin_counter_sets();

}  // namespace rocprof::cuda
