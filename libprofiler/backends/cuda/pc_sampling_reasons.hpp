// CUPTI's PC-sampling stall reasons by index, read once per context from
// cuptiPCSamplingGetStallReasons ("smsp__pcsamp_warps_issue_stalled_<state>[_not_issued]"), as
// the warp state of pc_sampling.h plus whether the counter counts only samples that issued
// nothing. Indices and names differ between GPUs and drivers, so nothing here assumes them.
#pragma once

#include <rocprofiler-sdk/pc_sampling.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rocprof::cuda {

struct stall_reason {
  rocprofiler_pc_sampling_warp_state_t state = ROCPROFILER_PC_SAMPLING_WARP_STATE_NONE;
  bool not_issued = false;  // the "_not_issued" counter: a subset of the state's samples
};

// The warp state a CUPTI stall-reason name stands for; state NONE for names that are not warp
// states (smsp__pcsamp_sample_count, smsp__pcsamp_samples_data_dropped) or unknown ones.
stall_reason parse_stall_reason(std::string_view cupti_name);

// Reasons indexed by CUPTI's stall-reason index.
class stall_reason_table {
 public:
  void add(uint32_t cupti_index, std::string_view cupti_name);
  const stall_reason& at(uint32_t cupti_index) const;
  size_t size() const { return reasons_.size(); }

 private:
  std::vector<stall_reason> reasons_;
};

}  // namespace rocprof::cuda
