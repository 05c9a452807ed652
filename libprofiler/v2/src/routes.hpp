// What an active session collects, fixed when it starts: one route per filter, each naming
// its buffer. Read without a lock by the core's delivery thread and by the application's
// threads (synchronous API callbacks): a started session publishes its routes through one
// atomic pointer and they are never freed (a reader may still hold them after the session
// ends; a few hundred bytes per start).
#pragma once

#include <memory>
#include <regex>
#include <string>
#include <unordered_set>
#include <vector>

#include "core_events.hpp"
#include "record_buffer.hpp"
#include "rocprofiler/v2/rocprofiler.h"

namespace rocprof::v2 {

struct route {
  rocprofiler_filter_kind_t kind = ROCPROFILER_API_TRACE;
  uint32_t domains = 0;                        // API_TRACE: bit per activity domain
  std::unordered_set<std::string> functions;   // API_TRACE: only these API names (empty: all)
  std::vector<std::regex> kernel_names;        // DISPATCH_TIMESTAMPS: only matching kernels
  std::shared_ptr<record_buffer> buffer;       // may be null for a sync-callback-only filter
  rocprofiler_sync_callback_t sync = nullptr;  // API_TRACE: ENTER/EXIT callback
};

struct session_routes {
  rocprofiler_session_id_t session{};
  std::vector<route> routes;
  bool sync = false;  // some route has a synchronous callback
};

/// Converts one core record into the v2 records of every route that takes it.
void route_event(const session_routes& active, const core_event& event);
/// Calls the synchronous callbacks that take one API call boundary.
void route_sync_event(const session_routes& active, const core_event& event, bool enter);

}  // namespace rocprof::v2
