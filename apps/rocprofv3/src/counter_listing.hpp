// The counters section of --list-avail: per GPU (or per chip named with --counter-chip), every
// counter with its description and dimensions, derived counters with their expressions. A
// native NVIDIA base metric is one entry naming its set of roll-ups and sub-metrics (printed
// once) instead of one entry per collectable name (150 179 on GH100). With -o or -d the lists go
// to CSV files as rocprofv3's list-avail writes them (<prefix>_basic_metrics.csv,
// <prefix>_derived_metrics.csv).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "counter_targets.hpp"

namespace rocprof::cli {

// The entries of one target (the header line "GPU:N" / "Chip:X" is the caller's).
void print_target_counters(std::ostream& out, const target_catalogue& catalogue);

struct listed_target {
  std::string agent_id;  // the Agent_Id column: the GPU index, or the chip's name
  const target_catalogue* catalogue = nullptr;
};

// Writes <path_prefix>_basic_metrics.csv and <path_prefix>_derived_metrics.csv; returns the
// paths written. Throws usage_error when a file cannot be written.
std::vector<std::string> write_counter_files(const std::string& path_prefix,
                                             const std::vector<listed_target>& targets);

}  // namespace rocprof::cli
