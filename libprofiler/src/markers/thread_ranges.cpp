// Thread ranges (push/pop) and marks. An open range lives on the calling thread's state (a
// stack, so no lock); push and pop pair into one roctxThreadRangeA record.
#include "clock.hpp"
#include "guarded.hpp"
#include "marker_records.hpp"
#include "rocprofiler-sdk/backend/markers.h"

namespace rocprof::core::markers {
namespace {

// Nesting level of a new range of `domain`: one above the innermost open range of the domain.
// Each range keeps its level, so neither push nor pop counts the whole stack (the innermost
// range of the domain is usually the top of the stack).
int32_t next_level(const thread_state* st, const char* domain) {
  for (auto it = st->ranges.rbegin(); it != st->ranges.rend(); ++it)
    if (it->domain == domain) return it->level + 1;
  return 0;
}

int push(const char* domain, const char* message) {
  const uint64_t start = now_ns();
  thread_state* st = recording_thread();
  if (st == nullptr) return 0;
  const char* dom = intern_or_null(st, domain);
  const int32_t level = next_level(st, dom);
  range_entry& r = st->ranges.emplace_back();
  r.domain = dom;
  r.start_ns = start;
  r.level = level;
  if (traced(range_buffer_kind, range_callback_kind)) {
    r.message = intern_or_null(st, message != nullptr ? message : "");
    r.correlation_id = next_correlation_id(st);
    r.ancestor = st->current_api;
    if (callback_kind_on(range_callback_kind)) {
      marker_payload payload = make_payload(dom, st->tid);
      payload.args.roctxThreadRangeA.message = r.message;
      callbacks_enter(st, range_callback_kind,
                      ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxThreadRangeA, correlation_of(r),
                      &payload, r.callbacks);
    }
  }
  if (__builtin_expect(traced(core_buffer_kind, core_callback_kind), 0)) {
    marker_payload payload = make_payload(dom, st->tid);
    const char* msg = intern_or_null(st, message != nullptr ? message : "");
    payload.args.roctxRangePushA.message = msg;
    payload.retval.int32_t_retval = level;
    record_core_call(st, ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA, start, dom, msg, payload,
                     0);
  }
  return level;
}

int pop(const char* domain) {
  const uint64_t end = now_ns();
  thread_state* st = recording_thread();
  if (st == nullptr) return -1;
  const char* dom = intern_or_null(st, domain);
  int new_level = -1;
  for (auto it = st->ranges.rbegin(); it != st->ranges.rend(); ++it) {
    if (it->domain != dom) continue;
    range_entry& r = *it;
    if (r.correlation_id != 0) {
      constexpr int32_t op = ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxThreadRangeA;
      if (r.callbacks.count > 0) {
        marker_payload payload = make_payload(dom, st->tid);
        payload.args.roctxThreadRangeA.message = r.message;
        callbacks_exit(st, range_callback_kind, op, correlation_of(r), &payload, r.callbacks);
      }
      emit_marker(st, range_buffer_kind, op, r, end, st->tid, st->tid, 0);
    }
    // The ranges of the domain below this one are exactly its level.
    new_level = r.level;
    st->ranges.erase(std::next(it).base());
    break;
  }
  if (__builtin_expect(traced(core_buffer_kind, core_callback_kind), 0)) {
    marker_payload payload = make_payload(dom, st->tid);
    payload.retval.int32_t_retval = new_level;
    record_core_call(st, ROCPROFILER_MARKER_CORE_API_ID_roctxRangePop, end, dom, nullptr, payload,
                     0);
  }
  return new_level;
}

void mark(const char* domain, const char* message) {
  const uint64_t now = now_ns();
  thread_state* st = recording_thread();
  if (st == nullptr) return;
  const bool range = traced(range_buffer_kind, range_callback_kind);
  const bool core = traced(core_buffer_kind, core_callback_kind);
  if (!range && !core) return;
  const char* dom = intern_or_null(st, domain);
  const char* msg = intern_or_null(st, message != nullptr ? message : "");
  marker_payload payload = make_payload(dom, st->tid);
  payload.args.roctxMarkA.message = msg;
  if (range) {
    range_entry r = begin_call(st, now, dom, msg);
    constexpr int32_t op = ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxMarkA;
    if (callback_kind_on(range_callback_kind)) {
      callbacks_enter(st, range_callback_kind, op, correlation_of(r), &payload, r.callbacks);
      callbacks_exit(st, range_callback_kind, op, correlation_of(r), &payload, r.callbacks);
    }
    emit_marker(st, range_buffer_kind, op, r, now, st->tid, st->tid, 0);
  }
  if (core)
    record_core_call(st, ROCPROFILER_MARKER_CORE_API_ID_roctxMarkA, now, dom, msg, payload, 0);
}

}  // namespace
}  // namespace rocprof::core::markers

extern "C" {

ROCPROFILER_API int rocprof_marker_push(const char* domain, const char* message) {
  return rocprof::core::guarded_or(__func__, -1,
                                   [&] { return rocprof::core::markers::push(domain, message); });
}

ROCPROFILER_API int rocprof_marker_pop(const char* domain) {
  return rocprof::core::guarded_or(__func__, -1,
                                   [&] { return rocprof::core::markers::pop(domain); });
}

ROCPROFILER_API void rocprof_marker_mark(const char* domain, const char* message) {
  rocprof::core::guarded_call(__func__, [&] { rocprof::core::markers::mark(domain, message); });
}

}  // extern "C"
