// External correlation ids: a per-thread, per-context stack of user values copied into the
// correlation_id.external field of every record made on that thread.
#pragma once

#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

/// thread_id must be the calling thread's id (rocprofiler_get_thread_id); other threads'
/// stacks cannot be changed (ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND), which keeps reading
/// the stack on the hot path lock-free.
ROCPROFILER_API rocprofiler_status_t rocprofiler_push_external_correlation_id(
    rocprofiler_context_id_t context, rocprofiler_thread_id_t thread_id,
    rocprofiler_user_data_t external_correlation_id);

/// Pops the innermost value into *external_correlation_id (may be NULL).
/// ROCPROFILER_STATUS_ERROR if the stack was empty.
ROCPROFILER_API rocprofiler_status_t rocprofiler_pop_external_correlation_id(
    rocprofiler_context_id_t context, rocprofiler_thread_id_t thread_id,
    rocprofiler_user_data_t* external_correlation_id);

ROCPROFILER_EXTERN_C_FINI
