// The PC sampling service (pc_sampling.h): configuration rules, the per-agent configuration
// table, and delivery of samples from backends into the contexts' buffers.
#pragma once

#include "rocprofiler-sdk/backend/backend_abi.h"
#include "rocprofiler-sdk/pc_sampling.h"

namespace rocprof::core {

/// Adds the PC sampling services of the active contexts to `kinds` (contexts_changed, with the
/// configuration mutex held).
void add_pc_sampling_requests(rocprof_enabled_kinds_t& kinds);

/// Integration hook for counter collection (issue 10): true once some context of the process
/// configured PC sampling. The counter services must then refuse with
/// ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT, as rocprofiler_configure_pc_sampling_service
/// refuses when a context configured counters first (context::counters).
bool pc_sampling_configured();

/// Backend service emit_pc_sampling_record (backend_abi.h).
void emit_pc_sampling_record(rocprofiler_agent_id_t agent,
                             rocprofiler_pc_sampling_record_kind_t kind, const void* record);

/// Non-zero when ROCPROFILER_PC_SAMPLING_BETA_ENABLED opts in (set, and not 0/false/off/no).
bool pc_sampling_beta_enabled();

}  // namespace rocprof::core
