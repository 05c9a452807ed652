// The SPM service (spm.h): per context, the configs it samples on the hardware's timer into a
// buffer, one agent_sampler each in timeline mode.
#pragma once

#include <cstdint>

#include "rocprofiler-sdk/fwd.h"

namespace rocprof::core::counters {

rocprofiler_status_t start_spm(uint32_t context_index);
void stop_spm(uint32_t context_index);
/// Every running SPM sampler delivers its completed samples now (finalisation).
void drain_all_spm();

}  // namespace rocprof::core::counters
