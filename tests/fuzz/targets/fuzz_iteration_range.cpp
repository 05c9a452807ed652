// --kernel-iteration-range: either an error or sorted, disjoint, non-adjacent intervals of
// iterations >= 1, which includes() agrees with at their edges.
#include "fuzz_text.hpp"
#include "rocprof/config/iteration_range.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using rocprof::fuzz::broken;
  const auto range = rocprof::config::parse_iteration_range(rocprof::fuzz::text_of(data, size));
  if (!range.error.empty()) {
    if (!range.intervals.empty()) broken("intervals kept after an error");
    return 0;
  }
  for (size_t i = 0; i < range.intervals.size(); ++i) {
    const auto& interval = range.intervals[i];
    if (interval.first == 0 || interval.last < interval.first) broken("a bad interval");
    if (i > 0 && interval.first <= range.intervals[i - 1].last + 1) broken("unmerged intervals");
    if (!range.includes(interval.first) || !range.includes(interval.last))
      broken("includes() misses an edge");
    if (interval.first > 1 && range.includes(interval.first - 1) &&
        (i == 0 || range.intervals[i - 1].last != interval.first - 1)) {
      broken("includes() takes an iteration before an interval");
    }
  }
  return 0;
}
