// Lane allocation for one logical track (a thread, a stream, a queue).
//
// Perfetto closes the most recent open slice of a track at each END, so two slices on one track
// must either be disjoint or nested. Records arrive in the order they were recorded (API calls
// and ranges when they end, so inner calls come before the range that encloses them), not sorted
// by start. Each lane remembers its latest top-level "group" (the outermost slice of the most
// recent nest) and the end of the group before it; a new slice joins the lane if it starts after
// the group, or encloses the whole group without reaching back into the previous one. Anything
// else (partial overlap, or a slice arriving inside an existing group, where it might cross an
// inner slice) goes to the next lane. Lanes are few (bounded by the real concurrency), so a
// linear scan is fine. A false "overlap" only costs an extra lane, never a broken track.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rocprof::trace::perfetto {

class track_lanes {
 public:
  // Returns the lane index (0-based) the slice [start, end] goes to; a new index means a new
  // lane was opened and its track must be described before use.
  size_t place(uint64_t start, uint64_t end) {
    for (size_t i = 0; i < lanes_.size(); ++i) {
      lane& l = lanes_[i];
      if (start >= l.group_end) {
        l.previous_end = l.group_end;
        l.group_start = start;
        l.group_end = end;
        return i;
      }
      if (start <= l.group_start && end >= l.group_end && start >= l.previous_end) {
        l.group_start = start;
        l.group_end = end;
        return i;
      }
    }
    lanes_.push_back(lane{start, end, 0});
    return lanes_.size() - 1;
  }
  size_t size() const { return lanes_.size(); }

 private:
  struct lane {
    uint64_t group_start, group_end, previous_end;
  };
  std::vector<lane> lanes_;
};

}  // namespace rocprof::trace::perfetto
