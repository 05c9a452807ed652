#include "counter_targets.hpp"

#include <algorithm>
#include <set>

#include "rocprof/config/values.hpp"
#include "rocprof/counters/suggest.hpp"

namespace rocprof::cli {
namespace {

namespace rc = rocprof::counters;

// The agent properties the definitions may name (counters/README.md, "constants").
std::vector<rc::base_counter> agent_constants(double simd_count, double simd_per_cu,
                                              double array_count, double wave_front_size) {
  return {
      rc::agent_constant("simd_count", simd_count,
                         "Constant value simd_count from agent properties (NVIDIA: SMs x 4)"),
      rc::agent_constant("simd_per_cu", simd_per_cu,
                         "Constant value simd_per_cu from agent properties (NVIDIA: 4)"),
      rc::agent_constant("array_count", array_count,
                         "Constant value array_count from agent properties (NVIDIA: GPCs)"),
      rc::agent_constant("simd_arrays_per_engine", 1,
                         "Constant value simd_arrays_per_engine from agent properties"),
      rc::agent_constant("wave_front_size", wave_front_size,
                         "Constant value wave_front_size from agent properties (NVIDIA: 32)"),
  };
}

bool is_cumulative(const std::string& description) {
  return config::to_lower(description.substr(0, 10)) == "cumulative";
}

}  // namespace

std::vector<counter_target> targets_of_agents(const std::vector<rocprofiler_agent_v0_t>& gpus) {
  std::vector<counter_target> out;
  for (const auto& a : gpus) {
    counter_target t;
    const std::string model = a.model_name != nullptr ? a.model_name : "";
    t.label = "GPU " + std::to_string(a.logical_node_type_id) + " (" +
              (a.name != nullptr ? a.name : "unnamed") + ", " + model + ")";
    t.device = a.logical_node_type_id;
    t.chip = model;
    t.constants = agent_constants(a.simd_count, a.simd_per_cu, a.array_count,
                                  a.wave_front_size != 0 ? a.wave_front_size : 32);
    out.push_back(std::move(t));
  }
  return out;
}

counter_target named_chip_target(const std::string& chip) {
  counter_target t;
  t.label = "chip " + chip;
  t.chip = chip;
  // The device's numbers are unknown offline; the constants exist so that definitions using them
  // resolve, with the values a GPU of the chip would have left at 0.
  t.constants = agent_constants(0, 4, 0, 32);
  return t;
}

target_catalogue::target_catalogue(const counter_target& target, const native_listing& listing,
                                   const rc::definition_set& definitions,
                                   rc::counter_id_registry& ids,
                                   const std::vector<std::string>& names)
    : target_(&target), listing_(&listing) {
  // Native counters in use: the names the definitions of this architecture refer to, and the
  // requested ones, when the listing has them.
  std::set<std::string> wanted(names.begin(), names.end());
  for (const auto& entry : definitions.counters()) {
    const auto* def = entry.for_architecture(listing.architecture);
    if (def != nullptr && def->parsed)
      for (const auto& ref : def->parsed->references())
        wanted.insert(ref);
  }
  std::vector<rc::base_counter> base = target.constants;
  for (const auto& name : wanted) {
    if (!listing.has(name)) continue;
    const native_counter* native = listing.base_of(name);
    rc::base_counter c;
    c.name = name;
    c.description = native->description;
    c.block = native->block;
    c.accumulates_per_cycle = is_cumulative(native->description);
    base.push_back(std::move(c));
  }
  catalogue_ = std::make_unique<rc::agent_catalogue>(listing.architecture, std::move(base),
                                                     definitions, ids);
}

bool target_catalogue::offers(const std::string& name) const {
  return catalogue_->find(name) != nullptr;
}

std::string target_catalogue::unavailable_message(const std::string& name) const {
  if (auto why = catalogue_->why_unavailable(name); !why.empty()) return why;
  if (auto why = listing_->why_not(name); !why.empty()) return why;
  // Closest among every name: the chip's native counters and the catalogue's own.
  std::vector<std::string_view> candidates;
  const auto& natives = listing_->full_names();
  candidates.reserve(natives.size() + catalogue_->counters().size());
  for (const auto& n : natives)
    candidates.push_back(n);
  for (const auto& c : catalogue_->counters())
    if (c.is_derived || c.is_constant) candidates.push_back(c.name);  // natives are listed above
  const auto closest = rc::closest_names(name, candidates);
  std::string out = "unknown counter";
  if (closest.empty()) return out + " (no similar name; --list-avail lists them)";
  return out + "; closest names: " + config::join(closest, ", ");
}

const target_catalogue& catalogue_cache::of(const counter_target& target,
                                            const native_listing& listing,
                                            const rc::definition_set& definitions,
                                            const std::string& definitions_key,
                                            const std::vector<std::string>& names) {
  const std::string key = target.chip + '\n' + definitions_key;
  auto it = built_.find(key);
  if (it == built_.end()) {
    it = built_
             .emplace(key,
                      std::make_unique<target_catalogue>(target, listing, definitions, ids_, names))
             .first;
  }
  return *it->second;
}

}  // namespace rocprof::cli
