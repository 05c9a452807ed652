// Dispatch counting: hardware counters per kernel dispatch. Before each kernel launch the core
// asks the tool's dispatch callback which counter config to collect for that dispatch (or
// none); after the kernel completed, the values arrive as rocprofiler_counter_record_t's,
// either through a record callback or in a buffer. Names and semantics follow rocprofiler-sdk.
//
// Rules (as rocprofiler-sdk's):
//  * one dispatch counting service per context (a second configure call returns
//    SERVICE_ALREADY_CONFIGURED), configured during tool initialisation only;
//  * only one context that counts dispatches may be active at a time: starting a second one
//    returns CONTEXT_CONFLICT;
//  * one config per dispatch; a config must belong to the dispatch's agent (else the dispatch
//    is not counted and AGENT_MISMATCH is reported once on stderr);
//  * dispatches the callback leaves without a config run untouched, at full speed.
//
// CUDA specifics:
//  * the dispatch callback runs on the launching thread inside the launch call
//    (cuLaunchKernel / cuLaunchKernelEx, or cuGraphLaunch once per kernel node of the graph,
//    in node order), before the launch; dispatch_info.queue_id is the CUDA context,
//    grid_size counts threads (blocks x block size, as HSA's grid), dispatch_id and
//    correlation_id.internal are the ids the kernel trace gives the same dispatch;
//  * kernels launched outside a graph: the record callback runs on the launching thread
//    before the launch call returns (CUPTI replays the kernel once per hardware pass and the
//    values are final then); start_timestamp / end_timestamp bound the profiled launch on the
//    host clock (the kernel trace has the device's);
//  * kernels of a graph: values arrive when the kernel trace of that graph launch arrives
//    (the records tell kernel nodes from copy nodes), on the core's backend thread;
//  * PC sampling and counters cannot share a CUDA context: the first to start wins and the
//    other is reported once on stderr.
#pragma once

#include "rocprofiler-sdk/agent.h"
#include "rocprofiler-sdk/buffer_tracing.h"
#include "rocprofiler-sdk/counter_config.h"
#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

/// What both callbacks receive about a dispatch.
typedef struct rocprofiler_dispatch_counting_service_data_t {
  uint64_t size;  ///< sizeof(rocprofiler_dispatch_counting_service_data_t)
  rocprofiler_async_correlation_id_t correlation_id;  ///< the launch's (as the kernel trace's)
  rocprofiler_timestamp_t start_timestamp;            ///< 0 in the dispatch callback
  rocprofiler_timestamp_t end_timestamp;              ///< 0 in the dispatch callback
  rocprofiler_kernel_dispatch_info_t dispatch_info;
} rocprofiler_dispatch_counting_service_data_t;

/// The buffered form's header record (category COUNTERS, kind
/// ROCPROFILER_COUNTER_RECORD_PROFILE_COUNTING_DISPATCH_HEADER). The dispatch's num_records
/// rocprofiler_counter_record_t's (kind ROCPROFILER_COUNTER_RECORD_VALUE) follow it in the
/// same buffer.
typedef struct rocprofiler_dispatch_counting_service_record_t {
  uint64_t size;         ///< sizeof(rocprofiler_dispatch_counting_service_record_t)
  uint64_t num_records;  ///< counter records that follow
  rocprofiler_async_correlation_id_t correlation_id;
  rocprofiler_timestamp_t start_timestamp;
  rocprofiler_timestamp_t end_timestamp;
  rocprofiler_kernel_dispatch_info_t dispatch_info;  ///< holds the dispatch_id
} rocprofiler_dispatch_counting_service_record_t;

/// Called before a dispatch, on the launching thread. Set *config to the config to collect
/// (leave it {0}: not counted); *user_data (zero on entry) comes back in the records.
/// Configs may be created here (rocprofiler_create_counter_config).
typedef void (*rocprofiler_dispatch_counting_service_cb_t)(
    rocprofiler_dispatch_counting_service_data_t dispatch_data,
    rocprofiler_counter_config_id_t* config, rocprofiler_user_data_t* user_data,
    void* callback_data_args);

/// Called once per counted dispatch after it completed, with every value of every counter of
/// its config (record_data is owned by the core and valid during the call only). Used by
/// rocprofiler_configure_callback_dispatch_counting_service only.
typedef void (*rocprofiler_dispatch_counting_record_cb_t)(
    rocprofiler_dispatch_counting_service_data_t dispatch_data,
    rocprofiler_counter_record_t* record_data, size_t record_count,
    rocprofiler_user_data_t user_data, void* callback_data_args);

/// Counts dispatches into buffer `buffer_id` (of the same context): a header record, then
/// the counter records, per counted dispatch. Initialisation only. Returns
/// CONFIGURATION_LOCKED, CONTEXT_NOT_FOUND, BUFFER_NOT_FOUND, INVALID_ARGUMENT (no
/// callback), SERVICE_ALREADY_CONFIGURED, BACKEND_NOT_LOADED (no backend collects counters).
ROCPROFILER_API rocprofiler_status_t rocprofiler_configure_buffer_dispatch_counting_service(
    rocprofiler_context_id_t context_id, rocprofiler_buffer_id_t buffer_id,
    rocprofiler_dispatch_counting_service_cb_t callback, void* callback_data_args);

/// Counts dispatches and hands the values to `record_callback`. Initialisation only. Same
/// status codes (INVALID_ARGUMENT also for a missing record callback).
ROCPROFILER_API rocprofiler_status_t rocprofiler_configure_callback_dispatch_counting_service(
    rocprofiler_context_id_t context_id,
    rocprofiler_dispatch_counting_service_cb_t dispatch_callback, void* dispatch_callback_args,
    rocprofiler_dispatch_counting_record_cb_t record_callback, void* record_callback_args);

ROCPROFILER_EXTERN_C_FINI
