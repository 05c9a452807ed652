// Template bodies of dispatch.hpp (kept apart so the declarations read cleanly).
#pragma once

#include "buffer.hpp"
#include "context.hpp"
#include "dispatch.hpp"

namespace rocprof::core {

template <typename Fill>
uint32_t emit_in_place(thread_state* st, rocprofiler_buffer_tracing_kind_t kind,
                       rocprofiler_tracing_operation_t operation, size_t size, Fill&& fill) {
  uint32_t delivered = 0;
  for (uint64_t set = g_buffer_kind_contexts[kind].load(std::memory_order_acquire); set != 0;) {
    const uint32_t i = take_lowest_context(set);
    context* ctx = g_contexts[i];
    if (!ctx->active.load(std::memory_order_relaxed)) continue;
    const buffer_service& svc = ctx->buffers[kind];
    if (svc.target == nullptr || !svc.ops.test(operation)) continue;
    void* at = buffer_reserve(svc.target, st, ROCPROFILER_BUFFER_CATEGORY_TRACING,
                              static_cast<uint32_t>(kind), size);
    if (at == nullptr) continue;
    fill(at, external_id(*st, i));
    buffer_commit(svc.target, st);
    ++delivered;
  }
  return delivered;
}

}  // namespace rocprof::core
