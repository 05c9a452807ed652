// The external-correlation-id request service: tools asked for the external id of a call or of
// the GPU work it launches, on the calling thread, before the records exist.
#pragma once

#include <cstdint>

#include "rocprofiler-sdk/callback_tracing.h"
#include "rocprofiler-sdk/external_correlation.h"

namespace rocprof::core {

struct thread_state;

/// HOT when nobody asks (one bit test). Asks the active contexts with a request service for
/// `kind`, in context order; the first tool that answers (returns 0) sets *external. Returns
/// whether one did.
bool request_external_id(thread_state* st, rocprofiler_external_correlation_id_request_kind_t kind,
                         rocprofiler_tracing_operation_t operation, uint64_t internal_id,
                         rocprofiler_user_data_t* external);

/// The request kind of an API callback-tracing kind (NONE for kinds that are no API).
rocprofiler_external_correlation_id_request_kind_t request_kind_of(
    rocprofiler_callback_tracing_kind_t kind);

}  // namespace rocprof::core
