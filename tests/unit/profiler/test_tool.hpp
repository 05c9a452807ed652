// A real tool for the core's unit tests: registered with rocprofiler_force_configure before
// any test runs (a gtest global environment), it creates one context per concern. Tests start
// only the contexts they use, so they do not see each other's records.
#pragma once

#include <rocprofiler-sdk/rocprofiler.h>

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace rocprof::test {

/// A copy of a delivered marker record, with its strings copied too.
struct marker_copy {
  rocprofiler_buffer_tracing_marker_api_record_t record{};
  std::string message;
  std::string domain;
};

struct callback_event {
  rocprofiler_callback_tracing_kind_t kind{};
  int32_t operation = 0;
  rocprofiler_callback_phase_t phase{};
  rocprofiler_correlation_id_t correlation{};
  uint64_t thread_id = 0;
  uint64_t user_data_at_call = 0;  // what the callback found in *user_data
  std::string message;
};

/// What one buffer's callback received.
struct collector {
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<marker_copy> markers;
  std::vector<size_t> batch_sizes;
  std::vector<uint64_t> delivery_tids;
  uint64_t drops = 0;
  bool count_only = false;  // many-thread test: keep counts, not copies
  std::map<uint64_t, uint64_t> per_thread_ranges;
  std::vector<rocprofiler_buffer_tracing_kernel_dispatch_record_t> dispatches;
  std::vector<callback_event> api_callbacks;  // CUDA API callbacks (backend test)
  uint64_t total = 0;
  // Gate: while closed, the callback waits (to hold a block "in delivery").
  bool gate_closed = false;
  bool in_callback = false;
  rocprofiler_status_t flush_from_callback = ROCPROFILER_STATUS_SUCCESS;
  bool try_flush_inside = false;

  void clear();
  /// Records of one kind (copy), in delivery order.
  std::vector<marker_copy> of_kind(rocprofiler_buffer_tracing_kind_t kind);
  size_t delivered_records();
};

struct tool_state {
  rocprofiler_context_id_t range_ctx{}, callback_ctx{}, watermark_ctx{}, discard_ctx{},
      filter_ctx{}, thread_ctx{}, many_ctx{}, backend_ctx{};
  rocprofiler_buffer_id_t range_buf{}, watermark_buf{}, discard_buf{}, filter_buf{}, thread_buf{},
      many_buf{}, backend_buf{};
  rocprofiler_callback_thread_t dedicated_thread{};
  collector range, watermark, discard, filter, thread, many, backend;

  std::mutex callback_mutex;
  std::vector<callback_event> callbacks;

  // Outcomes of calls made during initialisation.
  rocprofiler_status_t second_configure_status = ROCPROFILER_STATUS_SUCCESS;
  rocprofiler_status_t nonzero_context_status = ROCPROFILER_STATUS_SUCCESS;
  int initialize_calls = 0;
  uint32_t configure_version = 0;
  uint32_t configure_priority = 99;
  uint64_t initializer_tid = 0;
};

tool_state& tool();

/// Starts a context for the lifetime of the guard.
class context_guard {
 public:
  explicit context_guard(rocprofiler_context_id_t ctx);
  ~context_guard();
  context_guard(const context_guard&) = delete;
  context_guard& operator=(const context_guard&) = delete;

 private:
  rocprofiler_context_id_t ctx_;
};

uint64_t os_tid();

/// Delivers whatever earlier tests left in the buffer, then forgets everything collected.
void reset(rocprofiler_buffer_id_t buffer, collector& c);

}  // namespace rocprof::test
