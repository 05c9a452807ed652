// Device profiling sessions and code-object capture of the v2 API.
#include "code_objects.hpp"
#include "device_sessions.hpp"
#include "guarded.hpp"

namespace device = rocprof::v2::device_sessions;
namespace code_objects = rocprof::v2::code_objects;
using rocprof::v2::guarded;

extern "C" {

ROCPROFILER_API rocprofiler_status_t rocprofiler_device_profiling_session_create(
    const char** counter_names, uint64_t num_counters, rocprofiler_session_id_t* session_id,
    int cpu_index, int gpu_index) {
  return guarded(__func__, [&] {
    return device::create(counter_names, num_counters, session_id, cpu_index, gpu_index);
  });
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_device_profiling_session_start(rocprofiler_session_id_t session_id) {
  return guarded(__func__, [&] { return device::start(session_id); });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_device_profiling_session_poll(
    rocprofiler_session_id_t session_id, rocprofiler_device_profile_metric_t* data) {
  return guarded(__func__, [&] { return device::poll(session_id, data); });
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_device_profiling_session_stop(rocprofiler_session_id_t session_id) {
  return guarded(__func__, [&] { return device::stop(session_id); });
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_device_profiling_session_destroy(rocprofiler_session_id_t session_id) {
  return guarded(__func__, [&] { return device::destroy(session_id); });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_codeobj_capture_create(
    rocprofiler_record_id_t* id, rocprofiler_codeobj_capture_mode_t mode, uint64_t userdata) {
  return guarded(__func__, [&] { return code_objects::capture_create(id, mode, userdata); });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_codeobj_capture_get(
    rocprofiler_record_id_t id, rocprofiler_codeobj_symbols_t* capture) {
  return guarded(__func__, [&] { return code_objects::capture_get(id, capture); });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_codeobj_capture_free(rocprofiler_record_id_t id) {
  return guarded(__func__, [&] { return code_objects::capture_free(id); });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_codeobj_capture_start(rocprofiler_record_id_t id) {
  return guarded(__func__, [&] { return code_objects::capture_start(id); });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_codeobj_capture_stop(rocprofiler_record_id_t id) {
  return guarded(__func__, [&] { return code_objects::capture_stop(id); });
}

}  // extern "C"
