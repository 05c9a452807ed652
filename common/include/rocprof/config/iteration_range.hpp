// --kernel-iteration-range / ROCPROF_KERNEL_FILTER_RANGE: which iterations (1-based, counted per
// kernel) of each included kernel are profiled, e.g. "[1, 2, [5-8]]".
//
// rocprofv3 splits the text on '[', ']', ',' and ' ' and reads each piece as N or A-B. Here the
// whole text is checked: brackets balanced, every piece N or A-B with 1 <= A <= B, numbers that
// fit in 64 bits, nothing else. The CLI and the tool parse with this one function.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rocprof::config {

struct iteration_interval {
  uint64_t first = 0;  // inclusive, >= 1
  uint64_t last = 0;   // inclusive, >= first
  bool operator==(const iteration_interval& o) const { return first == o.first && last == o.last; }
};

struct iteration_range {
  // Sorted, merged, disjoint. Empty: every iteration (as rocprofv3).
  std::vector<iteration_interval> intervals;
  std::string error;  // non-empty: the text is invalid (says why and where)

  bool includes(uint64_t iteration) const;
};

iteration_range parse_iteration_range(std::string_view text);

}  // namespace rocprof::config
