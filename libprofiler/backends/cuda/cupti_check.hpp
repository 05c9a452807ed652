// The one checked-call macro for CUPTI: every call the backend makes goes through it. On
// failure it prints the expression, file:line, CUPTI's own error string and the numeric code
// once to stderr and yields false; it never aborts the profiled application.
#pragma once

#include <cupti.h>

#include "cupti_api.hpp"

namespace rocprof::cuda {

// Prints the failure; returns r == CUPTI_SUCCESS. Not for the hot path (it may print).
bool report_cupti_result(cupti_api& api, CUptiResult r, const char* expr, const char* file,
                         int line);

// The same report with CUPTI's error text already looked up, for the other wrappers over CUPTI
// (metrics/profiler_host_api.hpp overloads report_cupti_result with it).
bool report_cupti_failure(const char* error_text, CUptiResult r, const char* expr, const char* file,
                          int line);

}  // namespace rocprof::cuda

// ROCPROF_CUPTI_CALL(api, api.activity_enable(kind)) -> bool
#define ROCPROF_CUPTI_CALL(api, expr) \
  ::rocprof::cuda::report_cupti_result((api), (expr), #expr, __FILE__, __LINE__)
