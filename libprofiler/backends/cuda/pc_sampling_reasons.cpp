#include "pc_sampling_reasons.hpp"

#include "rocprof/common/pc_sampling_warp_states.hpp"

namespace rocprof::cuda {
namespace {

constexpr std::string_view k_prefix = "smsp__pcsamp_warps_issue_stalled_";
constexpr std::string_view k_not_issued = "_not_issued";

}  // namespace

stall_reason parse_stall_reason(std::string_view name) {
  stall_reason r;
  if (name.substr(0, k_prefix.size()) != k_prefix) return r;
  name.remove_prefix(k_prefix.size());
  if (name.size() > k_not_issued.size() &&
      name.substr(name.size() - k_not_issued.size()) == k_not_issued) {
    r.not_issued = true;
    name.remove_suffix(k_not_issued.size());
  }
  for (int s = 1; s < ROCPROFILER_PC_SAMPLING_WARP_STATE_LAST; ++s) {
    const auto state = static_cast<rocprofiler_pc_sampling_warp_state_t>(s);
    if (name == pc_sampling::k_warp_states[s].name) {
      r.state = state;
      return r;
    }
  }
  r.not_issued = false;
  return r;
}

void stall_reason_table::add(uint32_t cupti_index, std::string_view cupti_name) {
  if (cupti_index >= 4096) return;  // CUPTI reports a few dozen; guard the table's size
  if (reasons_.size() <= cupti_index) reasons_.resize(cupti_index + 1);
  reasons_[cupti_index] = parse_stall_reason(cupti_name);
}

const stall_reason& stall_reason_table::at(uint32_t cupti_index) const {
  static const stall_reason none;
  return cupti_index < reasons_.size() ? reasons_[cupti_index] : none;
}

}  // namespace rocprof::cuda
