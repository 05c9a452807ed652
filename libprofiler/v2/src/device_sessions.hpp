// Device profiling sessions (rocprofiler_device_profiling_session_*): device-wide counters of
// one GPU, read whenever the program polls, whatever runs on the GPU.
//
// They sit on an internal source interface (device_counter_source) so that the v2 API keeps
// its state machine here and the counting itself comes from the core's device counting
// service (issue 11, part 1). That service is not in this tree yet: make_source() says so and
// creating a session returns ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED with that message.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rocprofiler/v2/rocprofiler.h"

namespace rocprof::v2::device_sessions {

/// Counts on one GPU: start, read the accumulated values (in the order of the names), stop.
class device_counter_source {
 public:
  virtual ~device_counter_source() = default;
  virtual bool start() = 0;
  virtual bool read(std::vector<double>& values) = 0;
  virtual void stop() = 0;
};

/// A source for the counters on GPU gpu_index, or nullptr and why not.
std::unique_ptr<device_counter_source> make_source(const std::vector<std::string>& counters,
                                                   int gpu_index, std::string& why);

rocprofiler_status_t create(const char** counter_names, uint64_t num_counters,
                            rocprofiler_session_id_t* session_id, int cpu_index, int gpu_index);
rocprofiler_status_t start(rocprofiler_session_id_t session_id);
rocprofiler_status_t poll(rocprofiler_session_id_t session_id,
                          rocprofiler_device_profile_metric_t* data);
rocprofiler_status_t stop(rocprofiler_session_id_t session_id);
rocprofiler_status_t destroy(rocprofiler_session_id_t session_id);

}  // namespace rocprof::v2::device_sessions
