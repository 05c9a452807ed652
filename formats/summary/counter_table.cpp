#include "summary/counter_table.hpp"

#include "summary/summary_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <utility>

namespace rocprof::formats::summary {

std::string render_counter_table(const std::vector<counter_stats_row>& rows,
                                 const std::string& indent) {
  if (rows.empty()) return {};
  size_t kernel_w = 40, counter_w = 24;
  for (const auto& r : rows) {
    kernel_w = std::max(kernel_w, r.kernel.size());
    counter_w = std::max(counter_w, r.counter.size());
  }
  const std::vector<std::pair<std::string, size_t>> columns{
      {"KERNEL", kernel_w}, {"COUNTER", counter_w}, {"DISPATCHES", 15},
      {"MIN", 15},          {"AVERAGE", 15},        {"MAX", 15}};
  std::string out;
  auto it = std::back_inserter(out);
  append_table_head(out, "COUNTER_COLLECTION SUMMARY", columns, indent);
  for (const auto& r : rows) {
    out += indent;
    fmt::format_to(it, "| {:<{}} ", r.kernel.empty() ? "<unknown kernel>" : r.kernel, kernel_w);
    fmt::format_to(it, "| {:<{}} ", r.counter, counter_w);
    fmt::format_to(it, "| {:>15} ", r.dispatches);
    // Whole values (counts, bytes) print exactly; ratios and rates with 6 significant digits.
    for (double v : {r.min, r.mean, r.max}) {
      if (v == std::floor(v) && std::fabs(v) < 1e15)
        fmt::format_to(it, "| {:>15.0f} ", v);
      else
        fmt::format_to(it, "| {:>15.6g} ", v);
    }
    out += "|\n";
  }
  out += '\n';
  return out;
}

}  // namespace rocprof::formats::summary
