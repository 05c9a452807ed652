// Whole-database operations of `rocpd`: the SQL views over several databases that `query` runs
// on (as AMD's rocpd builds them), and `merge` (one database from many, ranks aligned on
// wall-clock time).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "rocprof/formats/rocpd_reader.hpp"

namespace rocprof::formats::rocpd {

// An in-memory connection with input i ATTACHed as db<i> and, as temporary views: one
// plain-named UNION ALL view per table (rocpd_region, rocpd_event, ...) over every process of
// every input, restricted to `window` for the timed tables (AMD's --start/--end semantics), then
// the data views (regions, kernels, memory_copies, ...) and summary views (top_kernels, busy,
// top) of schema 3. nullptr with *error set when an input cannot be attached. Close with
// sqlite3_close_v2.
sqlite3* open_union_views(const std::vector<std::string>& inputs, const time_window& window,
                          std::string* error);

struct merge_report {
  size_t processes = 0;
  // Per merged process: pid, rank and the shift added to its times (ns).
  struct shifted {
    int64_t pid = 0, rank = -1, shift_ns = 0, drift_ns = 0;
    std::string hostname;
  };
  std::vector<shifted> shifts;
};

// Copies every process's tables of every input into `output` (replaced if it exists), shifting
// each process's timestamps so that all are on the first process's CLOCK_BOOTTIME, aligned on
// wall-clock time through the realtime offsets each process recorded (processes without offsets
// are not shifted). Ranks are ordered by MPI rank, else by input order. Indexes are recreated
// and the plain-named views rebuilt as unions over the copied tables, then the data and summary
// views. Fails on a table-name collision (the same process twice) or a schema version other
// than the reader's.
bool merge_databases(const std::vector<std::string>& inputs, const std::string& output,
                     merge_report* report, std::string* error,
                     const std::function<void(size_t done, size_t total)>& progress = {});

}  // namespace rocprof::formats::rocpd
