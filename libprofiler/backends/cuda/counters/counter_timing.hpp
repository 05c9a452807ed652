// Where the time of per-kernel counting goes, phase by phase, when ROCPROF_CUDA_COUNTER_TIMING=1:
// each CUPTI step of the range profiler (set-up, SetConfig, Start, Stop, DecodeData,
// GetCounterDataInfo, evaluation) and the counted launch call itself (ENTER to EXIT of the
// driver call: with kernel replay it includes the kernel and its replay) are counted and timed,
// and the totals are printed to stderr once, when counting finishes. Off (the default), a
// timer costs one relaxed load.
#pragma once

#include <chrono>
#include <cstdint>

namespace rocprof::cuda {

enum class counter_phase : uint8_t {
  setup,         // cuptiProfilerInitialize, counter availability, cuptiRangeProfilerEnable
  config_image,  // the set's config image, built with the context's availability image
  switch_set,    // Disable + Enable to take another set's config
  set_config,
  data_init,  // counter data image sized and initialised
  start,
  stop,
  decode,
  data_info,  // cuptiRangeProfilerGetCounterDataInfo
  evaluate,   // every new range of a Stop, evaluated on the host
  launch,     // a counted launch's driver call, ENTER to EXIT (our work at ENTER included)
  flush,      // a batch collected: Stop to the last value delivered
  count
};

// Whether ROCPROF_CUDA_COUNTER_TIMING=1 (read once).
bool counter_timing_enabled();
void add_counter_time(counter_phase phase, uint64_t ns);
// A steady clock reading when timing is on, else 0 (for phases that span two callbacks).
uint64_t counter_clock_ns();
// Adds the time since `start_ns` (a counter_clock_ns() reading; nothing when 0).
void add_counter_time_since(counter_phase phase, uint64_t start_ns);
// Counted dispatches (the per-dispatch means use it).
void count_timed_dispatch();
// Prints the table to stderr (once; nothing when timing is off or nothing was counted).
void report_counter_timing();

// Times one phase from construction to destruction.
class counter_timer {
 public:
  explicit counter_timer(counter_phase phase) : phase_{phase}, on_{counter_timing_enabled()} {
    if (on_) start_ = std::chrono::steady_clock::now();
  }
  ~counter_timer() {
    if (!on_) return;
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::steady_clock::now() - start_);
    add_counter_time(phase_, static_cast<uint64_t>(ns.count()));
  }
  counter_timer(const counter_timer&) = delete;
  counter_timer& operator=(const counter_timer&) = delete;

 private:
  counter_phase phase_;
  bool on_;
  std::chrono::steady_clock::time_point start_{};
};

}  // namespace rocprof::cuda
