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
/// At rocprofiler_stop_context: waits for a start or sample in progress (at most `max_wait_ms`),
/// then stops every agent. false: still held by another thread after the wait; nothing stopped.
bool stop_device_counting(uint32_t context_index, uint64_t max_wait_ms = UINT64_MAX);

}  // namespace rocprof::core::counters
