// CUPTI's PC-sampling data (CUpti_PCSamplingData: per PC, samples per stall-reason index) into
// the aggregated records of pc_sampling.h: one record per PC and warp state, with the samples
// of the state's counter and of its "_not_issued" counter. Pure: the resolvers say which code
// object a cubin CRC is, which kernel a function name is and which launch a CUPTI correlation
// id was, so unit tests run it on synthetic CUPTI data.
#pragma once

#include <cupti_pcsampling.h>
#include <rocprofiler-sdk/pc_sampling.h>

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "pc_sampling_reasons.hpp"

namespace rocprof::cuda {

struct pc_sample_resolvers {
  std::function<uint64_t(uint64_t crc)> code_object_of;           // 0: unknown cubin
  std::function<uint64_t(const char* function)> kernel_of;        // 0: unknown
  std::function<uint64_t(uint32_t cupti_correlation)> launch_of;  // core id; 0: unknown
  // Source file (kept for the process's life) and line of a PC; {nullptr, 0}: unknown.
  std::function<std::pair<const char*, uint32_t>(uint64_t code_object, const char* function,
                                                 uint64_t offset)>
      source_of;
};

// What one GetData reported besides the PCs.
struct pc_sample_totals {
  uint64_t total = 0;       // totalSamples
  uint64_t dropped = 0;     // droppedSamples
  uint64_t non_user = 0;    // nonUsrKernelsTotalSamples
  uint64_t attributed = 0;  // samples in the records made
  bool hardware_buffer_full = false;
};

// Appends the records of `data`'s PCs to `out`. `serialized`: CUPTI filled correlationId
// (KERNEL_SERIALIZED); otherwise the record's attribution is KERNEL and its ids are 0.
pc_sample_totals decode_pc_samples(
    const CUpti_PCSamplingData& data, const stall_reason_table& reasons,
    const pc_sample_resolvers& resolve, uint64_t agent_id, bool serialized,
    std::vector<rocprofiler_pc_sampling_record_aggregated_v0_t>& out);

}  // namespace rocprof::cuda
