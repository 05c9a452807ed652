// Buffers. Each recording thread owns a lane per buffer: blocks_per_lane preallocated blocks of
// the buffer's size. The writer appends fixed records to its active block and publishes them
// with one release store; a block that reached the watermark (or is full) goes to the buffer's
// callback thread through a lock-free list and the writer switches to a free block.
// Delivery, flush and discard run on the consumer side under the buffer's mutex, which
// writers never take.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <vector>

#include "limits.hpp"
#include "rocprofiler-sdk/buffer.h"
#include "thread_state.hpp"

namespace rocprof::core {

struct callback_thread;
struct thread_state;
struct buffer;

struct lane;

struct block {
  static constexpr uint32_t free_state = 0;    // owned by nobody; the lane may take it
  static constexpr uint32_t active_state = 1;  // the lane's writer appends to it
  static constexpr uint32_t full_state = 2;    // handed to the consumer
  std::atomic<uint32_t> state{free_state};
  std::atomic<size_t> committed{0};  // bytes the writer published
  size_t delivered = 0;              // bytes already given to the callback (consumer side)
  block* next_full = nullptr;        // link in buffer::full
  unsigned char* data = nullptr;
  lane* owner = nullptr;  // the lane this block belongs to
};

// Cache-line aligned: lanes of different threads are written concurrently.
struct alignas(64) lane {
  buffer* owner = nullptr;
  std::atomic<bool> claimed{false};
  block blocks[blocks_per_lane];
  std::atomic<block*> active{nullptr};
  // Writer only: the active block's data (nullptr: none yet, take the slow path) and the
  // bytes used in it; the buffer's sizes copied here so that a reservation reads one object.
  unsigned char* write_base = nullptr;
  size_t used = 0;
  size_t capacity = 0;
  size_t watermark = 0;
  std::atomic<uint64_t> dropped{0};
  // A futex word: 1 while the lane's writer sleeps (LOSSLESS, every block in delivery). The
  // consumer that frees one of the lane's blocks clears it and wakes the writer, and only then.
  std::atomic<uint32_t> waiting{0};
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

/// Entry layout in a block: [entry size][record header][record, padded to 8 bytes].
inline constexpr size_t entry_overhead = sizeof(uint64_t) + sizeof(rocprofiler_record_header_t);
inline constexpr size_t entry_size_of(size_t record_size) {
  return entry_overhead + ((record_size + 7u) & ~size_t{7});
}

/// Room for one record in the calling thread's lane, as buffer_reserve found it; the lane
/// and block travel to buffer_commit so that it does not look them up again.
struct reservation {
  void* record = nullptr;  // where the record goes; nullptr: dropped
  lane* l = nullptr;
  block* blk = nullptr;
};

/// Slow paths of buffer_reserve and buffer_commit (first use, block switch, drop, watermark).
reservation buffer_reserve_slow(buffer* b, thread_state* st, uint32_t category, uint32_t kind,
                                size_t size);
void buffer_after_watermark(buffer* b, lane* l, block* current);

/// Writes an entry's size and record header at `at`; returns where the record goes.
inline void* write_entry_header(unsigned char* at, size_t need, uint32_t category, uint32_t kind) {
  const uint64_t entry_size = need;
  std::memcpy(at, &entry_size, sizeof(entry_size));
  auto* header = reinterpret_cast<rocprofiler_record_header_t*>(at + sizeof(uint64_t));
  header->hash = static_cast<uint64_t>(category) | (static_cast<uint64_t>(kind) << 32);
  header->category = category;
  header->kind = kind;
  header->payload = at + entry_overhead;
  return at + entry_overhead;
}

/// HOT. Reserves room for one record of `size` bytes in the calling thread's lane `l` of its
/// buffer and writes its header. The caller fills reservation::record (unless it is nullptr:
/// dropped) and calls buffer_commit before reserving again. Inline: the common case (the
/// active block has room) reads only the lane, with the sizes known at compile time.
inline reservation lane_reserve(lane* l, thread_state* st, uint32_t category, uint32_t kind,
                                size_t size) {
  const size_t need = entry_size_of(size);
  unsigned char* base = l->write_base;
  if (__builtin_expect(base != nullptr && l->used + need <= l->capacity, 1)) {
    void* record = write_entry_header(base + l->used, need, category, kind);
    l->used += need;
    return reservation{record, l, l->active.load(std::memory_order_relaxed)};
  }
  return buffer_reserve_slow(l->owner, st, category, kind, size);
}

/// The same through the buffer: finds (or, the first time, claims) the thread's lane.
inline reservation buffer_reserve(buffer* b, thread_state* st, uint32_t category, uint32_t kind,
                                  size_t size) {
  lane* l = st->lanes[b->index];
  if (__builtin_expect(l != nullptr, 1) && !b->destroyed.load(std::memory_order_relaxed))
    return lane_reserve(l, st, category, kind, size);
  return buffer_reserve_slow(b, st, category, kind, size);
}

/// HOT. Publishes the reserved record to the consumer.
inline void buffer_commit(const reservation& r) {
  r.blk->committed.store(r.l->used, std::memory_order_release);
  if (__builtin_expect(r.l->used >= r.l->watermark, 0))
    buffer_after_watermark(r.l->owner, r.l, r.blk);
}

/// The calling thread's lane of `b`, claimed on first use; nullptr if the buffer is destroyed
/// or memory ran out.
lane* thread_lane(buffer* b, thread_state* st);
/// In a forked child, before any delivery thread restarts: every buffer as if nothing had been
/// recorded. What the lanes hold is the parent's (the parent delivers it); the forking thread
/// keeps its lanes, the others are free for the child's threads.
void reset_buffers_after_fork(thread_state* forking_thread);
/// Thread exit: hands the lane's recorded data over and lets another thread reuse the lane.
void release_lane(lane* l);
/// Delivers handed-over blocks (and, with include_active, what every thread's active block
/// holds so far) to the callback. Must run on the consumer side.
/// Returns how many blocks were handed over (a measure of load for the poll period).
size_t buffer_consume(buffer* b, bool include_active);

}  // namespace rocprof::core
