#include "rocprof/counters/pass_plan.hpp"

#include <algorithm>

namespace rocprof::counters {
namespace {

std::string joined(const std::vector<std::string>& names, const char* separator) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : separator) + names[i];
  return out;
}

void add_unique(std::vector<std::string>& into, const std::vector<std::string>& names) {
  for (const auto& n : names)
    if (std::find(into.begin(), into.end(), n) == into.end()) into.push_back(n);
}

}  // namespace

std::string pass_plan::error_text(const std::string& architecture) const {
  if (fits_one_pass()) return {};
  std::string out = "the counters " + joined(requested, ", ") + " need " + std::to_string(passes) +
                    " hardware passes on " + architecture +
                    " (base counters: " + joined(base_counters, ", ") +
                    "), and one run collects one pass unless --replay-mode is given.";
  if (!multi_pass_counters.empty())
    return out + " " + joined(multi_pass_counters, ", ") +
           (multi_pass_counters.size() == 1 ? " needs" : " need") +
           " several passes even alone: collect " +
           (multi_pass_counters.size() == 1 ? "it" : "them") +
           " with --replay-mode kernel or --replay-mode application.";
  out += " A split that fits one pass each:";
  for (const auto& group : one_pass_groups)
    out += " --pmc " + joined(group, " ");
  return out + " (or add --replay-mode kernel).";
}

result<pass_plan> plan_passes(const agent_catalogue& catalogue,
                              const std::vector<std::string>& requested,
                              const pass_counter& count_passes) {
  pass_plan plan;
  add_unique(plan.requested, requested);
  auto bases = catalogue.required_base_counters(plan.requested);
  if (!bases) return bases.failure();
  plan.base_counters = std::move(bases).value();
  if (plan.base_counters.empty()) return plan;  // constants only: nothing to collect
  plan.passes = count_passes(plan.base_counters);
  if (plan.passes == 0)
    return error{"the backend cannot configure the base counters " +
                 joined(plan.base_counters, ", ") + " on " + catalogue.architecture()};
  if (plan.fits_one_pass()) return plan;

  // Bin packing, first-fit decreasing with best fit: counters needing more base counters are
  // placed first, each into the group it grows least (shared base counters cost nothing) while
  // that group still takes one pass. Within a group counters keep the request order.
  struct sized {
    size_t index;                    // in plan.requested
    std::vector<std::string> bases;  // its own base counters
  };
  std::vector<sized> order;
  for (size_t i = 0; i < plan.requested.size(); ++i) {
    auto own = catalogue.required_base_counters(plan.requested[i]);
    if (!own) return own.failure();
    if (!own->empty() && count_passes(*own) != 1)
      plan.multi_pass_counters.push_back(plan.requested[i]);
    else
      order.push_back({i, std::move(own).value()});
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const sized& a, const sized& b) { return a.bases.size() > b.bases.size(); });
  std::vector<std::vector<std::string>> group_bases;
  std::vector<std::vector<size_t>> group_members;
  for (const auto& item : order) {
    size_t best = group_bases.size();
    size_t best_growth = 0;
    for (size_t g = 0; g < group_bases.size(); ++g) {
      auto merged = group_bases[g];
      add_unique(merged, item.bases);
      const size_t growth = merged.size() - group_bases[g].size();
      if ((best == group_bases.size() || growth < best_growth) && count_passes(merged) == 1) {
        best = g;
        best_growth = growth;
      }
    }
    if (best == group_bases.size()) {
      group_bases.emplace_back();
      group_members.emplace_back();
    }
    add_unique(group_bases[best], item.bases);
    group_members[best].push_back(item.index);
  }
  for (auto& members : group_members) {
    std::sort(members.begin(), members.end());
    plan.one_pass_groups.emplace_back();
    for (const size_t i : members)
      plan.one_pass_groups.back().push_back(plan.requested[i]);
  }
  if (!plan.multi_pass_counters.empty()) plan.one_pass_groups.clear();
  return plan;
}

}  // namespace rocprof::counters
