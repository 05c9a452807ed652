#include "common/trace_stats.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "common/kernel_names.hpp"
#include "common/number_format.hpp"

namespace rocprof::formats {
namespace {

constexpr std::array<stats_domain_info, static_cast<size_t>(stats_domain::count)> stats_domains{{
    {stats_domain::hsa_api, "HSA_API", "hsa_api_stats"},
    {stats_domain::hip_api, "HIP_API", "hip_api_stats"},
    {stats_domain::marker_api, "MARKER_API", "marker_api_stats"},
    {stats_domain::kernel_dispatch, "KERNEL_DISPATCH", "kernel_stats"},
    {stats_domain::memory_copy, "MEMORY_COPY", "memory_copy_stats"},
    {stats_domain::scratch_memory, "SCRATCH_MEMORY", "scratch_memory_stats"},
    {stats_domain::counter_collection, "COUNTER_COLLECTION", "counter_collection_stats"},
    {stats_domain::rccl_api, "RCCL_API", "rccl_api_stats"},
    {stats_domain::memory_allocation, "MEMORY_ALLOCATION", "memory_allocation_stats"},
    {stats_domain::rocdecode_api, "ROCDECODE_API", "rocdecode_api_stats"},
    {stats_domain::rocjpeg_api, "ROCJPEG_API", "rocjpeg_api_stats"},
    {stats_domain::cuda_runtime_api, "CUDA_RUNTIME_API", "cuda_api_stats"},
    {stats_domain::cuda_driver_api, "CUDA_DRIVER_API", "cuda_api_stats"},
    {stats_domain::memory_set, "MEMORY_SET", "memory_set_stats"},
}};

constexpr bool stats_domains_complete() {
  for (size_t i = 0; i < stats_domains.size(); ++i)
    if (static_cast<size_t>(stats_domains[i].domain) != i) return false;
  return true;
}
static_assert(stats_domains_complete(), "one stats_domains row per stats_domain, in order");

constexpr uint64_t region_key_bit = uint64_t{1} << 63;

uint64_t duration_of(uint64_t start, uint64_t end) {
  return end > start ? end - start : 0;
}

}  // namespace

const stats_domain_info& info(stats_domain d) {
  return stats_domains[static_cast<size_t>(d)];
}

stats_domain stats_domain_of(trace::api_domain d) {
  auto name = trace::info(d).summary_domain;
  for (const auto& s : stats_domains)
    if (s.name == name) return s.domain;
  return stats_domain::hip_api;
}

void duration_stats::merge(const duration_stats& o) {
  if (o.count == 0) return;
  if (count == 0) {
    *this = o;
    return;
  }
  const double n = static_cast<double>(count + o.count);
  const double delta = o.mean - mean;
  mean += delta * static_cast<double>(o.count) / n;
  m2 += o.m2 + delta * delta * static_cast<double>(count) * static_cast<double>(o.count) / n;
  count += o.count;
  total += o.total;
  min = std::min(min, o.min);
  max = std::max(max, o.max);
  sum_squares += o.sum_squares;
}

double duration_stats::stddev() const {
  return std::sqrt(variance());
}

trace_stats::trace_stats(const trace::trace_definitions& defs, const trace::output_options& options)
    : defs_{&defs}, rename_{options.kernel_rename} {}

void trace_stats::add(trace::record_span<trace::api_record> records) {
  for (const auto& r : records) {
    const uint64_t key = r.message != trace::empty_string ? r.message : r.operation;
    tables_[static_cast<size_t>(stats_domain_of(r.domain))][key].add(
        duration_of(r.start_ns, r.end_ns));
  }
}

void trace_stats::add(trace::record_span<trace::kernel_dispatch_record> records) {
  auto& t = tables_[static_cast<size_t>(stats_domain::kernel_dispatch)];
  for (const auto& r : records) {
    const uint64_t key = rename_ && r.region_name != trace::empty_string
                             ? region_key_bit | r.region_name
                             : r.kernel_id;
    t[key].add(duration_of(r.start_ns, r.end_ns));
  }
}

void trace_stats::add(trace::record_span<trace::memory_copy_record> records) {
  auto& t = tables_[static_cast<size_t>(stats_domain::memory_copy)];
  for (const auto& r : records)
    t[static_cast<uint64_t>(r.direction)].add(duration_of(r.start_ns, r.end_ns));
}

void trace_stats::add(trace::record_span<trace::memory_set_record> records) {
  auto& t = tables_[static_cast<size_t>(stats_domain::memory_set)];
  for (const auto& r : records)
    t[0].add(duration_of(r.start_ns, r.end_ns));
}

void trace_stats::add(trace::record_span<trace::memory_allocation_record> records) {
  auto& t = tables_[static_cast<size_t>(stats_domain::memory_allocation)];
  for (const auto& r : records)
    t[static_cast<uint64_t>(r.operation)].add(duration_of(r.start_ns, r.end_ns));
}

void trace_stats::add(trace::record_span<trace::scratch_memory_record> records) {
  auto& t = tables_[static_cast<size_t>(stats_domain::scratch_memory)];
  for (const auto& r : records)
    t[static_cast<uint64_t>(r.operation)].add(duration_of(r.start_ns, r.end_ns));
}

std::string trace_stats::name_of(stats_domain d, uint64_t key) const {
  switch (d) {
    case stats_domain::kernel_dispatch: {
      if (key & region_key_bit)
        return std::string{defs_->str(static_cast<trace::string_id>(key & ~region_key_bit))};
      for (const auto& s : defs_->kernel_symbols)
        if (s.kernel_id == key) return std::string{symbol_display_name(s)};
      return "kernel_" + std::to_string(key);
    }
    case stats_domain::memory_copy:
      return std::string{copy_direction_name(static_cast<trace::memory_copy_direction>(key))};
    case stats_domain::memory_set:
      return std::string{memory_set_kind};
    case stats_domain::memory_allocation:
      return std::string{
          allocation_operation_name(static_cast<trace::memory_allocation_operation>(key))};
    case stats_domain::scratch_memory:
      return std::string{scratch_operation_name(static_cast<trace::scratch_memory_operation>(key))};
    default:
      return std::string{defs_->str(static_cast<trace::string_id>(key))};
  }
}

void sort_by_total(std::vector<stats_row>& rows) {
  std::stable_sort(rows.begin(), rows.end(), [](const stats_row& a, const stats_row& b) {
    if (a.stats.total != b.stats.total) return a.stats.total > b.stats.total;
    return a.name < b.name;
  });
}

std::vector<stats_row> trace_stats::rows(stats_domain d) const {
  // Different keys can share a name (two symbols with one display name): merge by name.
  std::map<std::string, duration_stats> merged;
  for (const auto& [key, st] : tables_[static_cast<size_t>(d)])
    merged[name_of(d, key)].merge(st);
  std::vector<stats_row> out;
  out.reserve(merged.size());
  for (auto& [name, st] : merged)
    out.push_back({d, name, st});
  sort_by_total(out);
  return out;
}

std::vector<stats_row> trace_stats::all_rows() const {
  std::vector<stats_row> out;
  for (size_t d = 0; d < tables_.size(); ++d) {
    auto r = rows(static_cast<stats_domain>(d));
    out.insert(out.end(), r.begin(), r.end());
  }
  return out;
}

std::vector<stats_row> trace_stats::domain_totals() const {
  std::vector<stats_row> out;
  for (size_t d = 0; d < tables_.size(); ++d) {
    if (tables_[d].empty()) continue;
    stats_row row{static_cast<stats_domain>(d), std::string{stats_domains[d].name}, {}};
    for (const auto& [key, st] : tables_[d])
      row.stats.merge(st);
    out.push_back(std::move(row));
  }
  return out;
}

bool trace_stats::empty() const {
  return std::all_of(tables_.begin(), tables_.end(), [](const table& t) { return t.empty(); });
}

}  // namespace rocprof::formats
