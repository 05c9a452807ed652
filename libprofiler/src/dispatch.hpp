// Handing records to the services of the active contexts: buffer records into buffers,
// ENTER/EXIT into callback-tracing callbacks. HOT: no lock, no allocation.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "rocprofiler-sdk/buffer_tracing.h"
#include "rocprofiler-sdk/callback_tracing.h"
#include "thread_state.hpp"

namespace rocprof::core {

// On its own cache line: every traced call writes it, and the masks and context table that
// every call reads must not share that line.
alignas(64) inline std::atomic<uint64_t> g_next_correlation_id{1};

/// Internal correlation ids are unique per call. Each thread takes them from the global
/// counter in blocks of correlation_block, so that threads on different cores do not fight
/// over one cache line on every call (measured: 8 threads on 16 cores paid ~400 ns per marker
/// pair for a shared fetch_add). Ids increase per thread; across threads they are unique but
/// not in call order, and a thread that ends leaves its unused ids as a gap.
inline constexpr uint64_t correlation_block = 64;

inline uint64_t next_correlation_id(thread_state* st) {
  if (__builtin_expect(st == nullptr, 0))
    return g_next_correlation_id.fetch_add(1, std::memory_order_relaxed);
  if (__builtin_expect(st->next_correlation == st->correlation_limit, 0)) {
    st->next_correlation =
        g_next_correlation_id.fetch_add(correlation_block, std::memory_order_relaxed);
    st->correlation_limit = st->next_correlation + correlation_block;
  }
  return st->next_correlation++;
}

/// Offset of correlation_id.external in every buffer record (see buffer_tracing.h).
inline constexpr size_t external_offset = 24;

/// Copies `record` (of `size` bytes) into the buffer of every active context tracing
/// kind/operation. With fill_external, each copy's correlation_id.external is set per context
/// from the calling thread's stack. Returns how many got it.
uint32_t emit_record(thread_state* st, rocprofiler_buffer_tracing_kind_t kind,
                     rocprofiler_tracing_operation_t operation, const void* record, size_t size,
                     bool fill_external);

/// Like emit_record, but builds the record in place: fill(void* destination,
/// rocprofiler_user_data_t external) writes all `size` bytes of it.
template <typename Fill>
uint32_t emit_in_place(thread_state* st, rocprofiler_buffer_tracing_kind_t kind,
                       rocprofiler_tracing_operation_t operation, size_t size, Fill&& fill);

/// Invokes ENTER on every active context tracing kind/operation and remembers them in `set`.
void callbacks_enter(thread_state* st, rocprofiler_callback_tracing_kind_t kind,
                     rocprofiler_tracing_operation_t operation,
                     rocprofiler_correlation_id_t correlation_id, void* payload, callback_set& set);
/// Invokes EXIT on the contexts remembered at ENTER, with their user data.
void callbacks_exit(thread_state* st, rocprofiler_callback_tracing_kind_t kind,
                    rocprofiler_tracing_operation_t operation,
                    rocprofiler_correlation_id_t correlation_id, void* payload, callback_set& set);

/// Adds count to the drop count of every buffer tracing `kind` (any context).
void report_dropped(rocprofiler_buffer_tracing_kind_t kind, uint64_t count);

}  // namespace rocprof::core

#include "dispatch_inl.hpp"
