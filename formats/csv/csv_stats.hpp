// The CSV files that total the trace rather than list it: the --stats files
// (<prefix>_<domain>_stats.csv per domain with rows and <prefix>_domain_stats.csv, 8 columns
// with the stats number formats of §3.4) and <prefix>_dropped_records.csv.
#pragma once

#include <string>
#include <vector>

#include "common/counter_stats.hpp"
#include "common/trace_stats.hpp"
#include "rocprof/trace/writer.hpp"

namespace rocprof::formats::csv {

// Appends the stats header and one row per entry; percentages relative to the rows' total.
void append_stats_table(std::string& out, const std::vector<stats_row>& rows);

// Writes every stats file; returns an error text or empty.
std::string write_stats_files(const trace_stats& stats, const trace::output_options& options);

// <prefix>_counter_collection_stats.csv (ours; rocprofv3's is empty): one row per (kernel,
// counter) with counter_stats_header's columns. Returns an error text or empty.
std::string write_counter_stats_file(const counter_stats& stats,
                                     const trace::output_options& options);

// <prefix>_dropped_records.csv, one "Dropped_Records" column and one row, when records were lost
// before they reached the trace (DISCARD policy, backend drops); nothing otherwise. Returns an
// error text or empty.
std::string write_dropped_records(uint64_t dropped, const trace::output_options& options);

}  // namespace rocprof::formats::csv
