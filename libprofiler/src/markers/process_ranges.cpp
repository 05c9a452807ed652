// Process ranges (start/stop): a range may end on any thread, so open ranges live in a fixed
// lock-free table keyed by range id: a slot is claimed with one CAS, filled, then published
// with a release store. start and stop pair into one roctxProcessRangeA record.
#include <atomic>

#include "backend_loader.hpp"
#include "clock.hpp"
#include "fork_guard.hpp"
#include "guarded.hpp"
#include "marker_records.hpp"
#include "rocprofiler-sdk/backend/markers.h"

namespace rocprof::core::markers {
namespace {

alignas(64) std::atomic<uint64_t> g_next_range_id{1};  // own cache line

struct process_range_slot {
  std::atomic<uint64_t> id{0};  // 0: free
  std::atomic<bool> ready{false};
  range_entry range;
  uint64_t start_tid = 0;
};
constexpr size_t process_slot_count = 8192;  // power of two
constexpr size_t process_probe_limit = 64;

struct process_range_table {
  process_range_slot slots[process_slot_count];
};
std::atomic<process_range_table*> g_process_ranges{nullptr};

process_range_slot* process_slots() {
  return lazily_made(g_process_ranges, [](process_range_table&) {}).slots;
}

// Claims a free slot for `id` among the ones it may probe; nullptr when all are taken.
process_range_slot* claim_slot(uint64_t id) {
  process_range_slot* slots = process_slots();
  for (size_t i = 0; i < process_probe_limit; ++i) {
    process_range_slot& candidate = slots[(id + i) & (process_slot_count - 1)];
    uint64_t expected = 0;
    if (candidate.id.compare_exchange_strong(expected, id, std::memory_order_acquire))
      return &candidate;
  }
  return nullptr;
}

uint64_t start(const char* domain, const char* message) {
  const uint64_t start = now_ns();
  const uint64_t id = g_next_range_id.fetch_add(1, std::memory_order_relaxed);
  thread_state* st = recording_thread();
  if (st == nullptr) return id;
  const char* dom = intern_or_null(st, domain);
  const char* msg = nullptr;
  if (traced(range_buffer_kind, range_callback_kind)) {
    msg = intern_or_null(st, message != nullptr ? message : "");
    process_range_slot* slot = claim_slot(id);
    if (slot == nullptr) {
      warn_once("process-ranges", "too many process ranges open at once; some are not recorded");
    } else {
      range_entry& r = slot->range;
      r = begin_call(st, start, dom, msg);
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

void stop(const char* domain, uint64_t id) {
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

}  // namespace
}  // namespace rocprof::core::markers

extern "C" {

// 0 on failure: ids start at 1, and stop ignores 0.
ROCPROFILER_API uint64_t rocprof_marker_start(const char* domain, const char* message) {
  return rocprof::core::guarded_or(__func__, uint64_t{0},
                                   [&] { return rocprof::core::markers::start(domain, message); });
}

ROCPROFILER_API void rocprof_marker_stop(const char* domain, uint64_t id) {
  rocprof::core::guarded_call(__func__, [&] { rocprof::core::markers::stop(domain, id); });
}

}  // extern "C"
