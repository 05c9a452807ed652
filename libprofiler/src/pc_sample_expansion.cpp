#include "pc_sample_expansion.hpp"

#include <algorithm>
#include <cstring>

namespace rocprof::core {

pc_sample_split split_of(const rocprofiler_pc_sampling_record_aggregated_v0_t& a) {
  pc_sample_split s;
  s.not_issued = std::min(a.not_issued_count, a.sample_count);
  s.issued = a.sample_count - s.not_issued;
  return s;
}

rocprofiler_pc_sampling_record_stochastic_v0_t stochastic_sample_of(
    const rocprofiler_pc_sampling_record_aggregated_v0_t& a, bool issued) {
  rocprofiler_pc_sampling_record_stochastic_v0_t r{};
  r.size = sizeof(r);
  r.flags.has_memory_counter = 0;  // NVIDIA reports no outstanding-memory counts
  r.wave_issued = issued ? 1 : 0;
  // CUPTI names no instruction class per sample; TYPE_NONE is the enum's "not reported" value
  // and has a name (rocprofiler_get_pc_sampling_instruction_type_name).
  r.inst_type = ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_NONE;
  r.pc = a.pc;
  r.dispatch_id = a.dispatch_id;
  r.correlation_id = a.correlation_id;
  // A sample that issued has no not-issued reason; one that did not keeps the mapped reason
  // (a value without a name would make a tool's name lookup fail: such values become NONE).
  const bool known =
      a.reason_not_issued < ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_LAST;
  const uint32_t none = ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NONE;
  r.snapshot.reason_not_issued = !issued && known ? a.reason_not_issued : none;
  return r;
}

rocprofiler_pc_sampling_record_aggregated_v0_t aggregated_from(const void* record, uint64_t size) {
  rocprofiler_pc_sampling_record_aggregated_v0_t a{};
  std::memcpy(&a, record, std::min<uint64_t>(size, sizeof(a)));
  a.size = sizeof(a);
  return a;
}

}  // namespace rocprof::core
