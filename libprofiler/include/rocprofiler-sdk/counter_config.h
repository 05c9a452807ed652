// Counter configs: a fixed set of counters of one agent, chosen per dispatch by the dispatch
// counting service. Names and semantics follow rocprofiler-sdk.
#pragma once

#include "rocprofiler-sdk/agent.h"
#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

/// Creates a config of `counters_count` counters of agent `agent_id` (ids from
/// rocprofiler_iterate_agent_supported_counters; duplicates are ignored). If *config_id names
/// an existing config, its counters are added too and a NEW config is returned in *config_id
/// (the existing one is unchanged). A config may be used by any context, any number of times;
/// it may be created at any time, also inside a dispatch callback (the first config of a
/// counter set costs the backend's preparation: CUDA ~5-10 ms, once per distinct set).
/// Returns AGENT_NOT_FOUND, COUNTER_NOT_FOUND (an unknown id), METRIC_NOT_VALID_FOR_AGENT (a
/// counter this agent does not offer), NO_HARDWARE_COUNTERS (no counter given),
/// EXCEEDS_HW_LIMIT (the backend cannot collect these counters together, in any number of
/// passes), BACKEND_NOT_LOADED.
ROCPROFILER_API rocprofiler_status_t rocprofiler_create_counter_config(
    rocprofiler_agent_id_t agent_id, rocprofiler_counter_id_t* counters_list, size_t counters_count,
    rocprofiler_counter_config_id_t* config_id) ROCPROFILER_NONNULL(4);

/// Destroys a config. Dispatches that already chose it still get their values. Returns
/// PROFILE_NOT_FOUND for an unknown or destroyed config.
ROCPROFILER_API rocprofiler_status_t
rocprofiler_destroy_counter_config(rocprofiler_counter_config_id_t config_id);

/// Extension: the hardware passes that collecting this config takes on its agent. 1: every
/// counter in one pass. More: the backend replays each selected kernel that many times
/// (rocprofv3 --replay-mode kernel; CUDA: CUPTI's kernel replay), or, for --replay-mode
/// application, the group must be split into configs of one pass each and the application run
/// once per config. 0 for a config of constants only. Returns PROFILE_NOT_FOUND.
ROCPROFILER_API rocprofiler_status_t rocprofiler_query_counter_config_passes(
    rocprofiler_counter_config_id_t config_id, size_t* passes) ROCPROFILER_NONNULL(2);

ROCPROFILER_EXTERN_C_FINI
