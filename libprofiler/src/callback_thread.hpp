// Delivery threads. Each owns a set of buffers and polls them (writers never signal on the
// hot path, so the thread also wakes on a short timer); a writer that must wait for a free
// block, or a flush, wakes it explicitly.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "limits.hpp"
#include "rocprofiler-sdk/fwd.h"

namespace rocprof::core {

struct buffer;

struct callback_thread {
  uint32_t index = 0;
  std::thread* worker = nullptr;  // a pointer: a forked child abandons the parent's thread
  std::mutex mutex;
  std::condition_variable wake;
  std::condition_variable flushed;
  bool stop_requested = false;
  uint64_t flush_requested = 0;
  uint64_t flush_completed = 0;
  std::vector<buffer*> buffers;     // under mutex
  std::vector<buffer*> delivering;  // the thread's own copy of `buffers` (capacity reused)
  std::atomic<uint64_t> tid{0};
  std::atomic<bool> running{false};
  // True while the thread polls at the busy period (blocks keep arriving): a writer waiting
  // for a block then does not wake it, because it comes within one period anyway and the
  // wake-up costs the writer a system call (in a VM also an inter-processor interrupt: ~10 us
  // of the writer's CPU time measured on the 2-core dev VM).
  std::atomic<bool> polling_fast{false};
};

inline callback_thread* g_callback_threads[max_callback_threads] = {};
inline std::atomic<uint32_t> g_num_callback_threads{0};

inline uint64_t callback_thread_handle(uint32_t index) {
  return index + 1;
}
callback_thread* find_callback_thread(rocprofiler_callback_thread_t id);
/// Creates (and starts) a delivery thread; nullptr when the limit is reached.
callback_thread* create_callback_thread();
/// The thread every buffer uses unless assigned elsewhere (created on first use).
callback_thread* default_callback_thread();
void assign_buffer(buffer* b, callback_thread* t);
void wake_callback_thread(callback_thread* t);
/// Delivers everything of b (all threads' data) on its delivery thread and waits.
rocprofiler_status_t flush_buffer(buffer* b);
/// Finalisation: final delivery of every buffer, then join every thread.
void stop_callback_threads();

/// rocprofiler_at_internal_thread_create registrations.
void run_internal_thread_callbacks(bool before);

}  // namespace rocprof::core
