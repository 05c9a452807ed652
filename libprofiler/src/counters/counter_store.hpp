// The process's counters: the counter definitions (the shipped counter_defs.yaml plus what
// rocprofiler_load_counter_definition / rocprofiler_create_counter added), one catalogue per
// agent built from the native counters its backend lists (rocprof::counters does the
// resolution and evaluation), counter ids shared by all agents, and dimension ids.
//
// Catalogues are immutable snapshots held by shared_ptr: adding a counter builds a new one,
// and configs keep the snapshot they were made with. Everything here takes the store's mutex;
// none of it is on a hot path (the dispatch counting path only reads a config's snapshot).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "rocprof/counters/catalogue.hpp"
#include "rocprof/counters/definitions.hpp"
#include "rocprofiler-sdk/backend/backend_abi.h"

namespace rocprof::core::counters {

namespace rc = rocprof::counters;

/// One agent's counters at one moment.
struct agent_counters {
  rocprofiler_agent_id_t agent{};
  rocprof_backend_t backend{};  // the backend that owns the agent (its ABI table)
  std::string architecture;     // as the definitions name it, e.g. "sm_90"
  std::shared_ptr<const rc::agent_catalogue> catalogue;
};

/// Where a counter id was last described (the most recent catalogue offering it).
struct counter_ref {
  std::shared_ptr<const agent_counters> owner;
  const rc::counter_info* info = nullptr;  // into owner->catalogue
};

class counter_store {
 public:
  static counter_store& get();

  /// The agent's counters, building its catalogue on first use. Status on failure:
  /// AGENT_NOT_FOUND, AGENT_ARCH_NOT_SUPPORTED (no backend lists counters for it),
  /// BACKEND_NOT_LOADED.
  rocprofiler_status_t agent(rocprofiler_agent_id_t id, std::shared_ptr<const agent_counters>& out);

  /// What a counter id names (any agent); false when unknown.
  bool find(uint64_t counter_id, counter_ref& out);

  /// rocprofiler_load_counter_definition: only before the first catalogue is built.
  rocprofiler_status_t load_definitions(const std::string& yaml, rc::merge_mode mode,
                                        std::vector<std::string>& problems);

  /// rocprofiler_create_counter: a derived counter on one agent.
  rocprofiler_status_t add_derived(rocprofiler_agent_id_t agent, const std::string& name,
                                   const std::string& expression, const std::string& description,
                                   uint64_t& counter_id, std::string& why);

  /// A native counter the backend describes on request (not in its listing); its id.
  rocprofiler_status_t add_native(rocprofiler_agent_id_t agent, const std::string& name,
                                  uint64_t& counter_id, std::string& why);

  /// The id of a dimension name: rocprofiler-sdk's DIMENSION_* keep their values (XCC = 1 ...
  /// INSTANCE = 7); any other name gets the next free id from 8.
  uint64_t dimension_id(const std::string& name);

 private:
  struct agent_state {
    std::shared_ptr<const agent_counters> current;
    std::vector<rc::base_counter> base;  // the backend's listing plus natives added later
    rc::definition_set definitions;      // the process's plus this agent's created counters
  };

  void ensure_definitions_locked();
  rocprofiler_status_t build_locked(rocprofiler_agent_id_t id, agent_state& state,
                                    const rocprof_backend_t& backend,
                                    const std::string& architecture);
  agent_state* state_locked(rocprofiler_agent_id_t id, rocprofiler_status_t& status);

  std::mutex mutex_;
  bool definitions_loaded_ = false;
  bool catalogue_built_ = false;  // load_definitions is refused afterwards
  rc::definition_set definitions_;
  rc::counter_id_registry ids_;
  std::unordered_map<uint64_t, agent_state> agents_;
  std::unordered_map<uint64_t, counter_ref> by_id_;
  std::unordered_map<std::string, uint64_t> dimension_ids_;
};

}  // namespace rocprof::core::counters
