#include "dispatch.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>

#include "buffer.hpp"
#include "context.hpp"
#include "dispatch_inl.hpp"

namespace rocprof::core {

lane* resolve_direct_lane(thread_state* st, rocprofiler_buffer_tracing_kind_t kind) {
  const uint64_t generation = g_dispatch_generation.load(std::memory_order_acquire);
  if (st->direct_generation != generation) {
    std::fill(std::begin(st->direct_lanes), std::end(st->direct_lanes), nullptr);
    std::fill(std::begin(st->direct_known_none), std::end(st->direct_known_none), 0);
    st->direct_generation = generation;
  }
  uint64_t& none_word = st->direct_known_none[kind / 64];
  const uint64_t none_bit = uint64_t{1} << (kind % 64);
  if ((none_word & none_bit) != 0) return nullptr;
  // Direct only with exactly one active context whose service takes every operation.
  buffer* target = nullptr;
  uint32_t target_context = 0;
  for (uint64_t set = g_buffer_kind_contexts[kind].load(std::memory_order_acquire); set != 0;) {
    const uint32_t i = take_lowest_context(set);
    const buffer_service* svc = active_buffer_service(i, kind);
    if (svc == nullptr) continue;
    if (target != nullptr || !svc->ops.takes_all()) {
      none_word |= none_bit;
      return nullptr;
    }
    target = svc->target;
    target_context = i;
  }
  lane* l = target != nullptr ? thread_lane(target, st) : nullptr;
  if (l == nullptr) {
    none_word |= none_bit;
    return nullptr;
  }
  st->direct_lanes[kind] = l;
  st->direct_contexts[kind] = target_context;
  return l;
}

uint32_t emit_record(thread_state* st, rocprofiler_buffer_tracing_kind_t kind,
                     rocprofiler_tracing_operation_t operation, const void* record, size_t size,
                     bool fill_external) {
  return emit_in_place(st, kind, operation, size,
                       [&](void* at, const rocprofiler_user_data_t& external) {
                         std::memcpy(at, record, size);
                         if (fill_external)
                           std::memcpy(static_cast<unsigned char*>(at) + external_offset, &external,
                                       sizeof(external));
                       });
}

void callbacks_enter(thread_state* st, rocprofiler_callback_tracing_kind_t kind,
                     rocprofiler_tracing_operation_t operation,
                     rocprofiler_correlation_id_t correlation_id, void* payload,
                     callback_set& set) {
  set.count = 0;
  for (uint64_t wanted = g_callback_kind_contexts[kind].load(std::memory_order_acquire);
       wanted != 0 && set.count < max_callback_contexts;) {
    const uint32_t i = take_lowest_context(wanted);
    const callback_service* svc = active_callback_service(i, kind);
    if (svc == nullptr || !svc->ops.test(operation)) continue;
    const uint32_t slot = set.count++;
    set.context_index[slot] = i;
    set.user_data[slot].value = 0;
    correlation_id.external = external_id(*st, i);
    rocprofiler_callback_tracing_record_t rec{rocprofiler_context_id_t{context_handle(i)},
                                              st->tid,
                                              correlation_id,
                                              kind,
                                              operation,
                                              ROCPROFILER_CALLBACK_PHASE_ENTER,
                                              payload};
    svc->callback(rec, &set.user_data[slot], svc->data);
  }
}

void callbacks_exit(thread_state* st, rocprofiler_callback_tracing_kind_t kind,
                    rocprofiler_tracing_operation_t operation,
                    rocprofiler_correlation_id_t correlation_id, void* payload, callback_set& set) {
  for (uint32_t slot = 0; slot < set.count; ++slot) {
    const uint32_t i = set.context_index[slot];
    const callback_service& svc = g_contexts[i]->callbacks[kind];
    correlation_id.external = external_id(*st, i);
    rocprofiler_callback_tracing_record_t rec{rocprofiler_context_id_t{context_handle(i)},
                                              st->tid,
                                              correlation_id,
                                              kind,
                                              operation,
                                              ROCPROFILER_CALLBACK_PHASE_EXIT,
                                              payload};
    svc.callback(rec, &set.user_data[slot], svc.data);
  }
}

void report_dropped(rocprofiler_buffer_tracing_kind_t kind, uint64_t count) {
  const uint32_t n = g_num_contexts.load(std::memory_order_acquire);
  for (uint32_t i = 0; i < n; ++i) {
    buffer* b = g_contexts[i]->buffers[kind].target;
    if (b != nullptr) b->reported_drops.fetch_add(count, std::memory_order_relaxed);
  }
}

}  // namespace rocprof::core
