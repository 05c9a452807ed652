// Streaming performance monitoring (SPM): device-wide counters sampled by the hardware at a
// fixed interval, each sample with its time span, for a timeline of the agent's activity
// (rocprofv3 --spm). The configure call follows rocprofiler-sdk's
// rocprofiler_configure_spm_service; the per-sample buffer record is this project's.
//
// Every hardware sample of the config's agent becomes, in `buffer_id`, one
// rocprofiler_spm_sample_record_t per counter value (category COUNTERS, kind
// ROCPROFILER_COUNTER_RECORD_SPM_SAMPLE), written by a backend thread while the context is
// active. Values are what the counter accumulated during [start_timestamp, end_timestamp]
// (CLOCK_BOOTTIME ns, the clock of every other record); derived counters are evaluated per
// sample.
//
// CUDA specifics: CUPTI PM sampling; single-pass configs only (EXCEEDS_HW_LIMIT otherwise),
// interval >= 1000 ns (INVALID_ARGUMENT otherwise); the first sample, which spans the set-up,
// is discarded. One SPM service per agent; it cannot share an agent with the device counting
// service of another active context.
#pragma once

#include "rocprofiler-sdk/counter_config.h"
#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

/// One counter value of one hardware sample.
typedef struct rocprofiler_spm_sample_record_t {
  uint64_t size;  ///< sizeof(rocprofiler_spm_sample_record_t)
  rocprofiler_agent_id_t agent_id;
  rocprofiler_timestamp_t start_timestamp;
  rocprofiler_timestamp_t end_timestamp;
  rocprofiler_counter_instance_id_t id;  ///< decode with rocprofiler_query_record_counter_id
  double counter_value;
  uint64_t sample_index;  ///< 1, 2, ... per agent (gaps: samples the hardware lost)
} rocprofiler_spm_sample_record_t;

/// rocprofiler-sdk's SPM record (a sample's counters), kept for source compatibility; this
/// implementation writes rocprofiler_spm_sample_record_t's instead.
typedef struct rocprofiler_spm_record_t {
  rocprofiler_counter_record_t* counters;
  uint64_t counters_count;
} rocprofiler_spm_record_t;

/// Samples `counter_config`'s counters on its agent every `interval` nanoseconds while
/// `context_id` is active, into `buffer_id`. During tool initialisation only.
/// Returns CONTEXT_NOT_FOUND, BUFFER_NOT_FOUND, PROFILE_NOT_FOUND, INVALID_ARGUMENT
/// (interval 0), SERVICE_ALREADY_CONFIGURED (this context already samples that agent),
/// CONFIGURATION_LOCKED, SUCCESS. What the hardware refuses (passes, interval) is returned by
/// rocprofiler_start_context and explained on stderr.
rocprofiler_status_t rocprofiler_configure_spm_service(
    rocprofiler_context_id_t context_id, rocprofiler_buffer_id_t buffer_id,
    rocprofiler_counter_config_id_t counter_config, uint64_t interval) ROCPROFILER_API;

/// Extension: *why = why the last rocprofiler_start_context of this thread failed to start
/// device sampling (the backend's words, e.g. which counters need more than one pass), "" if
/// it did not. Valid until the thread's next start_context.
rocprofiler_status_t rocprofiler_device_sampling_last_error(const char** why)
    ROCPROFILER_NONNULL(1) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI
