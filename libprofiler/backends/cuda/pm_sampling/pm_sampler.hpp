// One CUPTI PM sampling session on one device: the device-wide counters of one single-pass
// config, sampled by the GPU every interval, decoded on a thread of its own (and on demand),
// each sample evaluated and handed to the core's sink with its span on CLOCK_BOOTTIME.
//
// Facts it relies on (H100 probes, notes/probe-findings.md): multi-pass configs are refused;
// 1000 ns is the smallest interval honoured; sample 0 spans Enable -> Start and is dropped;
// sample spans are in CUPTI's timestamp domain (converted here by the offset measured at
// start, ~0 when the tracing session registered a CLOCK_BOOTTIME timestamp callback); the
// hardware buffer must be large (256 MiB worked, 1-64 MiB overflowed at short intervals); a
// full counter data image stops the decode until it is initialised again.
#pragma once

#include <rocprofiler-sdk/backend/backend_abi.h>

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "metrics/metric_config.hpp"
#include "pm_sampling/pm_sampling_api.hpp"

namespace rocprof::cuda {

inline constexpr uint64_t k_pm_min_interval_ns = 1000;

struct pm_sampler_settings {
  size_t device_index = 0;
  uint64_t interval_ns = 0;
  size_t hardware_buffer_bytes = size_t{256} << 20;
  size_t max_samples = 20000;      // capacity of the counter data image between re-inits
  uint32_t decode_period_ms = 10;  // 0: no decode thread (tests drain by hand)
};

// The settings for an interval: $ROCPROF_SPM_HW_BUFFER_MB overrides the hardware buffer, the
// image holds at least a second of samples.
pm_sampler_settings pm_settings_for(size_t device_index, uint64_t interval_ns);

// Builds the PM sampling config of `metrics` for `target` into `out`. EXCEEDS_HW_LIMIT when it
// needs more than one pass (why names the metrics that need several passes alone, or says the
// set does), COUNTER_NOT_FOUND when CUPTI refuses a name (why says which).
rocprofiler_status_t build_single_pass_config(profiler_host_api& host, const host_target& target,
                                              const std::vector<std::string>& metrics,
                                              metric_config& out, std::string& why);

class pm_sampler {
 public:
  pm_sampler(pm_sampling_api& device, profiler_host_api& host, rocprof_device_sample_sink_t sink,
             std::function<uint64_t()> boottime);
  pm_sampler(const pm_sampler&) = delete;
  pm_sampler& operator=(const pm_sampler&) = delete;
  ~pm_sampler() { stop(); }

  // Config, Enable, SetConfig, counter data image, Start, decode thread. On failure nothing is
  // left enabled and `why` says what failed.
  rocprofiler_status_t start(const std::string& chip, const std::vector<std::string>& metrics,
                             const pm_sampler_settings& settings, std::string& why);
  // Decodes what the hardware holds and delivers every completed sample.
  void drain();
  // Stops the hardware, delivers the rest, disables. Idempotent.
  void stop();

  uint64_t delivered() const { return delivered_; }
  uint64_t overflows() const { return overflows_; }

 private:
  void decode_locked();
  void deliver_locked(size_t from, size_t to);
  void run_decode_thread();

  pm_sampling_api& device_;
  profiler_host_api& host_;
  rocprof_device_sample_sink_t sink_;
  std::function<uint64_t()> boottime_;

  std::mutex mutex_;  // the CUPTI object and the image: decode thread vs. drain / stop
  CUpti_PmSampling_Object* object_ = nullptr;
  pm_sampler_settings settings_{};
  metric_config config_;
  std::vector<uint8_t> image_;
  size_t consumed_ = 0;       // samples of the current image delivered (or dropped)
  uint64_t index_ = 0;        // hardware samples since start, lost ones included
  uint64_t last_end_ = 0;     // end of the previous delivered sample (CUPTI clock)
  int64_t clock_offset_ = 0;  // CLOCK_BOOTTIME - CUPTI timestamp, at start
  uint64_t delivered_ = 0, overflows_ = 0;

  std::thread thread_;
  std::mutex wake_mutex_;
  std::condition_variable wake_;
  bool quit_ = false;
};

}  // namespace rocprof::cuda
