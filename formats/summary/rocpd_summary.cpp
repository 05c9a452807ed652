// `rocpd summary`'s tables from the records (see rocprof/formats/rocpd_summary.hpp). The views
// and names follow AMD's SQL: kernels by kernel name, memory_copies by direction,
// memory_allocations by type (ALLOC / FREE), scratch_memory by operation, one view per region
// category prefix (hip, hsa, cuda, ...) by API name, markers by message. Ours beside them:
// memory_sets (CUDA memsets, absent from AMD's memory_copies view).
#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <unordered_map>

#include "common/kernel_names.hpp"
#include "common/number_format.hpp"
#include "common/trace_stats.hpp"
#include "rocprof/formats/rocpd_summary.hpp"

namespace rocprof::formats::rocpd {
namespace {

using namespace rocprof::trace;

using name_stats = std::map<std::string, duration_stats>;
using view_stats = std::map<std::string, name_stats>;  // view name -> names

uint64_t duration_of(uint64_t start, uint64_t end) {
  return end > start ? end - start : 0;
}

std::string prefix_of(std::string_view category) {
  return std::string{category.substr(0, category.find('_'))};
}

std::string lower(std::string s) {
  for (auto& c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Views in the order AMD creates them: the data views, then the region categories (in the
// domain table's order), then markers; memory_sets (ours) after AMD's data views.
std::vector<std::string> view_order() {
  std::vector<std::string> order = {"kernels", "memory_copies", "memory_allocations",
                                    "scratch_memory", "memory_sets"};
  for (const auto& d : domain_table) {
    const auto p = lower(prefix_of(d.category));
    if (p != "marker" && std::find(order.begin(), order.end(), p) == order.end())
      order.push_back(p);
  }
  order.push_back("markers");
  return order;
}

summary_row row_of(const std::string& name, const duration_stats& s) {
  summary_row r;
  r.name = name;
  r.calls = s.count;
  r.total_ns = s.total;
  r.min_ns = s.count ? s.min : 0;
  r.max_ns = s.max;
  r.average_ns = s.average();
  if (s.count > 1) r.stddev_ns = s.stddev();
  return r;
}

void sort_and_percent(std::vector<summary_row>& rows, bool by_rank) {
  std::map<int64_t, uint64_t> totals;
  for (const auto& r : rows)
    totals[by_rank ? r.pid : 0] += r.total_ns;
  for (auto& r : rows) {
    const auto t = totals[by_rank ? r.pid : 0];
    r.percent = t ? 100.0 * static_cast<double>(r.total_ns) / static_cast<double>(t) : 0.0;
  }
  std::stable_sort(rows.begin(), rows.end(), [by_rank](const summary_row& a, const summary_row& b) {
    if (by_rank && a.pid != b.pid) return a.pid < b.pid;
    if (a.total_ns != b.total_ns) return a.total_ns > b.total_ns;
    return a.name < b.name;
  });
}

class collector final : public summary_collector {
 public:
  explicit collector(summary_request request) : request_{std::move(request)} {
    for (auto& c : request_.region_categories)
      for (auto& ch : c)
        ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  }
  using writer::write;

  void begin(const trace_definitions& defs) override {
    defs_ = &defs;
    kernels_.emplace(defs, output_options{});
    current_ = {};
    for (size_t d = 0; d < domain_table.size(); ++d) {
      const auto prefix = prefix_of(domain_table[d].category);
      const bool wanted =
          request_.region_categories.empty() ||
          std::find(request_.region_categories.begin(), request_.region_categories.end(), prefix) !=
              request_.region_categories.end();
      api_view_[d] = !wanted ? "" : prefix == "MARKER" ? "markers" : lower(prefix);
    }
  }

  void write(record_span<api_record> records) override {
    for (const auto& r : records) {
      const auto& view = api_view_[static_cast<size_t>(r.domain)];
      if (view.empty()) continue;
      const auto name = view == "markers" ? api_display_name(*defs_, r) : defs_->str(r.operation);
      add(view, name, duration_of(r.start_ns, r.end_ns));
    }
  }
  void write(record_span<kernel_dispatch_record> records) override {
    for (const auto& r : records)
      add("kernels", kernels_->name(r.kernel_id, empty_string), duration_of(r.start_ns, r.end_ns));
  }
  void write(record_span<memory_copy_record> records) override {
    for (const auto& r : records)
      add("memory_copies", copy_direction_name(r.direction), duration_of(r.start_ns, r.end_ns));
  }
  void write(record_span<memory_set_record> records) override {
    for (const auto& r : records)
      add("memory_sets", memory_set_kind, duration_of(r.start_ns, r.end_ns));
  }
  void write(record_span<memory_allocation_record> records) override {
    for (const auto& r : records) {
      const bool is_free = r.operation == memory_allocation_operation::free ||
                           r.operation == memory_allocation_operation::vmem_free;
      add("memory_allocations", is_free ? "FREE" : "ALLOC", duration_of(r.start_ns, r.end_ns));
    }
  }
  void write(record_span<scratch_memory_record> records) override {
    for (const auto& r : records) {
      const char* op = r.operation == scratch_memory_operation::alloc  ? "ALLOC"
                       : r.operation == scratch_memory_operation::free ? "FREE"
                                                                       : "RECLAIM";
      add("scratch_memory", op, duration_of(r.start_ns, r.end_ns));
    }
  }
  // No duration: AMD's summary skips the counter and pmc views.
  void write(record_span<counter_value_record> r) override { ignore_records(r); }
  void write(record_span<device_counter_sample_record> r) override { ignore_records(r); }
  void write(record_span<pc_sample_record> r) override { ignore_records(r); }

  std::string finish() override {
    if (!defs_) return "summary collector finished before begin()";
    for (const auto& [view, names] : current_)
      for (const auto& [name, stats] : names) {
        all_[view][name].merge(stats);
        if (request_.by_rank) {
          auto row = row_of(name, stats);
          row.pid = defs_->process.pid;
          row.hostname = defs_->node.hostname;
          ranks_[view].push_back(std::move(row));
        }
      }
    current_.clear();
    return {};
  }

  std::vector<summary_table> tables() const override {
    std::vector<summary_table> out;
    std::vector<summary_table> by_rank;
    for (const auto& view : view_order()) {
      const auto it = all_.find(view);
      if (it == all_.end()) continue;
      summary_table t{view + "_summary", false, {}};
      for (const auto& [name, stats] : it->second)
        t.rows.push_back(row_of(name, stats));
      sort_and_percent(t.rows, false);
      out.push_back(std::move(t));
      if (const auto r = ranks_.find(view); r != ranks_.end()) {
        summary_table rt{view + "_summary_by_rank", true, r->second};
        sort_and_percent(rt.rows, true);
        by_rank.push_back(std::move(rt));
      }
    }
    if (request_.domain_summary) {
      out.push_back(domain_table_of(out, false));
      if (request_.by_rank) by_rank.push_back(domain_table_of(by_rank, true));
    }
    out.insert(out.end(), by_rank.begin(), by_rank.end());
    return out;
  }

 private:
  void add(const std::string& view, std::string_view name, uint64_t duration) {
    current_[view][std::string{name}].add(duration);
  }

  // One row per view (per process when by rank): AMD's domain_summary sums calls, durations,
  // averages and deviations, and takes the extremes of min and max.
  static summary_table domain_table_of(const std::vector<summary_table>& tables, bool by_rank) {
    summary_table d{by_rank ? "domain_summary_by_rank" : "domain_summary", by_rank, {}};
    std::map<std::pair<int64_t, std::string>, summary_row> rows;
    for (const auto& t : tables) {
      const std::string suffix = by_rank ? "_summary_by_rank" : "_summary";
      std::string domain = t.name.substr(0, t.name.size() - suffix.size());
      for (auto& c : domain)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      for (const auto& r : t.rows) {
        auto [it, fresh] = rows.try_emplace({by_rank ? r.pid : 0, domain});
        auto& s = it->second;
        if (fresh) {
          s.name = domain;
          s.pid = r.pid;
          s.hostname = r.hostname;
          s.min_ns = r.min_ns;
        }
        s.calls += r.calls;
        s.total_ns += r.total_ns;
        s.average_ns += r.average_ns;
        s.min_ns = std::min(s.min_ns, r.min_ns);
        s.max_ns = std::max(s.max_ns, r.max_ns);
        if (r.stddev_ns) s.stddev_ns = s.stddev_ns.value_or(0.0) + *r.stddev_ns;
      }
    }
    for (auto& [key, row] : rows)
      d.rows.push_back(std::move(row));
    sort_and_percent(d.rows, by_rank);
    return d;
  }

  summary_request request_;
  const trace_definitions* defs_ = nullptr;
  std::optional<kernel_names> kernels_;
  std::array<std::string, domain_table.size()> api_view_;
  view_stats current_, all_;
  std::map<std::string, std::vector<summary_row>> ranks_;
};

}  // namespace

std::unique_ptr<summary_collector> summary_collector::make(const summary_request& request) {
  return std::make_unique<collector>(request);
}

}  // namespace rocprof::formats::rocpd
