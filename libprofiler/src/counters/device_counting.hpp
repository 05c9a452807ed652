// The device counting service (device_counting_service.h): per context, the agents it counts,
// each with the tool's set-config callback, an agent_sampler accumulating between sample calls,
// and the context's state (disabled, locked by a start / stop / sample in progress, enabled).
#pragma once

#include <cstdint>

#include "rocprofiler-sdk/fwd.h"

namespace rocprof::core::counters {

/// At rocprofiler_start_context: asks each agent's callback for its config and starts
/// sampling. On failure last_start_error() says why and nothing keeps running.
rocprofiler_status_t start_device_counting(uint32_t context_index);
/// At rocprofiler_stop_context: waits for a sample in progress, then stops every agent.
void stop_device_counting(uint32_t context_index);

}  // namespace rocprof::core::counters
