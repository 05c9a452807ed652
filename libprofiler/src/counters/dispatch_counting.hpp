// The dispatch counting service (dispatch_counting_service.h): per context, the tool's
// dispatch callback and either its record callback or a buffer. Backends ask at each kernel
// launch (counting_dispatch_begin) and hand the collected native values back when the kernel
// completed (counting_dispatch_end); the core evaluates the config's counters and delivers
// rocprofiler_counter_record_t's.
#pragma once

#include <atomic>
#include <cstdint>

#include "context.hpp"
#include "rocprofiler-sdk/backend/backend_abi.h"
#include "rocprofiler-sdk/dispatch_counting_service.h"

namespace rocprof::core::counters {

/// Index + 1 of the active context that counts dispatches; 0: none (the backends' HOT check).
inline std::atomic<uint32_t> g_counting_context{0};

/// contexts_changed(): recomputes g_counting_context from the active contexts.
void refresh_counting_context();
/// rocprofiler_start_context(): another active context already counts dispatches.
bool counting_conflict(const context& starting);

/// The backend services (backend_abi.h).
int counting_active();
uint64_t counting_dispatch_begin(rocprof_counted_dispatch_t* dispatch,
                                 const rocprofiler_kernel_dispatch_info_t* info,
                                 rocprofiler_async_correlation_id_t correlation_id);
void counting_dispatch_end(const rocprof_counted_dispatch_t* dispatch, const double* values,
                           uint64_t count, rocprofiler_timestamp_t start,
                           rocprofiler_timestamp_t end);

}  // namespace rocprof::core::counters
