// The host backend: marker calls (ROCTx, NVTX, Kokkos) turned into marker records.
//
// Thread ranges live on the calling thread's state (a stack, so no lock). Process ranges may
// end on any thread, so they live in a fixed lock-free table keyed by range id: a slot is
// claimed with one CAS, filled, then published with a release store.
#include <atomic>
#include <cstring>

#include "backend_loader.hpp"
#include "clock.hpp"
#include "context.hpp"
#include "dispatch.hpp"
#include "registration.hpp"
#include "rocprofiler-sdk/backend/markers.h"
#include "rocprofiler-sdk/buffer_tracing.h"
#include "rocprofiler-sdk/callback_tracing.h"
#include "thread_state.hpp"

namespace rocprof::core {
namespace {

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

alignas(64) std::atomic<uint64_t> g_next_range_id{1};  // own cache line

struct process_range_slot {
  std::atomic<uint64_t> id{0};  // 0: free
  std::atomic<bool> ready{false};
  range_entry range;
  uint64_t start_tid = 0;
};
constexpr size_t process_slot_count = 8192;  // power of two
constexpr size_t process_probe_limit = 64;

process_range_slot* process_slots() {
  static auto* slots = new process_range_slot[process_slot_count];
  return slots;
}

bool traced(rocprofiler_buffer_tracing_kind_t b, rocprofiler_callback_tracing_kind_t c) {
  return buffer_kind_on(b) || callback_kind_on(c);
}

// nullptr when the core is not usable on this thread (exiting, or inside initialisation).
thread_state* recording_thread() {
  if (!ensure_initialized()) return nullptr;
  return current_thread();
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

marker_payload make_payload(const char* domain, uint64_t start_tid) {
  marker_payload p{};
  p.size = sizeof(p);
  p.domain = domain;
  p.start_thread_id = start_tid;
  return p;
}

rocprofiler_correlation_id_t correlation_of(const range_entry& r) {
  rocprofiler_correlation_id_t c{};
  c.internal = r.correlation_id;
  c.ancestor = r.ancestor;
  return c;
}

// A call recorded as one record of a kind (start..end), with ENTER and EXIT callbacks.
void record_call(thread_state* st, rocprofiler_buffer_tracing_kind_t bkind,
                 rocprofiler_callback_tracing_kind_t ckind, int32_t op, range_entry& r,
                 marker_payload& payload, uint64_t range_id) {
  const bool callbacks = callback_kind_on(ckind);
  if (callbacks) callbacks_enter(st, ckind, op, correlation_of(r), &payload, r.callbacks);
  const uint64_t end = now_ns();
  if (callbacks) callbacks_exit(st, ckind, op, correlation_of(r), &payload, r.callbacks);
  emit_marker(st, bkind, op, r, end, st->tid, st->tid, range_id);
}

// The MARKER_CORE_API view: one record per library call.
void record_core_call(thread_state* st, int32_t op, uint64_t start_ns, const char* domain,
                      const char* message, const marker_payload& payload_in, uint64_t range_id) {
  if (!traced(core_buffer_kind, core_callback_kind)) return;
  range_entry r;
  r.domain = domain;
  r.message = message;
  r.start_ns = start_ns;
  r.correlation_id = next_correlation_id(st);
  r.ancestor = st->current_api;
  marker_payload payload = payload_in;
  record_call(st, core_buffer_kind, core_callback_kind, op, r, payload, range_id);
}

const char* intern_or_null(thread_state* st, const char* s) {
  return s != nullptr ? st->strings.intern(s) : nullptr;
}

// Nesting level of a new range of `domain`: one above the innermost open range of the domain.
// Each range keeps its level, so neither push nor pop counts the whole stack (the innermost
// range of the domain is usually the top of the stack).
int32_t next_level(const thread_state* st, const char* domain) {
  for (auto it = st->ranges.rbegin(); it != st->ranges.rend(); ++it)
    if (it->domain == domain) return it->level + 1;
  return 0;
}

}  // namespace
}  // namespace rocprof::core

extern "C" {

using namespace rocprof::core;

ROCPROFILER_API int rocprof_marker_push(const char* domain, const char* message) {
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

ROCPROFILER_API int rocprof_marker_pop(const char* domain) {
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

ROCPROFILER_API uint64_t rocprof_marker_start(const char* domain, const char* message) {
  const uint64_t start = now_ns();
  const uint64_t id = g_next_range_id.fetch_add(1, std::memory_order_relaxed);
  thread_state* st = recording_thread();
  if (st == nullptr) return id;
  const char* dom = intern_or_null(st, domain);
  const char* msg = nullptr;
  if (traced(range_buffer_kind, range_callback_kind)) {
    msg = intern_or_null(st, message != nullptr ? message : "");
    process_range_slot* slots = process_slots();
    process_range_slot* slot = nullptr;
    for (size_t i = 0; i < process_probe_limit && slot == nullptr; ++i) {
      process_range_slot& candidate = slots[(id + i) & (process_slot_count - 1)];
      uint64_t expected = 0;
      if (candidate.id.compare_exchange_strong(expected, id, std::memory_order_acquire))
        slot = &candidate;
    }
    if (slot == nullptr) {
      warn_once("process-ranges", "too many process ranges open at once; some are not recorded");
    } else {
      range_entry& r = slot->range;
      r = range_entry{};
      r.domain = dom;
      r.message = msg;
      r.start_ns = start;
      r.correlation_id = next_correlation_id(st);
      r.ancestor = st->current_api;
      slot->start_tid = st->tid;
      if (callback_kind_on(range_callback_kind)) {
        marker_payload payload = make_payload(dom, st->tid);
        payload.args.roctxProcessRangeA.message = msg;
        payload.args.roctxProcessRangeA.id = id;
        callbacks_enter(st, range_callback_kind,
                        ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxProcessRangeA, correlation_of(r),
                        &payload, r.callbacks);
      }
      slot->ready.store(true, std::memory_order_release);
    }
  }
  if (__builtin_expect(traced(core_buffer_kind, core_callback_kind), 0)) {
    if (msg == nullptr) msg = intern_or_null(st, message != nullptr ? message : "");
    marker_payload payload = make_payload(dom, st->tid);
    payload.args.roctxRangeStartA.message = msg;
    payload.retval.uint64_t_retval = id;
    record_core_call(st, ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStartA, start, dom, msg, payload,
                     id);
  }
  return id;
}

ROCPROFILER_API void rocprof_marker_stop(const char* domain, uint64_t id) {
  const uint64_t end = now_ns();
  thread_state* st = recording_thread();
  if (st == nullptr || id == 0) return;
  process_range_slot* slots = process_slots();
  for (size_t i = 0; i < process_probe_limit; ++i) {
    process_range_slot& slot = slots[(id + i) & (process_slot_count - 1)];
    if (slot.id.load(std::memory_order_acquire) != id) continue;
    while (!slot.ready.load(std::memory_order_acquire)) {
    }  // the starting thread is between claim and publish: a few instructions
    range_entry r = slot.range;
    const uint64_t start_tid = slot.start_tid;
    slot.ready.store(false, std::memory_order_relaxed);
    slot.id.store(0, std::memory_order_release);
    constexpr int32_t op = ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxProcessRangeA;
    if (r.callbacks.count > 0) {
      marker_payload payload = make_payload(r.domain, start_tid);
      payload.args.roctxProcessRangeA.message = r.message;
      payload.args.roctxProcessRangeA.id = id;
      callbacks_exit(st, range_callback_kind, op, correlation_of(r), &payload, r.callbacks);
    }
    emit_marker(st, range_buffer_kind, op, r, end, start_tid, st->tid, id);
    break;
  }
  if (__builtin_expect(traced(core_buffer_kind, core_callback_kind), 0)) {
    marker_payload payload = make_payload(intern_or_null(st, domain), st->tid);
    payload.args.roctxRangeStop.id = id;
    record_core_call(st, ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStop, end, payload.domain,
                     nullptr, payload, id);
  }
}

ROCPROFILER_API void rocprof_marker_mark(const char* domain, const char* message) {
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
    range_entry r;
    r.domain = dom;
    r.message = msg;
    r.start_ns = now;
    r.correlation_id = next_correlation_id(st);
    r.ancestor = st->current_api;
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

ROCPROFILER_API int rocprof_marker_name_thread(const char* domain, const char* name) {
  const uint64_t start = now_ns();
  thread_state* st = recording_thread();
  if (st == nullptr || !traced(name_buffer_kind, name_callback_kind)) return 0;
  range_entry r;
  r.domain = intern_or_null(st, domain);
  r.message = intern_or_null(st, name != nullptr ? name : "");
  r.start_ns = start;
  r.correlation_id = next_correlation_id(st);
  r.ancestor = st->current_api;
  marker_payload payload = make_payload(r.domain, st->tid);
  payload.args.roctxNameOsThread.name = r.message;
  record_call(st, name_buffer_kind, name_callback_kind,
              ROCPROFILER_MARKER_NAME_API_ID_roctxNameOsThread, r, payload, st->tid);
  return 0;
}

ROCPROFILER_API int rocprof_marker_name_object(int operation, const char* name, uint64_t object) {
  const uint64_t start = now_ns();
  thread_state* st = recording_thread();
  if (st == nullptr || operation < 0 || operation >= ROCPROFILER_MARKER_NAME_API_ID_LAST ||
      !traced(name_buffer_kind, name_callback_kind))
    return 0;
  range_entry r;
  r.message = intern_or_null(st, name != nullptr ? name : "");
  r.start_ns = start;
  r.correlation_id = next_correlation_id(st);
  r.ancestor = st->current_api;
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

static int control_call(int32_t op, uint64_t tid) {
  const uint64_t start = now_ns();
  thread_state* st = recording_thread();
  if (st == nullptr || !traced(control_buffer_kind, control_callback_kind)) return 0;
  range_entry r;
  r.start_ns = start;
  r.correlation_id = next_correlation_id(st);
  r.ancestor = st->current_api;
  marker_payload payload = make_payload(nullptr, st->tid);
  payload.args.roctxProfilerPause.tid = tid;  // same layout for Resume
  record_call(st, control_buffer_kind, control_callback_kind, op, r, payload, tid);
  return 0;
}

ROCPROFILER_API int rocprof_marker_pause(uint64_t tid) {
  return control_call(ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerPause, tid);
}

ROCPROFILER_API int rocprof_marker_resume(uint64_t tid) {
  return control_call(ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerResume, tid);
}

}  // extern "C"
