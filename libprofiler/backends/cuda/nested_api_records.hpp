// Tells, from CUPTI's API activity records alone, which driver calls a runtime call made (nested
// driver calls, not recorded unless asked for) and which the application made itself. Records
// arrive in completion order per thread: a runtime call's own driver calls complete, and arrive,
// before it. So a driver record is held until the next runtime record of its thread, which
// settles it: nested when its [start, end] lies within the runtime call's. Records still held
// at the final flush had no runtime call around them. Pure: no CUPTI, no core.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include "cuda_events.hpp"

namespace rocprof::cuda {

// One API call as an activity record reports it.
struct api_call {
  api_domain domain = api_domain::runtime;
  uint32_t cbid = 0;
  uint32_t cupti_id = 0;  // CUPTI's correlation id
  int64_t tid = 0;        // OS thread id (the session asks CUPTI for the system type)
  uint64_t start_ns = 0, end_ns = 0;
  int32_t return_code = 0;
};

struct settled_call {
  api_call call;
  bool nested = false;  // made by the runtime call that settled it
};

class nested_driver_filter {
 public:
  // A thread that makes driver calls only (no runtime call settles them) holds at most this
  // many: the oldest then leave as not nested, so memory stays bounded.
  static constexpr size_t default_max_held_per_thread = 1024;
  explicit nested_driver_filter(size_t max_held_per_thread = default_max_held_per_thread)
      : max_held_{max_held_per_thread > 0 ? max_held_per_thread : 1} {}

  // A driver call: held until its thread's next runtime call (settled ones are appended to out).
  void hold(const api_call& driver, std::vector<settled_call>& out);
  // A runtime call: settles every driver call its thread holds, in their order.
  void runtime_call(const api_call& runtime, std::vector<settled_call>& out);
  // Nothing more will come (final flush): every held call is settled as not nested.
  void release_all(std::vector<settled_call>& out);
  size_t held() const { return held_count_; }

 private:
  size_t max_held_;
  size_t held_count_ = 0;
  std::unordered_map<int64_t, std::deque<api_call>> held_;  // per thread, in arrival order
};

}  // namespace rocprof::cuda
