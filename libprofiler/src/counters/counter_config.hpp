// Counter configs (counter_config.h): a fixed set of counters of one agent, the native
// counters they need, and the backend's prepared set that collects those. Configs live until
// exit (destroying one only marks it), so a dispatch that chose a config can always be
// finished. Sets are shared: every config needing the same native counters on an agent uses
// one backend set, which spares the backend switches between them.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "counters/counter_store.hpp"

namespace rocprof::core::counters {

struct counter_config {
  uint64_t id = 0;
  rocprofiler_agent_id_t agent{};
  std::shared_ptr<const agent_counters> counters;  // the catalogue snapshot it was made with
  std::vector<std::string> names;                  // its counters, in the order given
  std::vector<uint64_t> counter_ids;
  std::vector<std::string> native;  // what the backend collects, in the set's order
  uint64_t counter_set = 0;         // the backend's set; 0: nothing to collect (constants)
  uint64_t passes = 0;
  std::atomic<bool> destroyed{false};
};

/// Creates a config (see rocprofiler_create_counter_config); `base` (id 0: none) adds its
/// counters. On failure `why` may say more for a log.
rocprofiler_status_t create_config(rocprofiler_agent_id_t agent, const uint64_t* counter_ids,
                                   size_t count, uint64_t base, uint64_t& id, std::string& why);
/// The config with this id, destroyed ones included (nullptr: never existed).
const counter_config* find_config(uint64_t id);
rocprofiler_status_t destroy_config(uint64_t id);

}  // namespace rocprof::core::counters
