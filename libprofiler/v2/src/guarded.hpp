// The v2 entry points return a status whatever happens inside them
// (rocprof/common/c_boundary.hpp). v2 has no out-of-memory status: every exception becomes
// ROCPROFILER_STATUS_ERROR (reported once on stderr).
#pragma once

#include <utility>

#include "rocprof/common/c_boundary.hpp"
#include "rocprofiler/v2/rocprofiler.h"

namespace rocprof::v2 {

template <typename Fn>
rocprofiler_status_t guarded(const char* where, Fn&& fn) {
  return c_boundary::guarded_or(where, ROCPROFILER_STATUS_ERROR, std::forward<Fn>(fn));
}

}  // namespace rocprof::v2
