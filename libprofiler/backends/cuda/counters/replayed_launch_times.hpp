// The times of kernels counted with kernel replay. CUPTI's kernel records of such launches carry
// 0 as start and end (H100, sessions 7-9, serialized and concurrent records alike): the kernel
// ran once per pass, between CUPTI's memory saves and restores, inside the launch call (which
// took 6-12 ms on the H100 for kernels of 10-200 us). What is known: the launch call went
// ahead (profiler started) at `start`, returned at `end`, and the range's gpu__time_duration
// says how long the kernel itself ran. launch_counting notes [start, end] when the launch
// returns and narrows it to [start, start + duration] once the range is decoded; the activity
// processor gives the span to the kernel record of that dispatch when the record has no times
// of its own. The start is thus the earliest the kernel can have begun, the duration its own.
//
// A record processed before its launch returned (a buffer completed within those microseconds)
// keeps its zeros, one processed before the range was decoded takes the launch's whole span;
// a span no record took is dropped once `kept` newer ones are noted.
// Written on launching threads, read on CUPTI's buffer thread: a mutex (counted launches take
// milliseconds each; this is not a tracing hot path).
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <unordered_map>

namespace rocprof::cuda {

class replayed_launch_times {
 public:
  static constexpr size_t kept = 4096;

  void note(uint64_t dispatch_id, uint64_t start_ns, uint64_t end_ns) {
    if (dispatch_id == 0) return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (!spans_.emplace(dispatch_id, span{start_ns, end_ns}).second) return;
    order_.push_back(dispatch_id);
    if (order_.size() > kept) {
      spans_.erase(order_.front());
      order_.pop_front();
    }
  }

  // The kernel's own duration became known (the range's gpu__time_duration): the span becomes
  // [start, start + duration]. False when the record already took the launch's span (the
  // caller then reports that one too, so that both rows of the dispatch agree).
  bool narrow(uint64_t dispatch_id, uint64_t end_ns) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = spans_.find(dispatch_id);
    if (it == spans_.end() || end_ns < it->second.start_ns || end_ns > it->second.end_ns)
      return false;
    it->second.end_ns = end_ns;
    return true;
  }

  // The span of `dispatch_id`'s launch, once (false: none noted, or already taken).
  bool take(uint64_t dispatch_id, uint64_t& start_ns, uint64_t& end_ns) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = spans_.find(dispatch_id);
    if (it == spans_.end()) return false;
    start_ns = it->second.start_ns;
    end_ns = it->second.end_ns;
    spans_.erase(it);  // its id stays in order_ until it ages out: erasing a missing key is a no-op
    return true;
  }

 private:
  struct span {
    uint64_t start_ns = 0, end_ns = 0;
  };
  std::mutex mutex_;
  std::unordered_map<uint64_t, span> spans_;
  std::deque<uint64_t> order_;
};

}  // namespace rocprof::cuda
