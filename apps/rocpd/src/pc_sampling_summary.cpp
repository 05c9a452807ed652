#include "pc_sampling_summary.hpp"

#include <cstdio>
#include <cstdlib>

namespace rocprof::rocpd_cli {
namespace {

// As many as the live report ranks (formats/hotspots/pc_hotspots.cpp).
constexpr size_t top_entries = 5;

// A share as the hot-spot CSV writes it (two decimals), so the two forms agree digit for digit.
double two_decimals(double percent) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.2f", percent);
  return std::strtod(text, nullptr);
}

}  // namespace

void pc_sampling_summary::begin(const trace::trace_definitions& defs) {
  defs_ = &defs;
  samples_.clear();
}

std::string pc_sampling_summary::finish() {
  if (defs_ == nullptr || samples_.empty()) return {};
  process_report p;
  p.pid = defs_->process.pid;
  p.hostname = defs_->node.hostname;
  // Kernel names as the live report shows them by default (no rename, truncation or demangling
  // options: the live run's defaults).
  p.kernels = formats::hotspots::build_hotspots(*defs_, trace::make_span(samples_),
                                                trace::output_options{}, top_entries);
  processes_.push_back(std::move(p));
  samples_.clear();
  samples_.shrink_to_fit();
  return {};
}

std::string pc_sampling_summary::render() const {
  std::string text;
  for (const auto& p : processes_) {
    if (processes_.size() > 1)
      text += "\nprocess " + std::to_string(p.pid) + " (" + p.hostname + "):";
    text += formats::hotspots::render_hotspots(p.kernels);
  }
  return text;
}

result_table pc_sampling_summary::table(const std::string& name) const {
  result_table t;
  t.name = name;
  const bool several = processes_.size() > 1;
  if (several) t.columns = {"ProcessID", "Hostname"};
  for (const char* c : {"Kernel_Name", "Kernel_Id", "Kernel_Samples", "Kind", "Rank", "Name",
                        "Samples", "Percentage"})
    t.columns.emplace_back(c);
  for (const auto& p : processes_) {
    for (const auto& k : p.kernels) {
      const auto rows = [&](const char* kind, const std::vector<formats::hotspots::ranked>& list) {
        for (size_t i = 0; i < list.size(); ++i) {
          auto& cells = t.rows.emplace_back();
          if (several) {
            cells.push_back(cell::integer(p.pid));
            cells.push_back(cell::text(p.hostname));
          }
          cells.push_back(cell::text(k.kernel));
          cells.push_back(cell::integer(static_cast<int64_t>(k.kernel_id)));
          cells.push_back(cell::integer(static_cast<int64_t>(k.samples)));
          cells.push_back(cell::text(kind));
          cells.push_back(cell::integer(static_cast<int64_t>(i + 1)));
          cells.push_back(cell::text(list[i].name));
          cells.push_back(cell::integer(static_cast<int64_t>(list[i].samples)));
          cells.push_back(cell::real(two_decimals(list[i].percent)));
        }
      };
      rows("stall_reason", k.reasons);
      rows("location", k.locations);
      rows("instruction", k.instructions);
    }
  }
  return t;
}

}  // namespace rocprof::rocpd_cli
