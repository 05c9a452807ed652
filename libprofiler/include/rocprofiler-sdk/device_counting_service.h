// Device counting: hardware counters of a whole agent (GPU), read whenever the tool asks,
// whatever kernels of whichever process run. Names, types and status codes follow
// rocprofiler-sdk's device counting service.
//
// Life cycle:
//  * during tool initialisation, rocprofiler_configure_device_counting_service(context,
//    buffer or {0}, agent, callback, user_data) once per agent and context;
//  * rocprofiler_start_context(context) calls `callback` once per configured agent on the
//    starting thread; the tool passes the counter config to collect to `set_config` (inside
//    the callback only: elsewhere set_config returns CONFIGURATION_LOCKED). An agent whose
//    callback sets no config is not sampled. Collection starts before start_context returns;
//  * rocprofiler_sample_device_counting_service(context, ...) reads, for every agent of the
//    context, what the counters accumulated since the context started or, after the first
//    sample, since the previous sample: idle agents read 0;
//  * rocprofiler_stop_context(context) stops collection; starting it again calls the callbacks
//    again and counting restarts from zero.
//
// Only one active context may sample a given agent (starting a second returns
// CONTEXT_CONFLICT). Records carry dispatch_id 0, the agent's id and the user_data passed to
// the sample call; derived counters are evaluated over the accumulated native values exactly as
// for dispatch counting.
//
// CUDA specifics: collection is CUPTI PM sampling of the device (single-pass counter configs
// only: a config needing more passes makes start_context return EXCEEDS_HW_LIMIT and names the
// counters on stderr). The hardware samples every ROCPROF_DEVICE_COUNTING_INTERVAL_NS (default
// 1 000 000 ns) and a sample call returns what the hardware samples completed so far hold, so
// its resolution is that interval. The first start on a device takes ~0.5-1 s (CUPTI set-up).
#pragma once

#include "rocprofiler-sdk/agent.h"
#include "rocprofiler-sdk/counter_config.h"
#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

/// What the tool calls, inside rocprofiler_device_counting_service_cb_t only, to choose the
/// counter config of the agent the callback was called for.
/// Returns CONTEXT_INVALID (no such context, or it has no device counting service),
/// PROFILE_NOT_FOUND (no such config, or destroyed), CONFIGURATION_LOCKED (called outside the
/// callback), AGENT_MISMATCH (the config belongs to an agent the context does not sample),
/// SUCCESS.
typedef rocprofiler_status_t (*rocprofiler_device_counting_agent_cb_t)(
    rocprofiler_context_id_t context_id, rocprofiler_counter_config_id_t config_id);

/// Called when the context starts, on the thread calling rocprofiler_start_context, once per
/// agent configured for it; user_data is the one given to the configure call.
typedef void (*rocprofiler_device_counting_service_cb_t)(
    rocprofiler_context_id_t context_id, rocprofiler_agent_id_t agent_id,
    rocprofiler_device_counting_agent_cb_t set_config, void* user_data);

/// Configures device counting of `agent_id` in `context_id`. buffer_id {0}: values go only to
/// the output array of synchronous sample calls. During tool initialisation only.
/// Returns CONTEXT_NOT_FOUND, BUFFER_NOT_FOUND, AGENT_NOT_FOUND, INVALID_ARGUMENT (no callback),
/// SERVICE_ALREADY_CONFIGURED (the context already counts this agent), CONFIGURATION_LOCKED,
/// BACKEND_NOT_LOADED (no backend serves counters), SUCCESS.
rocprofiler_status_t rocprofiler_configure_device_counting_service(
    rocprofiler_context_id_t context_id, rocprofiler_buffer_id_t buffer_id,
    rocprofiler_agent_id_t agent_id, rocprofiler_device_counting_service_cb_t cb, void* user_data)
    ROCPROFILER_NONNULL(4) ROCPROFILER_API;

/// Reads the counters of every agent the context samples (see the life cycle above).
/// flags ROCPROFILER_COUNTER_FLAG_NONE: synchronous; the records go to output_records (when not
/// NULL; *rec_count: its room on entry, the records written on exit) and to the buffer (when
/// configured). ROCPROFILER_COUNTER_FLAG_ASYNC: the records go to the buffer only, written by
/// the core's sampling thread after the call returned.
/// Returns CONTEXT_NOT_FOUND, FINALIZED, CONTEXT_NOT_STARTED (not active), CONTEXT_INVALID (no
/// device counting service), INVALID_ARGUMENT (output_records with ASYNC or without
/// rec_count), OUT_OF_RESOURCES (output_records too small; nothing is written to it then),
/// CONTEXT_ERROR (another sample, start or stop of this context is in progress), ERROR (the
/// backend failed to read), SUCCESS.
rocprofiler_status_t rocprofiler_sample_device_counting_service(
    rocprofiler_context_id_t context_id, rocprofiler_user_data_t user_data,
    rocprofiler_counter_flag_t flags, rocprofiler_counter_record_t* output_records,
    size_t* rec_count) ROCPROFILER_API;

/// Older name of rocprofiler_device_counting_agent_cb_t.
typedef rocprofiler_device_counting_agent_cb_t rocprofiler_agent_set_profile_callback_t;

ROCPROFILER_EXTERN_C_FINI
