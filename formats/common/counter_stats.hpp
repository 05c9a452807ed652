// Per-kernel counter statistics for --stats (<prefix>_counter_collection_stats.csv) and -S (the
// COUNTER_COLLECTION SUMMARY table): for each (kernel name, counter), the per-dispatch values
// (instances summed, as counter_collection.csv shows them) folded into count, min, max, mean and
// total. rocprofv3 has no such statistics (its counter stats files are empty); ours are an
// addition, in files and tables of their own.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/kernel_names.hpp"
#include "rocprof/trace/model.hpp"
#include "rocprof/trace/writer.hpp"

namespace rocprof::formats {

struct counter_stats_row {
  std::string kernel;
  std::string counter;
  uint64_t dispatches = 0;
  double min = 0, max = 0, mean = 0, total = 0;
};

class counter_stats {
 public:
  counter_stats(const trace::trace_definitions& defs, const trace::output_options& options);

  // Dispatches name the kernel of their counter values; either record of a dispatch will do.
  void add(trace::record_span<trace::counter_dispatch_record> records);
  void add(trace::record_span<trace::kernel_dispatch_record> records);
  void add(trace::record_span<trace::counter_value_record> records);

  // One row per (kernel, counter), kernels by name, counters by name within a kernel. Values of
  // dispatches never described are under the kernel name "" (unknown).
  std::vector<counter_stats_row> rows() const;
  bool empty() const { return values_.empty(); }

 private:
  const trace::trace_definitions* defs_;
  kernel_names names_;
  std::unordered_map<uint64_t, std::string> kernel_of_dispatch_;
  std::map<std::pair<uint64_t, uint64_t>, double> values_;  // (dispatch, counter) -> sum
  std::unordered_map<uint64_t, const std::string*> counter_names_;
};

}  // namespace rocprof::formats
