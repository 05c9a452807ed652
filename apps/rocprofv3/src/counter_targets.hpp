// What --pmc is checked against and --list-avail lists: the GPUs the profiler core sees (or, with
// --counter-chip, a chip named offline), each with its counter catalogue: the native counters
// its backend lists plus the derived counters of the definitions (shipped YAML and -E files)
// written for its architecture.
#pragma once

#include <rocprofiler-sdk/agent.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "native_counters.hpp"
#include "rocprof/counters/catalogue.hpp"
#include "rocprof/counters/definitions.hpp"

namespace rocprof::cli {

struct counter_target {
  std::string label;               // "GPU 0 (NVIDIA H100 80GB HBM3, sm_90)", "chip GH100"
  std::optional<uint64_t> device;  // the GPU's type-relative index; none for a named chip
  std::string chip;                // what the backend is asked to list ("sm_90", "GH100")
  // Agent properties as constant counters (simd_count, ...): the GPU's values, 0 offline.
  std::vector<counters::base_counter> constants;
};

// One target per GPU agent (its architecture from the agent's model name, "sm_90").
std::vector<counter_target> targets_of_agents(const std::vector<rocprofiler_agent_v0_t>& gpus);
// The chip or architecture named by --counter-chip / $ROCPROF_COUNTER_CHIP.
counter_target named_chip_target(const std::string& chip);

// A target's catalogue. Built with the native counters that the definitions or `names` use
// (not all 150 000 of an NVIDIA chip: the others are only looked up in the listing).
class target_catalogue {
 public:
  target_catalogue(const counter_target& target, const native_listing& listing,
                   const counters::definition_set& definitions, counters::counter_id_registry& ids,
                   const std::vector<std::string>& names);

  const counter_target& target() const { return *target_; }
  const native_listing& listing() const { return *listing_; }
  const counters::agent_catalogue& catalogue() const { return *catalogue_; }
  const std::string& architecture() const { return listing_->architecture; }

  // Is `name` collectable here (a native counter or an offered derived one)?
  bool offers(const std::string& name) const;
  // Why `name` is not collectable: the definitions' reason, the listing's (a bad roll-up), or
  // the closest names among every native and derived counter.
  std::string unavailable_message(const std::string& name) const;

 private:
  const counter_target* target_;
  const native_listing* listing_;
  std::unique_ptr<counters::agent_catalogue> catalogue_;
};

// Catalogues by (chip, definitions), each built once.
class catalogue_cache {
 public:
  const target_catalogue& of(const counter_target& target, const native_listing& listing,
                             const counters::definition_set& definitions,
                             const std::string& definitions_key,
                             const std::vector<std::string>& names);

 private:
  counters::counter_id_registry ids_;
  std::map<std::string, std::unique_ptr<target_catalogue>> built_;
};

}  // namespace rocprof::cli
