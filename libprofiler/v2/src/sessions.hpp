// Sessions, their filters and buffers (rocprofiler_create_session ... rocprofiler_finalize).
// One lock guards the registry; the records themselves reach buffers through the active
// session's routes (routes.hpp) without it.
#pragma once

#include "rocprofiler/v2/rocprofiler.h"

namespace rocprof::v2::sessions {

rocprofiler_status_t initialize();
rocprofiler_status_t finalize();
bool initialized();

rocprofiler_status_t create_session(rocprofiler_replay_mode_t mode, rocprofiler_session_id_t* id);
rocprofiler_status_t destroy_session(rocprofiler_session_id_t id);
rocprofiler_status_t start_session(rocprofiler_session_id_t id);
rocprofiler_status_t terminate_session(rocprofiler_session_id_t id);

rocprofiler_status_t create_filter(rocprofiler_session_id_t session, rocprofiler_filter_kind_t kind,
                                   rocprofiler_filter_data_t data, uint64_t data_count,
                                   rocprofiler_filter_id_t* id,
                                   const rocprofiler_filter_property_t& property);
rocprofiler_status_t set_filter_buffer(rocprofiler_session_id_t session,
                                       rocprofiler_filter_id_t filter,
                                       rocprofiler_buffer_id_t buffer);
rocprofiler_status_t set_sync_callback(rocprofiler_session_id_t session,
                                       rocprofiler_filter_id_t filter,
                                       rocprofiler_sync_callback_t callback);
rocprofiler_status_t destroy_filter(rocprofiler_session_id_t session,
                                    rocprofiler_filter_id_t filter);

rocprofiler_status_t create_buffer(rocprofiler_session_id_t session,
                                   rocprofiler_buffer_callback_t callback, size_t size,
                                   rocprofiler_buffer_id_t* id);
rocprofiler_status_t set_buffer_properties(rocprofiler_session_id_t session,
                                           rocprofiler_buffer_id_t buffer,
                                           const rocprofiler_buffer_property_t* properties,
                                           uint32_t count);
rocprofiler_status_t destroy_buffer(rocprofiler_session_id_t session,
                                    rocprofiler_buffer_id_t buffer);
rocprofiler_status_t flush_data(rocprofiler_session_id_t session, rocprofiler_buffer_id_t buffer);
/// SUCCESS when the session exists and owns the buffer (rocprofiler_next_record's check).
rocprofiler_status_t check_buffer(rocprofiler_session_id_t session, rocprofiler_buffer_id_t buffer);

/// Prints "rocprofiler v2: <what>" once per distinct text, returns NOT_IMPLEMENTED.
rocprofiler_status_t not_implemented(const char* what);

}  // namespace rocprof::v2::sessions
