// The core's C entry points return a status whatever happens inside them
// (rocprof/common/c_boundary.hpp): std::bad_alloc becomes
// ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES, any other exception ROCPROFILER_STATUS_ERROR.
#pragma once

#include <utility>

#include "rocprof/common/c_boundary.hpp"
#include "rocprofiler-sdk/fwd.h"

namespace rocprof::core {

using c_boundary::guarded_call;
using c_boundary::guarded_or;

/// Runs an entry point's body (a callable returning rocprofiler_status_t); `where`: __func__.
template <typename Fn>
rocprofiler_status_t guarded(const char* where, Fn&& fn) {
  return guarded_or(where, ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES, ROCPROFILER_STATUS_ERROR,
                    std::forward<Fn>(fn));
}

}  // namespace rocprof::core
