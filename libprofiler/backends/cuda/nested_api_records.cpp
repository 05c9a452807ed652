#include "nested_api_records.hpp"

namespace rocprof::cuda {

void nested_driver_filter::hold(const api_call& driver, std::vector<settled_call>& out) {
  std::deque<api_call>& calls = held_[driver.tid];
  if (calls.size() >= max_held_) {
    out.push_back(settled_call{calls.front(), false});
    calls.pop_front();
    --held_count_;
  }
  calls.push_back(driver);
  ++held_count_;
}

void nested_driver_filter::runtime_call(const api_call& runtime, std::vector<settled_call>& out) {
  const auto it = held_.find(runtime.tid);
  if (it == held_.end()) return;
  // Calls on one thread nest or follow each other: a held call that completed before this one
  // either ran inside it or before it began.
  for (const api_call& d : it->second)
    out.push_back(settled_call{d, d.start_ns >= runtime.start_ns && d.end_ns <= runtime.end_ns});
  held_count_ -= it->second.size();
  // Kept, empty: its thread comes back with the next driver call (no allocation per call).
  it->second.clear();
}

void nested_driver_filter::release_all(std::vector<settled_call>& out) {
  for (auto& [tid, calls] : held_)
    for (const api_call& d : calls)
      out.push_back(settled_call{d, false});
  held_.clear();
  held_count_ = 0;
}

}  // namespace rocprof::cuda
