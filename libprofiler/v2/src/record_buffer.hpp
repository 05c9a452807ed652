// A v2 memory-storage buffer: records of several sizes back to back in `size` bytes. When the
// next record does not fit, on rocprofiler_flush_data, at the flush interval and when its
// session terminates, the records go to the user's callback as [begin, end).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "rocprofiler/v2/rocprofiler.h"

namespace rocprof::v2 {

class record_buffer {
 public:
  record_buffer(rocprofiler_session_id_t session, rocprofiler_buffer_id_t id,
                rocprofiler_buffer_callback_t callback, size_t size);
  ~record_buffer();
  record_buffer(const record_buffer&) = delete;
  record_buffer& operator=(const record_buffer&) = delete;

  rocprofiler_buffer_id_t id() const { return id_; }

  /// Copies one record (delivering the held ones first when it does not fit). Records
  /// arriving after close() are dropped.
  void append(const void* record, size_t size);
  /// Hands the held records to the callback (on this thread). A callback that flushes its own
  /// buffer gets nothing more (the records are already being delivered).
  void deliver();
  /// Delivers every `milliseconds` from a thread of the buffer (0 stops it).
  void set_flush_interval(uint64_t milliseconds);
  /// Delivers what is held and accepts nothing more (rocprofiler_destroy_buffer).
  void close();

 private:
  void deliver_locked();
  void flusher_loop();
  void stop_flusher();

  const rocprofiler_session_id_t session_;
  const rocprofiler_buffer_id_t id_;
  const rocprofiler_buffer_callback_t callback_;
  std::recursive_mutex mutex_;     // storage, the callback's runs (re-entered by a flush inside it)
  std::vector<uint64_t> storage_;  // 8-byte aligned: every record struct is
  size_t used_ = 0;                // bytes
  bool delivering_ = false;
  bool closed_ = false;

  std::mutex flusher_mutex_;
  std::condition_variable flusher_wake_;
  std::thread flusher_;
  uint64_t interval_ms_ = 0;
  bool stop_flusher_ = false;
};

}  // namespace rocprof::v2
