// Contexts and their services. Services are configured during tool initialisation and never
// change afterwards, so the hot path reads them without a lock; only `active` flips later.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "limits.hpp"
#include "rocprofiler-sdk/buffer.h"
#include "rocprofiler-sdk/buffer_tracing.h"
#include "rocprofiler-sdk/callback_tracing.h"
#include "rocprofiler-sdk/external_correlation.h"

namespace rocprof::core {

struct buffer;

/// Which operations of a kind a service wants. Empty list: all of them.
class op_filter {
 public:
  void set(const rocprofiler_tracing_operation_t* ops, size_t count);
  bool takes_all() const { return all_; }
  bool test(rocprofiler_tracing_operation_t op) const {
    if (all_ || op < 0) return true;  // op < 0: "any operation of the kind"
    const auto bit = static_cast<size_t>(op);
    return bit / 64 < bits_.size() && ((bits_[bit / 64] >> (bit % 64)) & 1u) != 0;
  }

 private:
  bool all_ = true;
  std::vector<uint64_t> bits_;
};

struct buffer_service {
  buffer* target = nullptr;  // nullptr: kind not configured
  op_filter ops;
};

struct callback_service {
  rocprofiler_callback_tracing_cb_t callback = nullptr;  // nullptr: kind not configured
  void* data = nullptr;
  op_filter ops;
};

/// The external-correlation-id request service (external_request.cpp).
struct external_request_service {
  rocprofiler_external_correlation_id_request_cb_t callback = nullptr;  // nullptr: none
  void* data = nullptr;
  uint64_t kinds = 0;  // bit k: rocprofiler_external_correlation_id_request_kind_t k
};

/// A PC sampling service: the agent sampled and the buffer its records go to. The
/// configuration itself is per agent, process-wide (pc_sampling.hpp).
struct pc_sampling_service {
  rocprofiler_agent_id_t agent{};
  buffer* target = nullptr;
  // ROCPROFILER_PC_SAMPLING_CONFIGURE_FLAG_AGGREGATED_RECORDS: aggregated samples reach the
  // buffer as they are; otherwise as one STOCHASTIC_V0 record per sample.
  bool aggregated_records = false;
};

struct context {
  uint32_t index = 0;
  uint32_t tool = 0;  // index of the tool that created it
  std::atomic<bool> active{false};
  std::atomic<bool> valid{true};
  buffer_service buffers[ROCPROFILER_BUFFER_TRACING_LAST];
  callback_service callbacks[ROCPROFILER_CALLBACK_TRACING_LAST];
  external_request_service external_requests;
  bool counters = false;
  std::vector<pc_sampling_service> pc_sampling;  // at most one per agent
};

inline context* g_contexts[max_contexts] = {};
inline std::atomic<uint32_t> g_num_contexts{0};

/// Context i's buffer service for `kind` when the context is active and configured one, else
/// nullptr. Whether it takes a given operation is left to the caller (svc->ops).
inline const buffer_service* active_buffer_service(uint32_t i,
                                                   rocprofiler_buffer_tracing_kind_t kind) {
  const context* ctx = g_contexts[i];
  if (!ctx->active.load(std::memory_order_relaxed)) return nullptr;
  const buffer_service& svc = ctx->buffers[kind];
  return svc.target != nullptr ? &svc : nullptr;
}

/// The same for callback tracing.
inline const callback_service* active_callback_service(uint32_t i,
                                                       rocprofiler_callback_tracing_kind_t kind) {
  const context* ctx = g_contexts[i];
  if (!ctx->active.load(std::memory_order_relaxed)) return nullptr;
  const callback_service& svc = ctx->callbacks[kind];
  return svc.callback != nullptr ? &svc : nullptr;
}
/// Kinds that some active context traces: bit k of word k / 64.
alignas(64) inline std::atomic<uint64_t> g_buffer_kinds[ROCPROF_BACKEND_KIND_WORDS] = {};
inline std::atomic<uint64_t> g_callback_kinds[ROCPROF_BACKEND_KIND_WORDS] = {};
/// External-correlation-id request kinds some active context asks for: bit k of kind k.
inline std::atomic<uint64_t> g_external_request_kinds{0};
static_assert(ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_LAST <= 64, "request kinds are one word");

/// Bumped whenever what a record reaches may change (a context started or stopped, a buffer
/// destroyed, a fork): threads then recompute their direct lanes (thread_state.hpp).
inline std::atomic<uint64_t> g_dispatch_generation{1};
inline void dispatch_changed() {
  g_dispatch_generation.fetch_add(1, std::memory_order_acq_rel);
}

/// For each kind, the contexts (bit i: context index i) that configured a service for it. Set
/// when the service is configured and never cleared (services never change afterwards), so the
/// hot path visits only the contexts that may want a record instead of every context.
static_assert(max_contexts <= 64, "context sets are 64-bit masks");
inline std::atomic<uint64_t> g_buffer_kind_contexts[ROCPROFILER_BUFFER_TRACING_LAST] = {};
inline std::atomic<uint64_t> g_callback_kind_contexts[ROCPROFILER_CALLBACK_TRACING_LAST] = {};

/// Index of the lowest context in `set`, which it removes from the set.
inline uint32_t take_lowest_context(uint64_t& set) {
  const auto i = static_cast<uint32_t>(__builtin_ctzll(set));
  set &= set - 1;
  return i;
}

inline uint64_t context_handle(uint32_t index) {
  return index + 1;
}
context* find_context(rocprofiler_context_id_t id);

inline bool kind_bit(const std::atomic<uint64_t>* words, uint32_t kind) {
  return ((words[kind / 64].load(std::memory_order_relaxed) >> (kind % 64)) & 1u) != 0;
}
inline bool buffer_kind_on(rocprofiler_buffer_tracing_kind_t kind) {
  return kind_bit(g_buffer_kinds, static_cast<uint32_t>(kind));
}
inline bool callback_kind_on(rocprofiler_callback_tracing_kind_t kind) {
  return kind_bit(g_callback_kinds, static_cast<uint32_t>(kind));
}

/// Recomputes the kind masks from the active contexts and tells the backends. Takes the
/// configuration mutex itself.
void contexts_changed();
/// Stops every context (finalisation).
void stop_all_contexts();
/// Stops the contexts a tool created (before its finalize, as rocprofiler-sdk does).
void stop_tool_contexts(uint32_t tool);
/// Marks the contexts of a tool whose initialize failed as invalid.
void invalidate_tool_contexts(uint32_t tool);

}  // namespace rocprof::core
