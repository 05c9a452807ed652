#include "summary/device_sample_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <vector>

#include "common/agent_names.hpp"
#include "summary/summary_table.hpp"

namespace rocprof::formats::summary {

void device_sample_stats::add(trace::record_span<trace::device_counter_sample_record> records) {
  for (const auto& r : records) {
    row& s = rows_[{r.agent_id, r.counter_id}];
    s.min = s.samples == 0 ? r.value : std::min(s.min, r.value);
    s.max = s.samples == 0 ? r.value : std::max(s.max, r.value);
    s.sum += r.value;
    s.above_zero += r.value > 0 ? 1 : 0;
    ++s.samples;
  }
}

std::string device_sample_stats::render(const trace::trace_definitions& defs,
                                        trace::agent_index_mode mode,
                                        const std::string& indent) const {
  if (rows_.empty()) return {};
  const agent_names agents{defs, mode};
  std::map<uint64_t, std::string> counters;
  for (const auto& c : defs.counters)
    counters.emplace(c.id, c.name);
  size_t counter_w = 24;
  for (const auto& entry : rows_) {
    const auto it = counters.find(entry.first.second);
    if (it != counters.end()) counter_w = std::max(counter_w, it->second.size());
  }
  const std::vector<std::pair<std::string, size_t>> columns{
      {"AGENT", 12}, {"COUNTER", counter_w}, {"SAMPLES", 12}, {"MIN", 15}, {"AVERAGE", 15},
      {"MAX", 15},   {"ABOVE_ZERO", 12}};
  std::string out;
  auto it = std::back_inserter(out);
  append_table_head(out, "DEVICE_COUNTER_SAMPLES SUMMARY", columns, indent);
  for (const auto& [key, s] : rows_) {
    const auto name = counters.find(key.second);
    out += indent;
    fmt::format_to(it, "| {:<12} ", agents.label(key.first));
    fmt::format_to(it, "| {:<{}} ", name != counters.end() ? name->second : "", counter_w);
    fmt::format_to(it, "| {:>12} ", s.samples);
    for (double v : {s.min, s.sum / static_cast<double>(s.samples), s.max})
      fmt::format_to(it, "| {:>15.6g} ", v);
    fmt::format_to(it, "| {:>11.1f}% |\n",
                   100.0 * static_cast<double>(s.above_zero) / static_cast<double>(s.samples));
  }
  out += '\n';
  return out;
}

}  // namespace rocprof::formats::summary
