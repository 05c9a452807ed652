// Device profiling sessions (rocprofiler_device_profiling_session_*): device-wide counters of
// one GPU, read whenever the program polls, whatever runs on the GPU.
//
// They sit on an internal source interface (device_counter_source) so that the v2 API keeps
// its state machine here and the counting itself comes from the core's device counting
// service (core_device_source.cpp): poll returns what each counter accumulated on the GPU
// since the session started, summed over the counter's dimension instances.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core_port.hpp"
#include "rocprofiler/v2/rocprofiler.h"

namespace rocprof::v2::device_sessions {

/// Counts on one GPU: start, read the accumulated values (in the order of the names), stop.
using device_counter_source = core_port::device_counter;

/// A source for the counters on GPU gpu_index (the index among the core's GPU agents), or
/// nullptr with the status create returns and why: AGENT_NOT_FOUND (no such GPU),
/// COUNTER_NOT_FOUND (a name the GPU does not know), ERROR (the counters cannot be counted
/// together), NOT_IMPLEMENTED (no GPU offers device counting: no counter backend, or the core
/// was initialised before this library, so its device counting service could not be
/// configured).
std::unique_ptr<device_counter_source> make_source(const std::vector<std::string>& counters,
                                                   int gpu_index, rocprofiler_status_t& status,
                                                   std::string& why);

rocprofiler_status_t create(const char** counter_names, uint64_t num_counters,
                            rocprofiler_session_id_t* session_id, int cpu_index, int gpu_index);
rocprofiler_status_t start(rocprofiler_session_id_t session_id);
rocprofiler_status_t poll(rocprofiler_session_id_t session_id,
                          rocprofiler_device_profile_metric_t* data);
rocprofiler_status_t stop(rocprofiler_session_id_t session_id);
rocprofiler_status_t destroy(rocprofiler_session_id_t session_id);

}  // namespace rocprof::v2::device_sessions
