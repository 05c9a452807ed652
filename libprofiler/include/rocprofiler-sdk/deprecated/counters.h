// Older counter queries that rocprofiler-sdk keeps for existing tools; rocprofiler_counter_
// info_v1_t now carries the same information.
#pragma once

#include "rocprofiler-sdk/agent.h"
#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

/// Receives a counter's dimensions (num_dims entries, valid during the call). The return value
/// is ignored.
typedef rocprofiler_status_t (*rocprofiler_available_dimensions_cb_t)(
    rocprofiler_counter_id_t id, const rocprofiler_counter_record_dimension_info_t* dim_info,
    size_t num_dims, void* user_data);

/// Calls `info_cb` once, synchronously, with the dimensions of counter `id` (a counter without
/// a hardware dimension has DIMENSION_INSTANCE of size 1). Returns COUNTER_NOT_FOUND for an
/// unknown id.
ROCPROFILER_API rocprofiler_status_t rocprofiler_iterate_counter_dimensions(
    rocprofiler_counter_id_t id, rocprofiler_available_dimensions_cb_t info_cb, void* user_data);

/// How many values counter `counter_id` reports per dispatch (the product of its dimensions'
/// sizes). Returns COUNTER_NOT_FOUND for an unknown id.
ROCPROFILER_API rocprofiler_status_t rocprofiler_query_counter_instance_count(
    rocprofiler_agent_id_t agent_id, rocprofiler_counter_id_t counter_id, size_t* instance_count)
    ROCPROFILER_NONNULL(3);

ROCPROFILER_EXTERN_C_FINI
