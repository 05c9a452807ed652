// Naming (MARKER_NAME_API: threads, agents, devices, streams) and profiler control
// (MARKER_CONTROL_API: pause / resume): one record per call.
#include "clock.hpp"
#include "guarded.hpp"
#include "marker_records.hpp"
#include "rocprofiler-sdk/backend/markers.h"

namespace rocprof::core::markers {
namespace {

int name_thread(const char* domain, const char* name) {
  const uint64_t start = now_ns();
  thread_state* st = recording_thread();
  if (st == nullptr || !traced(name_buffer_kind, name_callback_kind)) return 0;
  range_entry r = begin_call(st, start, intern_or_null(st, domain),
                             intern_or_null(st, name != nullptr ? name : ""));
  marker_payload payload = make_payload(r.domain, st->tid);
  payload.args.roctxNameOsThread.name = r.message;
  record_call(st, name_buffer_kind, name_callback_kind,
              ROCPROFILER_MARKER_NAME_API_ID_roctxNameOsThread, r, payload, st->tid);
  return 0;
}

int name_object(int operation, const char* name, uint64_t object) {
  const uint64_t start = now_ns();
  thread_state* st = recording_thread();
  if (st == nullptr || operation < 0 || operation >= ROCPROFILER_MARKER_NAME_API_ID_LAST ||
      !traced(name_buffer_kind, name_callback_kind))
    return 0;
  range_entry r = begin_call(st, start, nullptr, intern_or_null(st, name != nullptr ? name : ""));
  marker_payload payload = make_payload(nullptr, st->tid);
  switch (operation) {
    case ROCPROFILER_MARKER_NAME_API_ID_roctxNameHsaAgent:
      payload.args.roctxNameHsaAgent = {r.message, reinterpret_cast<const void*>(object)};
      break;
    case ROCPROFILER_MARKER_NAME_API_ID_roctxNameHipDevice:
      payload.args.roctxNameHipDevice = {r.message, static_cast<int>(object)};
      break;
    case ROCPROFILER_MARKER_NAME_API_ID_roctxNameHipStream:
      payload.args.roctxNameHipStream = {r.message, reinterpret_cast<const void*>(object)};
      break;
    default:
      payload.args.roctxNameOsThread.name = r.message;
      break;
  }
  record_call(st, name_buffer_kind, name_callback_kind, operation, r, payload, object);
  return 0;
}

int control_call(int32_t op, uint64_t tid) {
  const uint64_t start = now_ns();
  thread_state* st = recording_thread();
  if (st == nullptr || !traced(control_buffer_kind, control_callback_kind)) return 0;
  range_entry r = begin_call(st, start, nullptr, nullptr);
  marker_payload payload = make_payload(nullptr, st->tid);
  payload.args.roctxProfilerPause.tid = tid;  // same layout for Resume
  record_call(st, control_buffer_kind, control_callback_kind, op, r, payload, tid);
  return 0;
}

}  // namespace
}  // namespace rocprof::core::markers

// Each returns 0, or -1 when the call failed inside the core (reported once on stderr).
extern "C" {

ROCPROFILER_API int rocprof_marker_name_thread(const char* domain, const char* name) {
  return rocprof::core::guarded_or(
      __func__, -1, [&] { return rocprof::core::markers::name_thread(domain, name); });
}

ROCPROFILER_API int rocprof_marker_name_object(int operation, const char* name, uint64_t object) {
  return rocprof::core::guarded_or(
      __func__, -1, [&] { return rocprof::core::markers::name_object(operation, name, object); });
}

ROCPROFILER_API int rocprof_marker_pause(uint64_t tid) {
  return rocprof::core::guarded_or(__func__, -1, [&] {
    return rocprof::core::markers::control_call(
        ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerPause, tid);
  });
}

ROCPROFILER_API int rocprof_marker_resume(uint64_t tid) {
  return rocprof::core::guarded_or(__func__, -1, [&] {
    return rocprof::core::markers::control_call(
        ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerResume, tid);
  });
}

}  // extern "C"
