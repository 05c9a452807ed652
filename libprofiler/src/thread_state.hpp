// Everything the core keeps per recording thread. Created on the thread's first call into
// the core (the one allocation of a thread's life), released when the thread exits.
// The hot path reaches it through one initial-exec TLS load.
#pragma once

#include <cstdint>
#include <vector>

#include "intern.hpp"
#include "limits.hpp"
#include "rocprofiler-sdk/buffer_tracing.h"
#include "rocprofiler-sdk/fwd.h"

namespace rocprof::core {

struct lane;

/// Callback-tracing subscribers of one call, captured at ENTER and reused at EXIT.
struct callback_set {
  callback_set() noexcept {}  // user-provided: value-initialisation must not zero the arrays
  uint32_t count = 0;
  // Only the first `count` entries are meaningful; left uninitialised so that opening a range
  // does not clear 100 bytes on the hot path.
  uint32_t context_index[max_callback_contexts];
  rocprofiler_user_data_t user_data[max_callback_contexts];
};

/// An open thread range (push without pop yet).
struct range_entry {
  range_entry() noexcept {}       // user-provided: emplace_back() must not zero the whole entry
  const char* domain = nullptr;   // interned, nullptr: ROCTx / default domain
  const char* message = nullptr;  // interned; nullptr when not traced at the push
  uint64_t start_ns = 0;
  uint64_t correlation_id = 0;  // 0: not traced (no context wanted it at the push)
  uint64_t ancestor = 0;
  int32_t level = 0;  // ranges of the same domain below this one: the push's return value
  callback_set callbacks;
};

struct external_entry {
  uint32_t context_index;
  rocprofiler_user_data_t value;
};

struct alignas(64) thread_state {
  uint64_t tid = 0;
  uint64_t current_api = 0;       // internal id of the traced API call in progress (ancestor)
  uint64_t next_correlation = 0;  // this thread's block of internal correlation ids
  uint64_t correlation_limit = 0;
  std::vector<range_entry> ranges;
  std::vector<external_entry> externals;
  lane* lanes[max_buffers] = {};
  // Per buffer-tracing kind: this thread's lane of the one buffer that takes every record of
  // the kind (one active context, no operation filter), or nullptr (not known yet, or the
  // general loop over contexts is needed). Valid while direct_generation equals
  // g_dispatch_generation; see direct_lane() in dispatch_inl.hpp.
  uint64_t direct_generation = 0;
  lane* direct_lanes[ROCPROFILER_BUFFER_TRACING_LAST] = {};
  uint32_t direct_contexts[ROCPROFILER_BUFFER_TRACING_LAST] = {};
  uint64_t direct_known_none[(ROCPROFILER_BUFFER_TRACING_LAST + 63) / 64] = {};  // bit: general
  intern_cache strings;
};

// __thread (not thread_local): a plain pointer needs no TLS wrapper call on each access.
extern __thread thread_state* t_thread_state __attribute__((tls_model("initial-exec")));

thread_state* create_thread_state();

/// The calling thread's state; nullptr while the thread is exiting.
inline thread_state* current_thread() {
  thread_state* st = t_thread_state;
  if (__builtin_expect(st != nullptr, 1)) return st;
  return create_thread_state();
}

/// The innermost external correlation id pushed on this thread for the context (0 if none).
inline rocprofiler_user_data_t external_id(const thread_state& st, uint32_t context_index) {
  for (auto it = st.externals.rbegin(); it != st.externals.rend(); ++it)
    if (it->context_index == context_index) return it->value;
  return rocprofiler_user_data_t{0};
}

}  // namespace rocprof::core
