// What the marker producer entry (backend/markers.h) shares between its files: the marker
// kinds, writing a marker record in place, and the one-record-per-call helpers.
//   thread_ranges.cpp       push / pop / mark (state on the calling thread)
//   process_ranges.cpp      start / stop (a lock-free table: a range may end on any thread)
//   naming_and_control.cpp  thread and object naming, pause / resume
// HOT (push, pop, mark, start, stop): no lock, no allocation in the steady state.
#pragma once

#include <cstdint>

#include "context.hpp"
#include "dispatch.hpp"
#include "registration.hpp"
#include "rocprofiler-sdk/buffer_tracing.h"
#include "rocprofiler-sdk/callback_tracing.h"
#include "thread_state.hpp"

namespace rocprof::core::markers {

constexpr auto range_buffer_kind = ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API;
constexpr auto range_callback_kind = ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API;
constexpr auto core_buffer_kind = ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API;
constexpr auto core_callback_kind = ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API;
constexpr auto control_buffer_kind = ROCPROFILER_BUFFER_TRACING_MARKER_CONTROL_API;
constexpr auto control_callback_kind = ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API;
constexpr auto name_buffer_kind = ROCPROFILER_BUFFER_TRACING_MARKER_NAME_API;
constexpr auto name_callback_kind = ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API;

using marker_record = rocprofiler_buffer_tracing_marker_api_record_t;
using marker_payload = rocprofiler_callback_tracing_marker_api_data_t;

inline bool traced(rocprofiler_buffer_tracing_kind_t b, rocprofiler_callback_tracing_kind_t c) {
  return buffer_kind_on(b) || callback_kind_on(c);
}

// nullptr when the core is not usable on this thread (exiting, or inside initialisation).
inline thread_state* recording_thread() {
  if (!ensure_initialized()) return nullptr;
  return current_thread();
}

inline const char* intern_or_null(thread_state* st, const char* s) {
  return s != nullptr ? st->strings.intern(s) : nullptr;
}

// Writes the record straight into each buffer that traces the kind (every field, so no byte
// is left from an earlier record): no copy through the stack on the hot path.
__attribute__((always_inline)) inline void emit_marker(thread_state* st,
                                                       rocprofiler_buffer_tracing_kind_t kind,
                                                       int32_t op, const range_entry& r,
                                                       uint64_t end_ns, uint64_t tid,
                                                       uint64_t end_tid, uint64_t range_id) {
  static_assert(sizeof(marker_record) == 12 * sizeof(uint64_t), "a field is not written");
  if (!buffer_kind_on(kind)) return;
  emit_in_place(
      st, kind, op, sizeof(marker_record),
      [&](void* at, rocprofiler_user_data_t external) __attribute__((always_inline)) {
        auto* out = static_cast<marker_record*>(at);
        out->size = sizeof(marker_record);
        out->kind = kind;
        out->operation = op;
        out->correlation_id.internal = r.correlation_id;
        out->correlation_id.external = external;
        out->correlation_id.ancestor = r.ancestor;
        out->start_timestamp = r.start_ns;
        out->end_timestamp = end_ns;
        out->thread_id = tid;
        out->message = r.message;
        out->domain = r.domain;
        out->end_thread_id = end_tid;
        out->range_id = range_id;
      });
}

inline marker_payload make_payload(const char* domain, uint64_t start_tid) {
  marker_payload p{};
  p.size = sizeof(p);
  p.domain = domain;
  p.start_thread_id = start_tid;
  return p;
}

inline rocprofiler_correlation_id_t correlation_of(const range_entry& r) {
  rocprofiler_correlation_id_t c{};
  c.internal = r.correlation_id;
  c.ancestor = r.ancestor;
  return c;
}

/// A range entry for a call that starts now on `st` (a new correlation id, the thread's API
/// call in progress as ancestor).
inline range_entry begin_call(thread_state* st, uint64_t start_ns, const char* domain,
                              const char* message) {
  range_entry r;
  r.domain = domain;
  r.message = message;
  r.start_ns = start_ns;
  r.correlation_id = next_correlation_id(st);
  r.ancestor = st->current_api;
  return r;
}

/// A call recorded as one record of a kind (start..end), with ENTER and EXIT callbacks.
void record_call(thread_state* st, rocprofiler_buffer_tracing_kind_t bkind,
                 rocprofiler_callback_tracing_kind_t ckind, int32_t op, range_entry& r,
                 marker_payload& payload, uint64_t range_id);

/// The MARKER_CORE_API view: one record per library call (when that kind is traced).
void record_core_call(thread_state* st, int32_t op, uint64_t start_ns, const char* domain,
                      const char* message, const marker_payload& payload, uint64_t range_id);

}  // namespace rocprof::core::markers
