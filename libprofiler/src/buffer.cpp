#include "buffer.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#include "callback_thread.hpp"
#include "context.hpp"
#include "guarded.hpp"
#include "registration.hpp"
#include "thread_state.hpp"

namespace rocprof::core {
namespace {

block* other_free_block(lane* l, const block* current) {
  for (block& candidate : l->blocks)
    if (&candidate != current &&
        candidate.state.load(std::memory_order_acquire) == block::free_state)
      return &candidate;
  return nullptr;
}

static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t) &&
                  std::atomic<uint32_t>::is_always_lock_free,
              "lane::waiting is used as a futex word");

uint32_t* futex_word(std::atomic<uint32_t>& word) {
  return reinterpret_cast<uint32_t*>(&word);
}

// LOSSLESS with every block of the lane still being delivered: wait for the consumer. This is the
// only place a writer may sleep. It wakes the callback thread (unless that polls at its busy period
// anyway), then sleeps on its lane's futex until the consumer frees one of the lane's blocks,
// which wakes this writer alone: one sleep per wait. (Yields and short timed sleeps, or one
// wake-up for every waiting writer, cost a writer a system call and a context switch every few
// microseconds while the consumer works: with the real tool on 8 threads of the 2-core dev
// machine that more than doubled the measured cost of a marker pair.)
block* wait_for_free_block(buffer* b, lane* l, const block* current, const thread_state* st) {
  for (;;) {
    if (block* found = other_free_block(l, current)) return found;
    // Nobody will ever free a block: the delivery thread is gone, or we are it.
    if (finalizing() || b->thread == nullptr || !b->thread->running.load() ||
        b->thread->tid.load(std::memory_order_relaxed) == st->tid ||
        b->destroyed.load(std::memory_order_relaxed))
      return nullptr;
    // Announce the wait before looking again. The consumer frees a block and then looks at
    // `waiting`, each side with a full fence in between, so either this thread sees the free
    // block or the consumer sees the waiter, clears `waiting` and wakes it (a futex wait on a
    // word that is no longer 1 returns at once).
    l->waiting.store(1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (block* found = other_free_block(l, current)) {
      l->waiting.store(0, std::memory_order_relaxed);
      return found;
    }
    // A delivery thread polling at its busy period comes within one period anyway.
    if (!b->thread->polling_fast.load(std::memory_order_relaxed)) wake_callback_thread(b->thread);
    // Bounded, so that the exit conditions above are seen even if nothing is delivered; long,
    // because on a busy machine the consumer may wait for a CPU for many milliseconds and each
    // extra wake-up costs this writer a context switch.
    timespec limit{0, 100000000};
    syscall(SYS_futex, futex_word(l->waiting), FUTEX_WAIT_PRIVATE, 1, &limit, nullptr, 0);
    l->waiting.store(0, std::memory_order_relaxed);
  }
}

// Consumer side: frees a delivered block and wakes its lane's writer if it waits for one.
void free_block(block* blk) {
  blk->state.store(block::free_state, std::memory_order_release);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  lane* l = blk->owner;
  if (l != nullptr && l->waiting.load(std::memory_order_relaxed) != 0 &&
      l->waiting.exchange(0, std::memory_order_relaxed) != 0)
    syscall(SYS_futex, futex_word(l->waiting), FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
}

void hand_over(buffer* b, block* full) {
  full->state.store(block::full_state, std::memory_order_release);
  block* head = b->full.load(std::memory_order_relaxed);
  do {
    full->next_full = head;
  } while (!b->full.compare_exchange_weak(head, full, std::memory_order_release,
                                          std::memory_order_relaxed));
}

void begin_block(lane* l, block* next) {
  next->state.store(block::active_state, std::memory_order_relaxed);
  l->used = 0;
  l->write_base = next->data;
  l->active.store(next, std::memory_order_release);
}

lane* claim_lane(buffer* b) {
  for (lane* l = b->lanes.load(std::memory_order_acquire); l != nullptr; l = l->next) {
    bool expected = false;
    if (!l->claimed.load(std::memory_order_relaxed) &&
        l->claimed.compare_exchange_strong(expected, true, std::memory_order_acquire))
      return l;
  }
  // First use of this buffer on this thread: the lane's one-time allocation.
  auto* l = new (std::nothrow) lane();
  if (l == nullptr) return nullptr;
  l->owner = b;
  l->capacity = b->capacity;
  l->watermark = b->watermark;
  l->claimed.store(true, std::memory_order_relaxed);
  for (block& blk : l->blocks) {
    blk.owner = l;
    blk.data = static_cast<unsigned char*>(std::aligned_alloc(4096, b->capacity));
    if (blk.data == nullptr) return nullptr;  // leaks the lane: out of memory anyway
    // Touch every page now: a first-touch page fault costs about a microsecond, which the
    // hot path would otherwise pay every 32 records of the first pass through each block.
    std::memset(blk.data, 0, b->capacity);
  }
  lane* head = b->lanes.load(std::memory_order_relaxed);
  do {
    l->next = head;
  } while (!b->lanes.compare_exchange_weak(head, l, std::memory_order_release,
                                           std::memory_order_relaxed));
  return l;
}

void collect(buffer* b, block* blk, size_t from, size_t to) {
  while (from < to) {
    uint64_t entry_size = 0;
    std::memcpy(&entry_size, blk->data + from, sizeof(entry_size));
    auto* header =
        reinterpret_cast<rocprofiler_record_header_t*>(blk->data + from + sizeof(uint64_t));
    b->batch.push_back(header);
    from += entry_size;
  }
}

uint64_t take_drops(buffer* b) {
  uint64_t drops = b->reported_drops.exchange(0, std::memory_order_relaxed);
  for (lane* l = b->lanes.load(std::memory_order_acquire); l != nullptr; l = l->next)
    drops += l->dropped.exchange(0, std::memory_order_relaxed);
  return drops;
}

}  // namespace

buffer* find_buffer(rocprofiler_buffer_id_t id) {
  if (id.handle == 0 || id.handle > g_num_buffers.load(std::memory_order_acquire)) return nullptr;
  return g_buffers[id.handle - 1];
}

lane* thread_lane(buffer* b, thread_state* st) {
  if (b->destroyed.load(std::memory_order_relaxed)) return nullptr;
  lane* l = st->lanes[b->index];
  if (__builtin_expect(l == nullptr, 0)) {
    l = claim_lane(b);
    if (l == nullptr) return nullptr;
    st->lanes[b->index] = l;
  }
  return l;
}

reservation buffer_reserve_slow(buffer* b, thread_state* st, uint32_t category, uint32_t kind,
                                size_t size) {
  lane* l = thread_lane(b, st);
  if (l == nullptr) return {};
  const size_t need = entry_size_of(size);
  if (need > b->capacity) {
    l->dropped.fetch_add(1, std::memory_order_relaxed);
    return {};
  }
  block* current = l->active.load(std::memory_order_relaxed);
  if (current == nullptr || l->used + need > b->capacity) {
    block* next = b->policy == ROCPROFILER_BUFFER_POLICY_LOSSLESS
                      ? wait_for_free_block(b, l, current, st)
                      : other_free_block(l, current);
    if (next == nullptr) {
      l->dropped.fetch_add(1, std::memory_order_relaxed);
      return {};
    }
    if (current != nullptr) hand_over(b, current);
    begin_block(l, next);
    current = next;
  }
  void* record = write_entry_header(current->data + l->used, need, category, kind);
  l->used += need;
  return reservation{record, l, current};
}

// Watermark: hand the block over if another one is free; otherwise keep filling this one
// (LOSSLESS waits only once it is really full).
void buffer_after_watermark(buffer* b, lane* l, block* current) {
  if (block* next = other_free_block(l, current)) {
    hand_over(b, current);
    begin_block(l, next);
  }
}

void reset_buffers_after_fork(thread_state* forking_thread) {
  // The parent's delivery thread may have been inside buffer_consume at the fork, holding the
  // lock and changing the batch lists: the child takes a fresh lock and moves the lists' storage
  // aside without looking at it (kept reachable here, so that leak checkers stay quiet).
  // Never destroyed: exit-time destructors would make it all unreachable again.
  static auto* abandoned_batches = new std::vector<std::vector<rocprofiler_record_header_t*>>();
  static auto* abandoned_taken = new std::vector<std::vector<block*>>();
  const uint32_t n = g_num_buffers.load();
  for (uint32_t i = 0; i < n; ++i) {
    buffer* b = g_buffers[i];
    new (&b->consume_mutex) std::mutex();
    abandoned_batches->push_back(std::move(b->batch));
    abandoned_taken->push_back(std::move(b->taken));
    b->batch.clear();  // moved-from: valid, and now certainly empty
    b->taken.clear();
    b->full.store(nullptr, std::memory_order_relaxed);
    b->reported_drops.store(0, std::memory_order_relaxed);
    b->delivering_tid.store(0, std::memory_order_relaxed);
    for (lane* l = b->lanes.load(std::memory_order_relaxed); l != nullptr; l = l->next) {
      for (block& blk : l->blocks) {
        blk.state.store(block::free_state, std::memory_order_relaxed);
        blk.committed.store(0, std::memory_order_relaxed);
        blk.delivered = 0;
        blk.next_full = nullptr;
      }
      l->active.store(nullptr, std::memory_order_relaxed);
      l->write_base = nullptr;
      l->used = 0;
      l->dropped.store(0, std::memory_order_relaxed);
      l->waiting.store(0, std::memory_order_relaxed);
      const bool forking_threads =
          forking_thread != nullptr && forking_thread->lanes[b->index] == l;
      l->claimed.store(forking_threads, std::memory_order_release);
    }
  }
  dispatch_changed();
}

void release_lane(lane* l) {
  buffer* b = l->owner;
  block* current = l->active.load(std::memory_order_relaxed);
  if (current != nullptr) {
    if (l->used > 0) {
      hand_over(b, current);
    } else {
      current->state.store(block::free_state, std::memory_order_release);
    }
  }
  l->active.store(nullptr, std::memory_order_release);
  l->write_base = nullptr;
  l->used = 0;
  l->claimed.store(false, std::memory_order_release);
}

namespace {

// One callback with what `b->batch` holds (and the drops), if there is anything to say.
void deliver_batch(buffer* b, uint64_t& drops) {
  if (b->batch.empty() && drops == 0) return;
  b->delivering_tid.store(current_thread() != nullptr ? current_thread()->tid : 1,
                          std::memory_order_relaxed);
  // The tool's callback is C: an exception it lets out is reported and the thread goes on.
  guarded_call("a buffer callback", [&] {
    b->callback(b->context, rocprofiler_buffer_id_t{buffer_handle(b->index)}, b->batch.data(),
                b->batch.size(), b->callback_data, drops);
  });
  b->delivering_tid.store(0, std::memory_order_relaxed);
  drops = 0;
  b->batch.clear();
}

}  // namespace

// Handed-over blocks go to the callback one block at a time, each freed right after its
// callback: a writer then gets a block back as soon as that block is converted. (Delivered
// all at once, the blocks came back only after the whole batch; with the real tool's ~30 us
// of conversion per block, a writer filling a block every 35 us ran out of its four blocks
// in the middle of the delivery: 627 of its 668 waits in one measured run.)
size_t buffer_consume(buffer* b, bool include_active) {
  std::lock_guard<std::mutex> lock(b->consume_mutex);
  b->batch.clear();
  b->taken.clear();
  for (block* blk = b->full.exchange(nullptr, std::memory_order_acquire); blk != nullptr;
       blk = blk->next_full)
    b->taken.push_back(blk);
  std::reverse(b->taken.begin(), b->taken.end());  // oldest hand-over first
  const bool discard = b->destroyed.load(std::memory_order_relaxed);
  uint64_t drops = discard ? 0 : take_drops(b);
  for (block* blk : b->taken) {
    if (!discard) {
      collect(b, blk, blk->delivered, blk->committed.load(std::memory_order_acquire));
      deliver_batch(b, drops);
    }
    blk->delivered = 0;
    blk->committed.store(0, std::memory_order_relaxed);
    free_block(blk);
  }
  if (!discard) {
    if (include_active) {
      for (lane* l = b->lanes.load(std::memory_order_acquire); l != nullptr; l = l->next) {
        block* blk = l->active.load(std::memory_order_acquire);
        if (blk == nullptr || blk->state.load(std::memory_order_acquire) != block::active_state)
          continue;
        const size_t end = blk->committed.load(std::memory_order_acquire);
        collect(b, blk, blk->delivered, end);
        blk->delivered = end;
      }
    }
    deliver_batch(b, drops);
  }
  b->batch.clear();
  return b->taken.size();
}

}  // namespace rocprof::core
