// The NVIDIA range-profiler metric lists of tests/data/nvidia_metrics, turned into what the CUDA
// backend will hand the catalogue: base counters with their roll-ups, plus agent constants.
#pragma once

#include <string>
#include <vector>

#include "rocprof/counters/catalogue.hpp"

namespace counters_test {

struct base_metric {
  std::string name;  // without roll-up, e.g. smsp__warps_launched
  std::string type;  // COUNTER, RATIO or THROUGHPUT
};

// Every base metric CUPTI lists for `chip` (GA100, GA102, AD102, GH100, GB100, GB202).
std::vector<base_metric> chip_metrics(const std::string& chip);

// The chip's metrics as collectable counters: counters with .sum/.avg/.min/.max, ratios with
// .ratio/.pct, throughputs with .avg.pct_of_peak_sustained_elapsed; then the agent constants
// of an H100 SXM (132 SMs in 8 GPCs).
std::vector<rocprof::counters::base_counter> chip_base_counters(const std::string& chip);

// The chip named after an architecture in the shipped definitions (sm_90 -> GH100).
std::string chip_of(const std::string& architecture);

}  // namespace counters_test
