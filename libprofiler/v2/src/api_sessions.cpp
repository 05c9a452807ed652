// Sessions, filters, memory-storage buffers and record walking of the v2 API.
#include "guarded.hpp"
#include "sessions.hpp"

namespace sessions = rocprof::v2::sessions;
using rocprof::v2::guarded;

extern "C" {

ROCPROFILER_API rocprofiler_status_t rocprofiler_create_session(
    rocprofiler_replay_mode_t replay_mode, rocprofiler_session_id_t* session_id) {
  return guarded(__func__, [&] { return sessions::create_session(replay_mode, session_id); });
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_destroy_session(rocprofiler_session_id_t session_id) {
  return guarded(__func__, [&] { return sessions::destroy_session(session_id); });
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_start_session(rocprofiler_session_id_t session_id) {
  return guarded(__func__, [&] { return sessions::start_session(session_id); });
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_terminate_session(rocprofiler_session_id_t session_id) {
  return guarded(__func__, [&] { return sessions::terminate_session(session_id); });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_create_filter(
    rocprofiler_session_id_t session_id, rocprofiler_filter_kind_t filter_kind,
    rocprofiler_filter_data_t data, uint64_t data_count, rocprofiler_filter_id_t* filter_id,
    rocprofiler_filter_property_t property) {
  return guarded(__func__, [&] {
    return sessions::create_filter(session_id, filter_kind, data, data_count, filter_id, property);
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_set_filter_buffer(
    rocprofiler_session_id_t session_id, rocprofiler_filter_id_t filter_id,
    rocprofiler_buffer_id_t buffer_id) {
  return guarded(__func__,
                 [&] { return sessions::set_filter_buffer(session_id, filter_id, buffer_id); });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_set_api_trace_sync_callback(
    rocprofiler_session_id_t session_id, rocprofiler_filter_id_t filter_id,
    rocprofiler_sync_callback_t callback) {
  return guarded(__func__,
                 [&] { return sessions::set_sync_callback(session_id, filter_id, callback); });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_destroy_filter(rocprofiler_session_id_t session_id,
                                                                rocprofiler_filter_id_t filter_id) {
  return guarded(__func__, [&] { return sessions::destroy_filter(session_id, filter_id); });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_create_buffer(
    rocprofiler_session_id_t session_id, rocprofiler_buffer_callback_t buffer_callback,
    size_t buffer_size, rocprofiler_buffer_id_t* buffer_id) {
  return guarded(__func__, [&] {
    return sessions::create_buffer(session_id, buffer_callback, buffer_size, buffer_id);
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_set_buffer_properties(
    rocprofiler_session_id_t session_id, rocprofiler_buffer_id_t buffer_id,
    rocprofiler_buffer_property_t* buffer_properties, uint32_t buffer_properties_count) {
  return guarded(__func__, [&] {
    return sessions::set_buffer_properties(session_id, buffer_id, buffer_properties,
                                           buffer_properties_count);
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_destroy_buffer(rocprofiler_session_id_t session_id,
                                                                rocprofiler_buffer_id_t buffer_id) {
  return guarded(__func__, [&] { return sessions::destroy_buffer(session_id, buffer_id); });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_flush_data(rocprofiler_session_id_t session_id,
                                                            rocprofiler_buffer_id_t buffer_id) {
  return guarded(__func__, [&] { return sessions::flush_data(session_id, buffer_id); });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_next_record(
    const rocprofiler_record_header_t* record, const rocprofiler_record_header_t** next,
    rocprofiler_session_id_t session_id, rocprofiler_buffer_id_t buffer_id) {
  return guarded(__func__, [&] {
    if (record == nullptr || next == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS;
    const rocprofiler_status_t status = sessions::check_buffer(session_id, buffer_id);
    if (status != ROCPROFILER_STATUS_SUCCESS) return status;
    // Records sit back to back, each the size of its kind's struct.
    size_t size = 0;
    switch (record->kind) {
      case ROCPROFILER_PROFILER_RECORD:
        size = sizeof(rocprofiler_record_profiler_t);
        break;
      case ROCPROFILER_TRACER_RECORD:
        size = sizeof(rocprofiler_record_tracer_t);
        break;
      case ROCPROFILER_ATT_TRACER_RECORD:
        size = sizeof(rocprofiler_record_att_tracer_t);
        break;
      case ROCPROFILER_PC_SAMPLING_RECORD:
        size = sizeof(rocprofiler_record_pc_sample_t);
        break;
      case ROCPROFILER_SPM_RECORD:
        size = sizeof(rocprofiler_record_spm_t);
        break;
      case ROCPROFILER_COUNTERS_SAMPLER_RECORD:
        size = sizeof(rocprofiler_record_counters_sampler_t);
        break;
      default:
        return ROCPROFILER_STATUS_ERROR_RECORD_CORRUPTED;
    }
    *next = reinterpret_cast<const rocprofiler_record_header_t*>(
        reinterpret_cast<const unsigned char*>(record) + size);
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_create_ready_session(
    rocprofiler_replay_mode_t replay_mode, rocprofiler_filter_kind_t filter_kind,
    rocprofiler_filter_data_t data, uint64_t data_count, size_t buffer_size,
    rocprofiler_buffer_callback_t buffer_callback, rocprofiler_session_id_t* session_id,
    rocprofiler_filter_property_t property, rocprofiler_sync_callback_t callback) {
  return guarded(__func__, [&] {
    rocprofiler_session_id_t id{};
    rocprofiler_status_t status = sessions::create_session(replay_mode, &id);
    if (status != ROCPROFILER_STATUS_SUCCESS) return status;
    rocprofiler_buffer_id_t buffer{};
    rocprofiler_filter_id_t filter{};
    status = sessions::create_buffer(id, buffer_callback, buffer_size, &buffer);
    if (status == ROCPROFILER_STATUS_SUCCESS)
      status = sessions::create_filter(id, filter_kind, data, data_count, &filter, property);
    if (status == ROCPROFILER_STATUS_SUCCESS)
      status = sessions::set_filter_buffer(id, filter, buffer);
    if (status == ROCPROFILER_STATUS_SUCCESS && callback != nullptr)
      status = sessions::set_sync_callback(id, filter, callback);
    if (status != ROCPROFILER_STATUS_SUCCESS) {
      sessions::destroy_session(id);
      return status;
    }
    if (session_id == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS;
    *session_id = id;
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

}  // extern "C"
