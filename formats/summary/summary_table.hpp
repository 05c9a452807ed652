// Rendering of the rocprofv3 summary tables (rocprofv3-facts §8). Separate from the writer so
// golden tests can check the exact text.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "common/trace_stats.hpp"
#include "rocprof/trace/writer.hpp"

namespace rocprof::formats::summary {

// One table: "\nROCPROFV3 <title>:\n\n", header, divider, rows, blank line. Every line gets
// `indent` in front (4 spaces for stdout/stderr, none for a file).
std::string render_table(const std::string& title, const std::vector<stats_row>& rows,
                         trace::summary_unit unit, const std::string& indent);

// A table's title and column heads: "\n<indent>ROCPROFV3 <title>:\n\n", the centred heads and
// the divider row, each line after `indent`. Shared by every summary table.
void append_table_head(std::string& out, const std::string& title,
                       const std::vector<std::pair<std::string, size_t>>& columns,
                       const std::string& indent);

// All tables the options ask for, in rocprofv3's order: -D per-domain tables, then one per
// --summary-groups regex, then the -S combined table. Sets *error for an invalid regex.
// `before_combined` (e.g. the counter table) goes right before the -S table, or last without.
std::string render_summary(const trace_stats& stats, const trace::output_options& options,
                           const std::string& indent, std::string* error,
                           const std::string& before_combined = {});

}  // namespace rocprof::formats::summary
