#include "common/counter_stats.hpp"

#include <algorithm>
#include <limits>

namespace rocprof::formats {

using namespace rocprof::trace;

counter_stats::counter_stats(const trace_definitions& defs, const output_options& options)
    : defs_(&defs), names_(defs, options) {
  for (const auto& c : defs.counters)
    counter_names_.emplace(c.id, &c.name);
}

void counter_stats::add(record_span<counter_dispatch_record> records) {
  for (const auto& r : records)
    kernel_of_dispatch_.emplace(r.dispatch.dispatch_id, std::string(names_.name(r.dispatch)));
}

void counter_stats::add(record_span<kernel_dispatch_record> records) {
  for (const auto& r : records)
    kernel_of_dispatch_.emplace(r.dispatch_id, std::string(names_.name(r)));
}

void counter_stats::add(record_span<counter_value_record> records) {
  for (const auto& r : records)
    values_[{r.dispatch_id, r.counter_id}] += r.value;
}

std::vector<counter_stats_row> counter_stats::rows() const {
  struct fold {
    uint64_t n = 0;
    double min = std::numeric_limits<double>::infinity();
    double max = -std::numeric_limits<double>::infinity();
    double total = 0;
  };
  std::map<std::pair<std::string, std::string>, fold> folded;
  for (const auto& [key, value] : values_) {
    const auto kernel = kernel_of_dispatch_.find(key.first);
    const auto counter = counter_names_.find(key.second);
    auto& f =
        folded[{kernel != kernel_of_dispatch_.end() ? kernel->second : std::string(),
                counter != counter_names_.end() ? *counter->second : std::to_string(key.second)}];
    ++f.n;
    f.min = std::min(f.min, value);
    f.max = std::max(f.max, value);
    f.total += value;
  }
  std::vector<counter_stats_row> out;
  out.reserve(folded.size());
  for (const auto& [key, f] : folded)
    out.push_back(
        {key.first, key.second, f.n, f.min, f.max, f.total / static_cast<double>(f.n), f.total});
  return out;
}

}  // namespace rocprof::formats
