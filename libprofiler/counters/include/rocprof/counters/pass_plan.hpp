// Pass planning: which base counters a request needs, how many hardware passes they take, and
// when that is more than one, a split of the request into groups that fit one pass each (what
// rocprofv3's error suggests as several --pmc flags). The pass count comes from the backend
// (CUDA: cuptiProfilerHostGetNumOfPasses on a config image of the metrics), injected here so
// that planning is tested without a GPU.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "rocprof/counters/catalogue.hpp"

namespace rocprof::counters {

// Hardware passes needed to collect these base counters together; 0 if the backend cannot
// configure them at all.
using pass_counter = std::function<size_t(const std::vector<std::string>& base_counters)>;

struct pass_plan {
  std::vector<std::string> requested;      // the requested counters, duplicates removed
  std::vector<std::string> base_counters;  // to collect (constants excluded), first-use order
  size_t passes = 0;                       // passes for base_counters together (0: none needed)
  // When passes > 1: requested counters in groups that need one pass each; each counter is in
  // exactly one group. Empty when passes <= 1 or when some counter alone needs several passes.
  std::vector<std::vector<std::string>> one_pass_groups;
  // Counters that need several passes even alone: only replay can collect them.
  std::vector<std::string> multi_pass_counters;

  bool fits_one_pass() const { return passes <= 1; }
  // The error rocprofv3 gives before the application starts when a group does not fit one pass
  // and no replay mode is set: names the counters, the passes, and a split that would fit.
  std::string error_text(const std::string& architecture) const;
};

// Fails on an unknown or unavailable counter (the message names the closest names) or when the
// backend says the base counters cannot be configured.
result<pass_plan> plan_passes(const agent_catalogue& catalogue,
                              const std::vector<std::string>& requested,
                              const pass_counter& count_passes);

}  // namespace rocprof::counters
