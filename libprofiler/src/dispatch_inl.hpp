// Template bodies of dispatch.hpp (kept apart so the declarations read cleanly).
#pragma once

#include "buffer.hpp"
#include "context.hpp"
#include "dispatch.hpp"

namespace rocprof::core {

/// Out-of-line part of direct_lane(): refreshes the thread's cache after a generation change
/// and works out the kind's direct lane.
lane* resolve_direct_lane(thread_state* st, rocprofiler_buffer_tracing_kind_t kind);

/// HOT. The calling thread's lane for `kind` when one buffer takes every record of it, else
/// nullptr. Its point is the latency of the dependent loads between two clock reads: thread
/// state, lane, block, instead of mask, context, service, buffer, thread state, lane, block.
inline lane* direct_lane(thread_state* st, rocprofiler_buffer_tracing_kind_t kind) {
  if (__builtin_expect(
          st->direct_generation == g_dispatch_generation.load(std::memory_order_acquire), 1)) {
    if (lane* l = st->direct_lanes[kind]) return l;
  }
  return resolve_direct_lane(st, kind);
}

template <typename Fill>
__attribute__((always_inline)) inline uint32_t emit_in_place(
    thread_state* st, rocprofiler_buffer_tracing_kind_t kind,
    rocprofiler_tracing_operation_t operation, size_t size, Fill&& fill) {
  constexpr uint32_t category = ROCPROFILER_BUFFER_CATEGORY_TRACING;
  if (lane* l = direct_lane(st, kind)) {
    const reservation room = lane_reserve(l, st, category, static_cast<uint32_t>(kind), size);
    if (room.record == nullptr) return 0;
    fill(room.record, external_id(*st, st->direct_contexts[kind]));
    buffer_commit(room);
    return 1;
  }
  uint32_t delivered = 0;
  for (uint64_t set = g_buffer_kind_contexts[kind].load(std::memory_order_acquire); set != 0;) {
    const uint32_t i = take_lowest_context(set);
    const buffer_service* svc = active_buffer_service(i, kind);
    if (svc == nullptr || !svc->ops.test(operation)) continue;
    const reservation room =
        buffer_reserve(svc->target, st, category, static_cast<uint32_t>(kind), size);
    if (room.record == nullptr) continue;
    fill(room.record, external_id(*st, i));
    buffer_commit(room);
    ++delivered;
  }
  return delivered;
}

}  // namespace rocprof::core
