// Filters: what a session collects, read and checked from the caller's arguments when the
// filter is created, and turned into the session's routes when it starts.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "record_buffer.hpp"
#include "rocprofiler/v2/rocprofiler.h"
#include "routes.hpp"

namespace rocprof::v2::sessions {

struct filter_def {
  rocprofiler_filter_kind_t kind = ROCPROFILER_API_TRACE;
  uint32_t domains = 0;
  std::vector<std::string> functions;
  std::vector<std::string> kernel_patterns;
  uint64_t buffer = 0;
  rocprofiler_sync_callback_t sync = nullptr;
};

/// A filter's data, checked and copied (the caller's arrays need not outlive the call).
rocprofiler_status_t read_filter(rocprofiler_filter_kind_t kind, rocprofiler_filter_data_t data,
                                 uint64_t count, const rocprofiler_filter_property_t& property,
                                 filter_def& out);

/// The routes of a session's filters into its buffers.
rocprofiler_status_t compile_routes(
    const std::map<uint64_t, filter_def>& filters,
    const std::map<uint64_t, std::shared_ptr<record_buffer>>& buffers, rocprofiler_session_id_t id,
    session_routes& out);

}  // namespace rocprof::v2::sessions
