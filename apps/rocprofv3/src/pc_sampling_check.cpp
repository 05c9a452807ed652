#include "pc_sampling_check.hpp"

#include <string_view>
#include <vector>

#include "rocprof/common/pc_sampling_check.hpp"

namespace rocprof::cli {
namespace {

constexpr std::string_view k_methods[] = {"none", "stochastic", "host_trap"};
constexpr std::string_view k_units[] = {"none", "instructions", "cycles", "time"};

template <size_t N>
int index_of(const std::string_view (&names)[N], const std::string& name) {
  for (size_t i = 0; i < N; ++i)
    if (names[i] == name) return static_cast<int>(i);
  return 0;
}

template <size_t N>
std::string name_of(const std::string_view (&names)[N], int value) {
  return value >= 0 && static_cast<size_t>(value) < N ? std::string(names[value]) : "?";
}

std::string describe(const rocprofiler_pc_sampling_configuration_t& c) {
  const bool pow2 = (c.flags & ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_INTERVAL_POW2) != 0;
  return "method " + name_of(k_methods, c.method) + ", unit " + name_of(k_units, c.unit) +
         ", interval " + std::to_string(c.min_interval) + ".." + std::to_string(c.max_interval) +
         (pow2 ? " (a power of two)" : "");
}

std::string agent_label(const rocprofiler_agent_v0_t& a) {
  return "GPU:" + std::to_string(a.logical_node_type_id) + " (" +
         (a.name != nullptr ? a.name : "") + ")";
}

}  // namespace

std::string pc_sampling_error(const gpu_agent_list& agents, const std::string& method,
                              const std::string& unit, uint64_t interval) {
  if (agents.gpus.empty()) {
    std::string why;
    for (const auto& w : agents.why_none)
      why += (why.empty() ? "" : "; ") + w;
    return "PC sampling: no GPU agent (" + why + ")";
  }
  const int m = index_of(k_methods, method), u = index_of(k_units, unit);
  for (size_t i = 0; i < agents.gpus.size(); ++i) {
    const auto& configs = agents.pc_sampling[i];
    const std::string where = agent_label(agents.gpus[i]);
    if (configs.empty()) return "PC sampling: " + where + " offers no PC sampling configuration";
    std::vector<pc_sampling::offer> offers;
    for (const auto& c : configs)
      offers.push_back(
          {static_cast<int>(c.method), static_cast<int>(c.unit), c.min_interval, c.max_interval,
           (c.flags & ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_INTERVAL_POW2) != 0});
    const auto r = pc_sampling::check_request(offers.data(), offers.size(), m, u, interval);
    const std::string asked = std::to_string(interval);
    switch (r.outcome) {
      case pc_sampling::verdict::ok:
        continue;
      case pc_sampling::verdict::not_offered: {
        std::string offered;
        for (const auto& c : configs)
          offered += (offered.empty() ? "" : "; ") + describe(c);
        return "PC sampling: " + where + " does not offer --pc-sampling-method " + method +
               " with --pc-sampling-unit " + unit + "; it offers: " + offered;
      }
      case pc_sampling::verdict::out_of_range:
        return "PC sampling: --pc-sampling-interval " + asked + " is outside what " + where +
               " offers; the nearest valid value is " + std::to_string(r.lower);
      case pc_sampling::verdict::not_power_of_two:
        return "PC sampling: --pc-sampling-interval " + asked + " must be a power of two on " +
               where + "; the nearest valid values are " + std::to_string(r.lower) + " and " +
               std::to_string(r.upper);
    }
  }
  return "";
}

void print_pc_sampling_configurations(
    std::ostream& out, const std::vector<rocprofiler_pc_sampling_configuration_t>& configs) {
  if (configs.empty()) {
    out << "    PC sampling: not available\n";
    return;
  }
  out << "    PC sampling configurations (--pc-sampling-beta-enabled):\n";
  for (const auto& c : configs) {
    const bool pow2 = (c.flags & ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_INTERVAL_POW2) != 0;
    out << "      Method: " << name_of(k_methods, c.method)
        << "\n      Unit: " << name_of(k_units, c.unit)
        << "\n      Min_Interval: " << c.min_interval << "\n      Max_Interval: " << c.max_interval
        << "\n      Flags: " << (pow2 ? "interval pow2" : "none") << "\n";
  }
}

}  // namespace rocprof::cli
