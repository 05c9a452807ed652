#include "counters/dispatch_batch.hpp"

namespace rocprof::cuda {

void dispatch_batch::push(const rocprof_counted_dispatch_t& counted, uint64_t start_ns) {
  pending_.push_back(pending{counted, start_ns, start_ns});
}

void dispatch_batch::returned(bool launched, uint64_t end_ns,
                              std::vector<finished_dispatch>& ready) {
  if (pending_.empty()) return;
  if (launched) {
    pending_.back().end_ns = end_ns;
    return;
  }
  finished_dispatch f;
  f.counted = pending_.back().counted;
  ready.push_back(std::move(f));
  pending_.pop_back();
}

void dispatch_batch::resolve(bool ok, std::vector<std::vector<double>> ranges,
                             std::vector<finished_dispatch>& ready, std::string& why) {
  const bool matched = ok && ranges.size() == pending_.size();
  if (ok && !matched)
    why = "a batch of " + std::to_string(pending_.size()) + " counted launches gave " +
          std::to_string(ranges.size()) +
          " ranges (work the profiler saw that was not a counted launch)";
  for (size_t i = 0; i < pending_.size(); ++i) {
    finished_dispatch f;
    f.counted = pending_[i].counted;
    if (matched) f.values = std::move(ranges[i]);
    f.start_ns = pending_[i].start_ns;
    f.end_ns = pending_[i].end_ns;
    ready.push_back(std::move(f));
  }
  pending_.clear();
}

}  // namespace rocprof::cuda
