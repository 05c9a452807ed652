#include "csv/csv_stats.hpp"

#include <map>

#include "common/number_format.hpp"
#include "common/output_file.hpp"
#include "csv/csv_headers.hpp"

namespace rocprof::formats::csv {

void append_stats_table(std::string& out, const std::vector<stats_row>& rows) {
  out += stats_header;
  uint64_t total = 0;
  for (const auto& r : rows)
    total += r.stats.total;
  for (const auto& r : rows) {
    const auto& s = r.stats;
    append_quoted(out, r.name);
    out += ',';
    append_uint(out, s.count);
    out += ',';
    append_uint(out, s.total);
    out += ',';
    append_stats_double(out, s.average());
    out += ',';
    append_stats_percent(
        out, total ? 100.0 * static_cast<double>(s.total) / static_cast<double>(total) : 0.0);
    out += ',';
    append_uint(out, s.count ? s.min : 0);
    out += ',';
    append_uint(out, s.max);
    out += ',';
    append_stats_double(out, s.stddev());
    out += '\n';
  }
}

std::string write_stats_files(const trace_stats& stats, const trace::output_options& options) {
  // Domains that share a file (CUDA runtime + driver -> cuda_api_stats.csv) are merged.
  std::map<std::string_view, std::vector<stats_row>> by_stem;
  std::vector<std::string_view> stem_order;
  for (size_t d = 0; d < static_cast<size_t>(stats_domain::count); ++d) {
    auto rows = stats.rows(static_cast<stats_domain>(d));
    if (rows.empty()) continue;
    auto stem = info(static_cast<stats_domain>(d)).stats_stem;
    auto& dst = by_stem[stem];
    if (dst.empty()) stem_order.push_back(stem);
    dst.insert(dst.end(), rows.begin(), rows.end());
  }
  std::string error;
  auto write_file = [&](const std::string& stem, std::vector<stats_row> rows) {
    sort_by_total(rows);
    output_file f{options.path_for(stem, "csv")};
    append_stats_table(f.buffer(), rows);
    auto e = f.close();
    if (error.empty()) error = e;
  };
  for (auto stem : stem_order)
    write_file(std::string{stem}, by_stem[stem]);
  auto totals = stats.domain_totals();
  if (!totals.empty()) write_file("domain_stats", totals);
  return error;
}

std::string write_counter_stats_file(const counter_stats& stats,
                                     const trace::output_options& options) {
  output_file f{options.path_for("counter_collection_stats", "csv")};
  auto& out = f.buffer();
  out += counter_stats_header;
  for (const auto& r : stats.rows()) {
    append_quoted(out, r.kernel);
    out += ',';
    append_quoted(out, r.counter);
    out += ',';
    append_uint(out, r.dispatches);
    for (double v : {r.total, r.mean, r.min, r.max}) {
      out += ',';
      append_stats_double(out, v);
    }
    out += '\n';
  }
  return f.close();
}

std::string write_dropped_records(uint64_t dropped, const trace::output_options& options) {
  if (dropped == 0) return {};
  output_file f{options.path_for("dropped_records", "csv")};
  f.buffer() += "\"Dropped_Records\"\n";
  append_uint(f.buffer(), dropped);
  f.buffer() += '\n';
  return f.close();
}

}  // namespace rocprof::formats::csv
