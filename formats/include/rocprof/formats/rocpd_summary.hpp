// The tables of `rocpd summary`, as AMD's rocpd computes them with SQL views, computed here in
// one pass over the records (a writer): per view (kernels, memory_copies, memory_allocations,
// scratch_memory, one per region category prefix such as hip or cuda, markers) one row per
// name with calls, total, average, min, max and sample standard deviation of the durations;
// optionally per process (`--summary-by-rank`) and per domain (`--domain-summary`).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rocprof/trace/writer.hpp"

namespace rocprof::formats::rocpd {

struct summary_row {
  int64_t pid = 0;  // by-rank tables only
  std::string hostname;
  std::string name;
  uint64_t calls = 0, total_ns = 0, min_ns = 0, max_ns = 0;
  double average_ns = 0.0, percent = 0.0;
  std::optional<double> stddev_ns;  // none for a single call (AMD's n-1 divides by zero)
};

struct summary_table {
  std::string name;  // "kernels_summary", "hip_summary_by_rank", "domain_summary", ...
  bool by_rank = false;
  std::vector<summary_row> rows;
};

struct summary_request {
  // Region category prefixes to summarise (upper case: HIP, HSA, CUDA, MARKER, ...); empty:
  // every prefix the records have; {"NONE"}: none.
  std::vector<std::string> region_categories;
  bool by_rank = false;
  bool domain_summary = false;
};

// A writer that aggregates the records of one process between begin() and finish(), any
// number of processes in turn; tables() then gives every non-empty table in AMD's order.
class summary_collector : public trace::writer {
 public:
  static std::unique_ptr<summary_collector> make(const summary_request& request);
  virtual std::vector<summary_table> tables() const = 0;
};

}  // namespace rocprof::formats::rocpd
