// Buffers. Each recording thread owns a lane per buffer: two preallocated blocks of the
// buffer's size. The writer appends fixed records to its active block and publishes them with
// one release store; a block that reached the watermark (or is full) goes to the buffer's
// callback thread through a lock-free list and the writer switches to the other block.
// Delivery, flush and discard run on the consumer side under the buffer's mutex, which
// writers never take.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include "limits.hpp"
#include "rocprofiler-sdk/buffer.h"

namespace rocprof::core {

struct callback_thread;
struct thread_state;
struct buffer;

struct block {
  static constexpr uint32_t free_state = 0;    // owned by nobody; the lane may take it
  static constexpr uint32_t active_state = 1;  // the lane's writer appends to it
  static constexpr uint32_t full_state = 2;    // handed to the consumer
  std::atomic<uint32_t> state{free_state};
  std::atomic<size_t> committed{0};  // bytes the writer published
  size_t delivered = 0;              // bytes already given to the callback (consumer side)
  block* next_full = nullptr;        // link in buffer::full
  unsigned char* data = nullptr;
};

// Cache-line aligned: lanes of different threads are written concurrently.
struct alignas(64) lane {
  buffer* owner = nullptr;
  std::atomic<bool> claimed{false};
  block blocks[2];
  std::atomic<block*> active{nullptr};
  size_t used = 0;  // writer only: bytes used in the active block
  std::atomic<uint64_t> dropped{0};
  lane* next = nullptr;  // link in buffer::lanes (append only)
};

struct buffer {
  uint32_t index = 0;
  rocprofiler_context_id_t context{0};
  size_t capacity = 0;
  size_t watermark = 0;
  rocprofiler_buffer_policy_t policy = ROCPROFILER_BUFFER_POLICY_LOSSLESS;
  rocprofiler_buffer_tracing_cb_t callback = nullptr;
  void* callback_data = nullptr;
  callback_thread* thread = nullptr;
  std::atomic<bool> destroyed{false};
  std::atomic<lane*> lanes{nullptr};
  std::atomic<block*> full{nullptr};
  std::atomic<uint64_t> reported_drops{0};  // from backends
  std::atomic<uint64_t> delivering_tid{0};  // thread inside the callback, 0 if none

  std::mutex consume_mutex;  // consumer side only
  std::vector<struct rocprofiler_record_header_t*> batch;
  std::vector<block*> taken;
};

inline buffer* g_buffers[max_buffers] = {};
inline std::atomic<uint32_t> g_num_buffers{0};

inline uint64_t buffer_handle(uint32_t index) {
  return index + 1;
}
buffer* find_buffer(rocprofiler_buffer_id_t id);

/// HOT. Reserves room for one record of `size` bytes in the calling thread's lane and writes
/// its header; returns where the record goes, nullptr if it is dropped. The caller fills it
/// and calls buffer_commit(b, st) before reserving again.
void* buffer_reserve(buffer* b, thread_state* st, uint32_t category, uint32_t kind, size_t size);
/// HOT. Publishes the reserved record to the consumer.
void buffer_commit(buffer* b, thread_state* st);
/// HOT. reserve + copy + commit. False if dropped.
bool buffer_write(buffer* b, thread_state* st, uint32_t category, uint32_t kind, const void* record,
                  size_t size);
/// Thread exit: hands the lane's recorded data over and lets another thread reuse the lane.
void release_lane(lane* l);
/// Delivers handed-over blocks (and, with include_active, what every thread's active block
/// holds so far) to the callback. Must run on the consumer side.
/// Returns how many blocks were handed over (a measure of load for the poll period).
size_t buffer_consume(buffer* b, bool include_active);

}  // namespace rocprof::core
