// The counters one agent offers: the base (native) counters its backend supplies at run time,
// plus the derived counters of the definitions whose `architectures` list the agent's
// architecture and whose every reference resolves on this agent. Vendor free: the CUDA backend
// feeds NVIDIA metric names (smsp__warps_launched.sum, ...), a ROCm backend would feed AMD's.
//
// Not thread-safe to build; const methods may be called from any thread once built.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "rocprof/counters/definitions.hpp"
#include "rocprof/counters/value.hpp"

namespace rocprof::counters {

// One native counter as the backend describes it.
struct base_counter {
  std::string name;  // collectable as is, e.g. "smsp__warps_launched.sum"
  std::string description;
  std::string block;                  // hardware unit (NVIDIA: sm, smsp, dram, lts, ...)
  std::vector<dimension> dimensions;  // empty: one value per dispatch
  // An agent property (simd_count, ...): never collected, its value is constant_value.
  bool is_constant = false;
  double constant_value = 0;
  // The hardware adds a level into this counter every cycle (NVIDIA's "cumulative # of ..."
  // metrics): accumulate(X, HIGH_RES | LOW_RES) accepts only such counters.
  bool accumulates_per_cycle = false;
};

// A constant base counter named after a rocprofiler_agent_t field (see README.md).
base_counter agent_constant(std::string name, double value, std::string description);

// What --list-avail and rocprofiler_query_counter_info report.
struct counter_info {
  uint64_t id = 0;
  std::string name;
  std::string description;
  std::string block;       // base counters
  std::string expression;  // derived counters
  bool is_constant = false;
  bool is_derived = false;
  std::vector<dimension> dimensions;  // empty: a single value
};

// Counter ids: one per name for the whole process, whichever agent names it first, so the same
// counter has the same id on every agent (rocpd_info_pmc keeps one row per id). Ids start at 1
// (0 is rocprofiler's null handle) and follow the order names are first seen, so the same
// inputs give the same ids on every run.
class counter_id_registry {
 public:
  uint64_t id_of(std::string_view name);
  std::optional<std::string> name_of(uint64_t id) const;

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, uint64_t> ids_;
  std::vector<std::string> names_;
};

// Values collected for one dispatch, by base counter name; nullptr when not collected.
using base_value_lookup = std::function<const counter_value*(std::string_view name)>;

inline constexpr size_t max_derivation_depth = 64;  // derived counters built on derived ones

class agent_catalogue {
 public:
  agent_catalogue(std::string architecture, std::vector<base_counter> base,
                  const definition_set& definitions, counter_id_registry& ids);

  const std::string& architecture() const { return architecture_; }
  // Every counter offered: base counters in the backend's order, then derived counters in the
  // order of the definitions.
  const std::vector<counter_info>& counters() const { return offered_; }
  const counter_info* find(std::string_view name) const;
  const counter_info* find(uint64_t id) const;

  // Why a name that the definitions know is not offered here ("" when offered or never heard
  // of): e.g. "needs 'dram__bytes_read.sum', which agent sm_120 does not provide".
  std::string why_unavailable(std::string_view name) const;
  // The message for a name that is not offered: the reason, or the closest names.
  std::string unavailable_message(std::string_view name) const;
  // Up to `limit` offered names closest to `name` (edit distance, case-insensitive).
  std::vector<std::string> closest_names(std::string_view name, size_t limit = 5) const;

  // The base counters that must be collected for `names` (constants excluded), each once, in
  // first-use order: what pass planning works on.
  result<std::vector<std::string>> required_base_counters(std::string_view name) const;
  result<std::vector<std::string>> required_base_counters(
      const std::vector<std::string>& names) const;

  // The value of `name` for one dispatch from the collected base values.
  result<counter_value> evaluate(std::string_view name, const base_value_lookup& values) const;
  // Several at once, sharing the evaluation of common sub-counters.
  result<std::vector<counter_value>> evaluate(const std::vector<std::string>& names,
                                              const base_value_lookup& values) const;

  // Notes from building (shadowed definitions, duplicate base names), for logs.
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  friend class catalogue_builder;
  friend class catalogue_evaluator;

  // An offered derived counter: indices into definitions_ (indices, not pointers, so that a
  // catalogue copies and moves safely).
  struct derived_counter {
    size_t entry = 0;       // definitions_.counters()[entry]
    size_t definition = 0;  // ...definitions[definition]
  };
  const counter_entry& entry_of(const derived_counter& d) const {
    return definitions_.counters()[d.entry];
  }
  const counter_definition& definition_of(const derived_counter& d) const {
    return entry_of(d).definitions[d.definition];
  }

  std::string architecture_;
  definition_set definitions_;  // a copy: derived counters refer into it
  std::vector<base_counter> base_;
  std::unordered_map<std::string, size_t> base_index_;
  std::vector<derived_counter> derived_;  // available ones only
  std::unordered_map<std::string, size_t> derived_index_;
  std::vector<counter_info> offered_;
  std::unordered_map<std::string, size_t> offered_by_name_;
  std::unordered_map<uint64_t, size_t> offered_by_id_;
  std::unordered_map<std::string, std::string> unavailable_;  // name -> reason
  std::vector<std::string> notes_;
};

}  // namespace rocprof::counters
