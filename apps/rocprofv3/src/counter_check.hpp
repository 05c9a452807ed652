// The counters of every pass, checked before the application starts: each name must exist on
// each GPU it is meant for (or on the chip named with --counter-chip), -E files must load, and
// a group must fit one hardware pass unless --replay-mode says how to collect it:
//   (none)       a group that needs several passes is an error naming the counters and a split
//                that fits (what several --pmc flags would do);
//   kernel       fine: each counted kernel is replayed within the run (CUPTI kernel replay);
//   application  the group is split into groups of one pass each, and the application runs once
//                per group (pass_N sub-directories), as several --pmc flags would.
#pragma once

#include <string>
#include <vector>

#include "counter_targets.hpp"
#include "native_counters.hpp"
#include "passes.hpp"

namespace rocprof::cli {

struct counter_check_setup {
  native_listings* listings = nullptr;
  std::vector<counter_target> targets;  // at least one
  std::string shipped_definitions;      // path of counter_defs.yaml
};

struct counter_check_result {
  std::vector<pass> passes;           // with --replay-mode application, groups split
  std::vector<std::string> warnings;  // e.g. an -E counter unavailable on a GPU
};

// Does any pass collect counters (pmc or pmc_groups)?
bool passes_collect_counters(const std::vector<pass>& passes);

// Throws usage_error (one message: where, the counter, why, what to do).
counter_check_result check_pass_counters(std::vector<pass> passes,
                                         const counter_check_setup& setup);

// The contents of an -E file (usage_error naming it when it cannot be read).
std::string read_extra_counters(const std::string& path);

// The shipped definitions with a pass's -E file merged in (or alone when `extra_path` is
// empty). Throws usage_error naming the file, the counter and the position of each problem.
counters::definition_set load_pass_definitions(const std::string& shipped_path,
                                               const std::string& extra_path,
                                               std::vector<std::string>* warnings);

}  // namespace rocprof::cli
