// When --collection-period started and stopped collecting, for ROCPROF_COLLECTION_PERIOD_TESTING:
// rocprofv3 then writes <prefix>_collection_periods.log, one section per repetition of a
// period, with lines `label:begin_ns:end_ns` (labels delay, start, duration, stop; CLOCK_BOOTTIME,
// the clock of every record) and `--` after each section, so that a test can check every record
// against the windows.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace rocprof::tool {

/// One repetition of one period. 0: did not happen (the process ended first).
struct period_window {
  uint64_t delay_begin = 0, delay_end = 0;
  uint64_t start_begin = 0, start_end = 0;  // around the call that starts the context
  uint64_t stop_begin = 0, stop_end = 0;    // around the call that stops it
};

class period_log {
 public:
  /// Records a repetition, or (same index) completes one recorded before its stop.
  void record(size_t index, const period_window& window);
  std::vector<period_window> windows() const;

 private:
  mutable std::mutex mutex_;
  std::vector<period_window> windows_;
};

/// The log's text. A repetition cut short by the end of the process has no duration and stop
/// lines; one that never started collecting has only its delay line.
std::string format_period_log(const std::vector<period_window>& windows);

}  // namespace rocprof::tool
