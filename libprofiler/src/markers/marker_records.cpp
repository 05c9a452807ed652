// The one-record-per-call helpers of the marker entry (marker_records.hpp).
#include "marker_records.hpp"

#include "clock.hpp"

namespace rocprof::core::markers {

void record_call(thread_state* st, rocprofiler_buffer_tracing_kind_t bkind,
                 rocprofiler_callback_tracing_kind_t ckind, int32_t op, range_entry& r,
                 marker_payload& payload, uint64_t range_id) {
  const bool callbacks = callback_kind_on(ckind);
  if (callbacks) callbacks_enter(st, ckind, op, correlation_of(r), &payload, r.callbacks);
  const uint64_t end = now_ns();
  if (callbacks) callbacks_exit(st, ckind, op, correlation_of(r), &payload, r.callbacks);
  emit_marker(st, bkind, op, r, end, st->tid, st->tid, range_id);
}

void record_core_call(thread_state* st, int32_t op, uint64_t start_ns, const char* domain,
                      const char* message, const marker_payload& payload_in, uint64_t range_id) {
  if (!traced(core_buffer_kind, core_callback_kind)) return;
  range_entry r = begin_call(st, start_ns, domain, message);
  marker_payload payload = payload_in;
  record_call(st, core_buffer_kind, core_callback_kind, op, r, payload, range_id);
}

}  // namespace rocprof::core::markers
