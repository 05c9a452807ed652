// Contexts bundle services (buffer tracing, callback tracing, ...). Services of a context
// deliver only while it is started. Contexts and services are created during tool
// initialisation; start/stop may be called at any time afterwards, callbacks included.
#pragma once

#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

/// *context_id must be zero on entry (else ROCPROFILER_STATUS_ERROR_CONTEXT_ID_NOT_ZERO).
ROCPROFILER_API rocprofiler_status_t
rocprofiler_create_context(rocprofiler_context_id_t* context_id) ROCPROFILER_NONNULL(1);
ROCPROFILER_API rocprofiler_status_t rocprofiler_start_context(rocprofiler_context_id_t context_id);
ROCPROFILER_API rocprofiler_status_t rocprofiler_stop_context(rocprofiler_context_id_t context_id);
ROCPROFILER_API rocprofiler_status_t rocprofiler_context_is_active(
    rocprofiler_context_id_t context_id, int* status) ROCPROFILER_NONNULL(2);
ROCPROFILER_API rocprofiler_status_t rocprofiler_context_is_valid(
    rocprofiler_context_id_t context_id, int* status) ROCPROFILER_NONNULL(2);

ROCPROFILER_EXTERN_C_FINI
