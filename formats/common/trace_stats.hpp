// Running duration statistics per (domain, name), shared by the --stats CSV files, the -S/-D
// summary tables and the JSON "summary" section. Records are folded in as batches arrive; only
// one small aggregate per distinct name is kept.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "rocprof/trace/model.hpp"
#include "rocprof/trace/writer.hpp"

namespace rocprof::formats {

// Summary / stats domains, in the order rocprofv3 prints -D tables (§8), then ours.
enum class stats_domain : uint8_t {
  hsa_api,
  hip_api,
  marker_api,
  kernel_dispatch,
  memory_copy,
  scratch_memory,
  counter_collection,
  rccl_api,
  memory_allocation,
  rocdecode_api,
  rocjpeg_api,
  cuda_runtime_api,
  cuda_driver_api,
  memory_set,
  count
};

struct stats_domain_info {
  stats_domain domain;
  std::string_view name;        // display name: "HIP_API", "KERNEL_DISPATCH", ...
  std::string_view stats_stem;  // <prefix>_<stem>.csv: "hip_api_stats", "kernel_stats", ...
};
const stats_domain_info& info(stats_domain d);
stats_domain stats_domain_of(trace::api_domain d);

// Welford running statistics of durations in ns (mergeable; n-1 standard deviation).
struct duration_stats {
  uint64_t count = 0;
  uint64_t total = 0;
  uint64_t min = UINT64_MAX;
  uint64_t max = 0;
  double mean = 0.0;
  double m2 = 0.0;
  double sum_squares = 0.0;

  void add(uint64_t duration) {
    ++count;
    total += duration;
    if (duration < min) min = duration;
    if (duration > max) max = duration;
    const auto d = static_cast<double>(duration);
    const double delta = d - mean;
    mean += delta / static_cast<double>(count);
    m2 += delta * (d - mean);
    sum_squares += d * d;
  }
  void merge(const duration_stats& other);
  double average() const {
    return count ? static_cast<double>(total) / static_cast<double>(count) : 0.0;
  }
  double variance() const { return count > 1 ? m2 / static_cast<double>(count - 1) : 0.0; }
  double stddev() const;
};

struct stats_row {
  stats_domain domain;
  std::string name;
  duration_stats stats;
};

class trace_stats {
 public:
  trace_stats(const trace::trace_definitions& defs, const trace::output_options& options);

  void add(trace::record_span<trace::api_record> records);
  void add(trace::record_span<trace::kernel_dispatch_record> records);
  void add(trace::record_span<trace::memory_copy_record> records);
  void add(trace::record_span<trace::memory_set_record> records);
  void add(trace::record_span<trace::memory_allocation_record> records);
  void add(trace::record_span<trace::scratch_memory_record> records);

  // Rows of one domain, one per distinct name, sorted by total duration descending.
  std::vector<stats_row> rows(stats_domain d) const;
  // Every domain's rows, domains in enum order.
  std::vector<stats_row> all_rows() const;
  // One aggregate per domain (for domain_stats.csv and JSON), domains with data only.
  std::vector<stats_row> domain_totals() const;
  bool empty() const;

 private:
  using table = std::unordered_map<uint64_t, duration_stats>;
  std::string name_of(stats_domain d, uint64_t key) const;

  const trace::trace_definitions* defs_;
  bool rename_;
  std::array<table, static_cast<size_t>(stats_domain::count)> tables_;
};

// Sorts rows by total duration descending (ties by name for a stable, testable order).
void sort_by_total(std::vector<stats_row>& rows);

}  // namespace rocprof::formats
