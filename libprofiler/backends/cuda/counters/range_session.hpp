// The range profiler of one CUDA context, as the H100 probes showed it works (probe-findings
// H1-H5, Q1, Q2):
//  * set up lazily inside the first counted launch's callback: cuptiProfilerInitialize (once
//    per process), the context's counter availability image, cuptiRangeProfilerEnable
//    (~0.2-0.7 s in all);
//  * per counter set: a config image built with that availability image and a counter data
//    image for max_ranges ranges; SetConfig with AutoRange + KernelReplay, so a set that needs
//    several passes is replayed inside the one launch;
//  * Start before the launch, Stop + DecodeData after it: the new ranges of the counter data
//    image (ranges accumulate across Start/Stop; the image is initialised again, without a new
//    SetConfig, before it fills), evaluated with the set's host object;
//  * replay: KernelReplay (CUPTI saves and restores device memory to replay a launch for each
//    pass) or, for a set of one pass, UserReplay (one pass is all there is: the launch runs
//    once, nothing saved); a batched caller keeps the profiler started across launches (begin()
//    again with the same set is a no-op) and ends it when its batch() is due;
//  * switching sets needs Disable + Enable + SetConfig (a plain SetConfig gave NaN; ~28 ms), so
//    the active set stays configured until a dispatch wants another one.
// Not thread-safe: the caller holds mutex() around every call, and from a launch's begin() to
// the launch's return (counted launches of one context are serialised; CUPTI serialises them
// anyway).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "counters/counter_sets.hpp"
#include "counters/dispatch_batch.hpp"
#include "counters/range_profiler_api.hpp"
#include "metrics/metric_config.hpp"

namespace rocprof::cuda {

// The replay modes in which the caller, not CUPTI, replays (a set of one pass runs once).
inline bool replays_itself(CUpti_ProfilerReplayMode replay) {
  return replay == CUPTI_UserReplay || replay == CUPTI_ApplicationReplay;
}

class range_session {
 public:
  // Ranges one counter data image holds before it is initialised again.
  static constexpr size_t max_ranges = 256;

  range_session(range_profiler_api& target, profiler_host_api& host, CUcontext ctx,
                size_t device_index, std::string chip);
  range_session(const range_session&) = delete;
  range_session& operator=(const range_session&) = delete;

  std::mutex& mutex() { return mutex_; }

  // Configures `set` with `replay` (unless that is the active configuration) and starts the
  // profiler, with room in the counter data image for `room` ranges before the next end().
  // Already started with the same set and replay: nothing to do. On failure `why` says what
  // CUPTI answered.
  bool begin(const counter_set& set, CUpti_ProfilerReplayMode replay, size_t room,
             std::string& why);
  // One launch with kernel replay (room for a graph's ranges).
  bool begin(const counter_set& set, std::string& why) {
    return begin(set, CUPTI_KernelReplay, max_ranges / 4, why);
  }
  // Stops, decodes, and evaluates every range added since begin(): values per range, in the
  // set's metric order, in launch order. (A caller whose batch is due ends it so.)
  // `kernel_durations`, when given, receives each range's gpu__time_duration.sum in ns (what
  // ncu reports as a kernel's duration; under kernel replay, the kernel alone): the set's own,
  // or added by the session where it needs no further pass; 0 stands where neither.
  // ROCPROF_CUDA_COUNTER_RANGES=1 prints each range's name and duration to stderr (AutoRange
  // names ranges "0", "1", ... on the H100, not after their kernels).
  bool end(std::vector<std::vector<double>>& ranges, std::string& why,
           std::vector<uint64_t>* kernel_durations = nullptr);
  static constexpr const char* kernel_duration_metric = "gpu__time_duration.sum";

  // The passes `set` needs on this context's GPU (its config image built with the context's
  // counter availability image, the profiler set up if it was not); 0 when that failed (`why`).
  size_t passes(const counter_set& set, std::string& why);

  uint64_t active_set() const { return active_; }
  CUpti_ProfilerReplayMode active_replay() const { return active_replay_; }
  bool started() const { return started_ != 0; }
  // User replay failed in this context (SetConfig, Start, Stop or DecodeData refused it): its
  // one-pass sets fall back to kernel replay.
  bool user_replay_failed() const { return user_replay_failed_; }
  void set_user_replay_failed() { user_replay_failed_ = true; }
  // The counted dispatches whose ranges the running profiler holds (batched collection).
  dispatch_batch& batch() { return batch_; }
  // Times the profiler object was re-created to switch sets (for tests and logs).
  uint64_t switches() const { return switches_; }

 private:
  struct prepared {
    metric_config config;         // image built with the context's availability image
    std::vector<uint8_t> data;    // counter data image, initialised for object_
    size_t seen = 0;              // ranges of `data` already evaluated
    int duration_index = -1;      // kernel_duration_metric's place in config.metrics (-1: none)
    bool duration_added = false;  // the session added it (last; not the set's)
  };
  bool setup(std::string& why);
  prepared* prepare(const counter_set& set, std::string& why);
  bool activate(const counter_set& set, CUpti_ProfilerReplayMode replay, std::string& why);
  bool init_data(prepared& p, std::string& why);
  std::string failure(const char* what, CUptiResult r);

  range_profiler_api& target_;
  profiler_host_api& host_;
  CUcontext ctx_;
  size_t device_index_;
  std::string chip_;
  std::mutex mutex_;
  bool set_up_ = false;
  std::vector<uint8_t> availability_;
  CUpti_RangeProfiler_Object* object_ = nullptr;
  std::map<uint64_t, prepared> prepared_;
  uint64_t active_ = 0;
  CUpti_ProfilerReplayMode active_replay_ = CUPTI_KernelReplay;
  uint64_t started_ = 0;  // the set begin() started, 0 when stopped
  uint64_t switches_ = 0;
  bool user_replay_failed_ = false;
  dispatch_batch batch_;
};

}  // namespace rocprof::cuda
