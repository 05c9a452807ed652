#include "pc_sampling_decode.hpp"

#include <rocprof/common/pc_sampling_warp_states.hpp>

namespace rocprof::cuda {

pc_sample_totals decode_pc_samples(
    const CUpti_PCSamplingData& data, const stall_reason_table& reasons,
    const pc_sample_resolvers& resolve, uint64_t agent_id, bool serialized,
    std::vector<rocprofiler_pc_sampling_record_aggregated_v0_t>& out) {
  pc_sample_totals totals;
  totals.total = data.totalSamples;
  totals.dropped = data.droppedSamples;
  totals.non_user = data.nonUsrKernelsTotalSamples;
  totals.hardware_buffer_full = data.hardwareBufferFull != 0;
  if (data.pPcData == nullptr) return totals;
  // Per PC: the state counters and their not-issued subsets, by warp state.
  uint64_t samples[ROCPROFILER_PC_SAMPLING_WARP_STATE_LAST];
  uint64_t not_issued[ROCPROFILER_PC_SAMPLING_WARP_STATE_LAST];
  for (size_t p = 0; p < data.totalNumPcs; ++p) {
    const CUpti_PCSamplingPCData& pc = data.pPcData[p];
    if (pc.stallReason == nullptr) continue;
    for (auto& v : samples)
      v = 0;
    for (auto& v : not_issued)
      v = 0;
    for (size_t r = 0; r < pc.stallReasonCount; ++r) {
      const stall_reason& reason = reasons.at(pc.stallReason[r].pcSamplingStallReasonIndex);
      if (reason.state == ROCPROFILER_PC_SAMPLING_WARP_STATE_NONE) continue;
      (reason.not_issued ? not_issued : samples)[reason.state] += pc.stallReason[r].samples;
    }
    rocprofiler_pc_sampling_record_aggregated_v0_t rec{};
    rec.size = sizeof(rec);
    rec.agent_id.handle = agent_id;
    rec.pc.code_object_id = resolve.code_object_of ? resolve.code_object_of(pc.cubinCrc) : 0;
    rec.pc.code_object_offset = pc.pcOffset;
    rec.kernel_id =
        resolve.kernel_of && pc.functionName != nullptr ? resolve.kernel_of(pc.functionName) : 0;
    if (resolve.source_of && pc.functionName != nullptr && rec.pc.code_object_id != 0) {
      const auto [file, line] =
          resolve.source_of(rec.pc.code_object_id, pc.functionName, pc.pcOffset);
      rec.source_file = file;
      rec.source_line = line;
    }
    if (serialized && pc.correlationId != 0 && resolve.launch_of) {
      rec.correlation_id.internal = resolve.launch_of(pc.correlationId);
      rec.attribution = rec.correlation_id.internal != 0
                            ? ROCPROFILER_PC_SAMPLING_ATTRIBUTION_DISPATCH
                            : ROCPROFILER_PC_SAMPLING_ATTRIBUTION_KERNEL;
    } else {
      rec.attribution = ROCPROFILER_PC_SAMPLING_ATTRIBUTION_KERNEL;
    }
    for (int s = 1; s < ROCPROFILER_PC_SAMPLING_WARP_STATE_LAST; ++s) {
      if (samples[s] == 0 && not_issued[s] == 0) continue;
      rec.warp_state = static_cast<uint32_t>(s);
      rec.reason_not_issued = pc_sampling::k_warp_states[s].reason;
      // A state's counter includes its not-issued subset; keep the two consistent even if a
      // driver reported only the subset.
      rec.sample_count = samples[s] >= not_issued[s] ? samples[s] : not_issued[s];
      rec.not_issued_count = not_issued[s];
      totals.attributed += rec.sample_count;
      out.push_back(rec);
    }
  }
  return totals;
}

}  // namespace rocprof::cuda
