#include "summary/summary_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <unordered_map>

#include "rocprof/common/safe_regex.hpp"

namespace rocprof::formats::summary {
namespace {

std::string_view unit_name(trace::summary_unit u) {
  switch (u) {
    case trace::summary_unit::sec:
      return "sec";
    case trace::summary_unit::msec:
      return "msec";
    case trace::summary_unit::usec:
      return "usec";
    case trace::summary_unit::nsec:
      return "nsec";
  }
  return "nsec";
}

double unit_divisor(trace::summary_unit u) {
  switch (u) {
    case trace::summary_unit::sec:
      return 1e9;
    case trace::summary_unit::msec:
      return 1e6;
    case trace::summary_unit::usec:
      return 1e3;
    case trace::summary_unit::nsec:
      return 1.0;
  }
  return 1.0;
}

// Integer ns, or a double in the chosen unit.
void append_duration(std::string& out, uint64_t ns, trace::summary_unit u) {
  if (u == trace::summary_unit::nsec)
    fmt::format_to(std::back_inserter(out), "| {:>15} ", ns);
  else
    fmt::format_to(std::back_inserter(out), "| {:>15} ", static_cast<double>(ns) / unit_divisor(u));
}

// A name shared by several domains keeps the first domain (enum order) in combined tables.
std::vector<stats_row> combine(const std::vector<stats_row>& rows) {
  std::vector<stats_row> out;
  std::unordered_map<std::string, size_t> index;
  for (const auto& r : rows) {
    auto [it, inserted] = index.emplace(r.name, out.size());
    if (inserted)
      out.push_back(r);
    else
      out[it->second].stats.merge(r.stats);
  }
  sort_by_total(out);
  return out;
}

}  // namespace

void append_table_head(std::string& out, const std::string& title,
                       const std::vector<std::pair<std::string, size_t>>& columns,
                       const std::string& indent) {
  auto it = std::back_inserter(out);
  fmt::format_to(it, "\n{}ROCPROFV3 {}:\n\n", indent, title);
  out += indent;
  for (const auto& [text, width] : columns)
    fmt::format_to(it, "| {:^{}} ", text, width);
  out += "|\n";
  out += indent;
  for (const auto& col : columns) {
    out += '|';
    out.append(col.second + 2, '-');
  }
  out += "|\n";
}

std::string render_table(const std::string& title, const std::vector<stats_row>& rows,
                         trace::summary_unit unit, const std::string& indent) {
  size_t name_w = 40, domain_w = 12;
  for (const auto& r : rows) {
    name_w = std::max(name_w, r.name.size());
    domain_w = std::max(domain_w, info(r.domain).name.size());
  }
  const auto u = unit_name(unit);
  const std::vector<std::pair<std::string, size_t>> columns{{"NAME", name_w},
                                                            {"DOMAIN", domain_w},
                                                            {"CALLS", 15},
                                                            {fmt::format("DURATION ({})", u), 15},
                                                            {fmt::format("AVERAGE ({})", u), 15},
                                                            {"PERCENT (INC)", 13},
                                                            {fmt::format("MIN ({})", u), 15},
                                                            {fmt::format("MAX ({})", u), 15},
                                                            {"STDDEV", 15}};

  std::string out;
  auto it = std::back_inserter(out);
  append_table_head(out, title, columns, indent);

  uint64_t total = 0;
  for (const auto& r : rows)
    total += r.stats.total;
  const double div = unit_divisor(unit);
  for (const auto& r : rows) {
    const auto& s = r.stats;
    out += indent;
    fmt::format_to(it, "| {:<{}} ", r.name, name_w);
    fmt::format_to(it, "| {:<{}} ", info(r.domain).name, domain_w);
    fmt::format_to(it, "| {:>15} ", s.count);
    append_duration(out, s.total, unit);
    fmt::format_to(it, "| {:15.3e} ", s.average() / div);
    const double pct =
        total ? 100.0 * static_cast<double>(s.total) / static_cast<double>(total) : 0.0;
    fmt::format_to(it, "| {:>13} ", std::to_string(pct));
    append_duration(out, s.count ? s.min : 0, unit);
    append_duration(out, s.max, unit);
    fmt::format_to(it, "| {:15.3e} ", s.stddev() / div);
    out += "|\n";
  }
  out += '\n';
  return out;
}

std::string render_summary(const trace_stats& stats, const trace::output_options& options,
                           const std::string& indent, std::string* error,
                           const std::string& before_combined) {
  std::string out;
  if (options.summary_per_domain) {
    for (size_t d = 0; d < static_cast<size_t>(stats_domain::count); ++d) {
      auto rows = stats.rows(static_cast<stats_domain>(d));
      if (rows.empty()) continue;
      out += render_table(fmt::format("{} SUMMARY", info(static_cast<stats_domain>(d)).name), rows,
                          options.summary_units, indent);
    }
  }
  for (const auto& pattern : options.summary_groups) {
    // RE2 through the shared wrapper: the rules the CLI checked, and matching in linear time.
    std::string problem;
    const auto re = common::safe_regex::compile(pattern, &problem);
    if (!re) {
      if (error && error->empty())
        *error =
            "invalid --summary-groups regex " + common::quote_pattern(pattern) + ": " + problem;
      continue;
    }
    std::vector<stats_row> rows;
    std::string title;
    for (size_t d = 0; d < static_cast<size_t>(stats_domain::count); ++d) {
      const auto dom = static_cast<stats_domain>(d);
      const std::string name{info(dom).name};
      if (!re->full_match(name)) continue;
      auto r = stats.rows(dom);
      if (r.empty()) continue;
      title += (title.empty() ? "" : " + ") + name;
      rows.insert(rows.end(), r.begin(), r.end());
    }
    if (!rows.empty())
      out += render_table(title + " SUMMARY", combine(rows), options.summary_units, indent);
  }
  out += before_combined;
  if (options.summary) {
    auto rows = combine(stats.all_rows());
    if (!rows.empty()) out += render_table("SUMMARY", rows, options.summary_units, indent);
  }
  return out;
}

}  // namespace rocprof::formats::summary
