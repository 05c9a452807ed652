#include "pc_sample_convert.hpp"

#include <string>

#include "tool_state.hpp"

namespace rocprof::tool {
namespace {

// NVIDIA's aggregated samples: the counts are the data; nothing per sample exists.
trace::pc_sample_record from_aggregated(tool_state& tool,
                                        const rocprofiler_pc_sampling_record_aggregated_v0_t& in) {
  trace::pc_sample_record r;
  r.method = trace::pc_sample_method::stochastic;
  r.has_sample_detail = false;
  r.dispatch_exact = in.attribution == ROCPROFILER_PC_SAMPLING_ATTRIBUTION_DISPATCH;
  r.agent_id = in.agent_id.handle;
  r.kernel_id = in.kernel_id;
  r.dispatch_id = in.dispatch_id;
  r.correlation_internal = in.correlation_id.internal;
  r.code_object_id = in.pc.code_object_id;
  r.code_object_offset = in.pc.code_object_offset;
  r.sample_count = in.sample_count;
  if (in.source_file != nullptr && in.source_line != 0)
    r.comment =
        tool.defs->intern(std::string(in.source_file) + ":" + std::to_string(in.source_line));
  r.not_issued_count = in.not_issued_count;
  // The state counts samples that issued (selected) and that did not; the reason names the
  // state's rocprofiler-sdk equivalent.
  r.wave_issued = in.not_issued_count < in.sample_count;
  const auto reason =
      static_cast<rocprofiler_pc_sampling_instruction_not_issued_reason_t>(in.reason_not_issued);
  if (const char* name = rocprofiler_get_pc_sampling_instruction_not_issued_reason_name(reason))
    r.stall_reason = tool.defs->intern(name);
  const auto state = static_cast<rocprofiler_pc_sampling_warp_state_t>(in.warp_state);
  if (const char* name = rocprofiler_get_pc_sampling_warp_state_name(state))
    r.warp_state = tool.defs->intern(name);
  return r;
}

// The fields AMD's two per-sample records share.
template <typename Sample>
trace::pc_sample_record per_sample(const Sample& in, trace::pc_sample_method method) {
  trace::pc_sample_record r;
  r.method = method;
  r.timestamp_ns = in.timestamp;
  r.dispatch_id = in.dispatch_id;
  r.correlation_internal = in.correlation_id.internal;
  r.code_object_id = in.pc.code_object_id;
  r.code_object_offset = in.pc.code_object_offset;
  r.exec_mask = in.exec_mask;
  return r;
}

trace::pc_sample_record from_host_trap(const rocprofiler_pc_sampling_record_host_trap_v0_t& in) {
  return per_sample(in, trace::pc_sample_method::host_trap);
}

trace::pc_sample_record from_stochastic(tool_state& tool,
                                        const rocprofiler_pc_sampling_record_stochastic_v0_t& in) {
  trace::pc_sample_record r = per_sample(in, trace::pc_sample_method::stochastic);
  r.wave_count = in.wave_count;
  r.wave_issued = in.wave_issued != 0;
  const auto type = static_cast<rocprofiler_pc_sampling_instruction_type_t>(in.inst_type);
  if (const char* name = rocprofiler_get_pc_sampling_instruction_type_name(type))
    r.instruction_type = tool.defs->intern(name);
  r.not_issued_count = in.wave_issued != 0 ? 0 : 1;
  const auto reason = static_cast<rocprofiler_pc_sampling_instruction_not_issued_reason_t>(
      in.snapshot.reason_not_issued);
  if (const char* name = rocprofiler_get_pc_sampling_instruction_not_issued_reason_name(reason))
    r.stall_reason = tool.defs->intern(name);
  return r;
}

}  // namespace

void convert_pc_sample(tool_state& tool, const rocprofiler_record_header_t& header,
                       record_batch& out) {
  auto& records = out.of<trace::pc_sample_record>();
  switch (header.kind) {
    case ROCPROFILER_PC_SAMPLING_RECORD_AGGREGATED_V0_SAMPLE:
      records.push_back(from_aggregated(
          tool,
          *static_cast<const rocprofiler_pc_sampling_record_aggregated_v0_t*>(header.payload)));
      break;
    case ROCPROFILER_PC_SAMPLING_RECORD_HOST_TRAP_V0_SAMPLE:
      records.push_back(from_host_trap(
          *static_cast<const rocprofiler_pc_sampling_record_host_trap_v0_t*>(header.payload)));
      break;
    case ROCPROFILER_PC_SAMPLING_RECORD_STOCHASTIC_V0_SAMPLE:
      records.push_back(from_stochastic(
          tool,
          *static_cast<const rocprofiler_pc_sampling_record_stochastic_v0_t*>(header.payload)));
      break;
    default:
      break;
  }
}

}  // namespace rocprof::tool
