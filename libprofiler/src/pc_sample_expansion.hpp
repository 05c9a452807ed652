// Aggregated PC samples (NVIDIA: a count per PC and warp state) as rocprofiler-sdk's per-sample
// records, for tools that did not ask for the aggregated extension kind
// (ROCPROFILER_PC_SAMPLING_CONFIGURE_FLAG_AGGREGATED_RECORDS, pc_sampling.h). Off the hot path:
// samples arrive from a backend's drain thread.
#pragma once

#include <cstdint>

#include "rocprofiler-sdk/pc_sampling.h"

namespace rocprof::core {

/// How many of an aggregate's samples issued an instruction and how many did not
/// (not_issued_count clamped to sample_count).
struct pc_sample_split {
  uint64_t issued = 0;
  uint64_t not_issued = 0;
};
pc_sample_split split_of(const rocprofiler_pc_sampling_record_aggregated_v0_t& a);

/// The STOCHASTIC_V0 record that each sample of `a` becomes, `issued` or not. Fields the
/// hardware reported are copied (pc, dispatch_id, correlation_id, the not-issued reason);
/// those it does not measure are 0 (timestamp, exec_mask, hw_id, wave ids, workgroup,
/// snapshot arbiter bits, memory counters) and inst_type is TYPE_NONE ("not reported").
rocprofiler_pc_sampling_record_stochastic_v0_t stochastic_sample_of(
    const rocprofiler_pc_sampling_record_aggregated_v0_t& a, bool issued);

/// An aggregated record as a backend handed it: `size` bytes of it (an older, shorter layout
/// leaves the fields past it zero).
rocprofiler_pc_sampling_record_aggregated_v0_t aggregated_from(const void* record, uint64_t size);

}  // namespace rocprof::core
