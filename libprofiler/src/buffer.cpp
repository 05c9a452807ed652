#include "buffer.hpp"

#include <sched.h>
#include <time.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#include "callback_thread.hpp"
#include "registration.hpp"
#include "thread_state.hpp"

namespace rocprof::core {
namespace {

// Entry layout in a block: [entry size][record header][record, padded to 8 bytes].
constexpr size_t entry_overhead = sizeof(uint64_t) + sizeof(rocprofiler_record_header_t);

size_t align8(size_t n) {
  return (n + 7u) & ~size_t{7};
}

block* other_free_block(lane* l, const block* current) {
  for (block& candidate : l->blocks)
    if (&candidate != current &&
        candidate.state.load(std::memory_order_acquire) == block::free_state)
      return &candidate;
  return nullptr;
}

// LOSSLESS with both blocks still being delivered: wait for the consumer. This is the only
// place a writer may sleep; it wakes the callback thread so the wait is short.
block* wait_for_free_block(buffer* b, lane* l, const block* current, const thread_state* st) {
  for (unsigned spin = 0;; ++spin) {
    if (block* found = other_free_block(l, current)) return found;
    // Nobody will ever free a block: the delivery thread is gone, or we are it.
    if (finalizing() || b->thread == nullptr || !b->thread->running.load() ||
        b->thread->tid.load(std::memory_order_relaxed) == st->tid ||
        b->destroyed.load(std::memory_order_relaxed))
      return nullptr;
    wake_callback_thread(b->thread);
    // Yield a few times (the consumer may be about to finish), then sleep: spinning would take
    // the CPU the delivery thread needs on an oversubscribed machine.
    if (spin < 4) {
      sched_yield();
    } else {
      timespec pause{0, 20000};
      nanosleep(&pause, nullptr);
    }
  }
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
  l->claimed.store(true, std::memory_order_relaxed);
  for (block& blk : l->blocks) {
    blk.data = static_cast<unsigned char*>(std::aligned_alloc(4096, b->capacity));
    if (blk.data == nullptr) return nullptr;  // leaks the lane: out of memory anyway
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

void* buffer_reserve(buffer* b, thread_state* st, uint32_t category, uint32_t kind, size_t size) {
  if (b->destroyed.load(std::memory_order_relaxed)) return nullptr;
  lane* l = st->lanes[b->index];
  if (__builtin_expect(l == nullptr, 0)) {
    l = claim_lane(b);
    if (l == nullptr) return nullptr;
    st->lanes[b->index] = l;
  }
  const size_t need = entry_overhead + align8(size);
  if (need > b->capacity) {
    l->dropped.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  block* current = l->active.load(std::memory_order_relaxed);
  if (current == nullptr || l->used + need > b->capacity) {
    block* next = b->policy == ROCPROFILER_BUFFER_POLICY_LOSSLESS
                      ? wait_for_free_block(b, l, current, st)
                      : other_free_block(l, current);
    if (next == nullptr) {
      l->dropped.fetch_add(1, std::memory_order_relaxed);
      return nullptr;
    }
    if (current != nullptr) hand_over(b, current);
    begin_block(l, next);
    current = next;
  }
  unsigned char* at = current->data + l->used;
  const uint64_t entry_size = need;
  std::memcpy(at, &entry_size, sizeof(entry_size));
  auto* header = reinterpret_cast<rocprofiler_record_header_t*>(at + sizeof(uint64_t));
  header->hash = static_cast<uint64_t>(category) | (static_cast<uint64_t>(kind) << 32);
  header->category = category;
  header->kind = kind;
  header->payload = at + entry_overhead;
  l->used += need;
  return at + entry_overhead;
}

void buffer_commit(buffer* b, thread_state* st) {
  lane* l = st->lanes[b->index];
  block* current = l->active.load(std::memory_order_relaxed);
  current->committed.store(l->used, std::memory_order_release);
  // Watermark: hand the block over if the other one is free; otherwise keep filling this one
  // (LOSSLESS waits only once it is really full).
  if (l->used >= b->watermark) {
    if (block* next = other_free_block(l, current)) {
      hand_over(b, current);
      begin_block(l, next);
    }
  }
}

bool buffer_write(buffer* b, thread_state* st, uint32_t category, uint32_t kind, const void* record,
                  size_t size) {
  void* at = buffer_reserve(b, st, category, kind, size);
  if (at == nullptr) return false;
  std::memcpy(at, record, size);
  buffer_commit(b, st);
  return true;
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
  l->used = 0;
  l->claimed.store(false, std::memory_order_release);
}

size_t buffer_consume(buffer* b, bool include_active) {
  std::lock_guard<std::mutex> lock(b->consume_mutex);
  b->batch.clear();
  b->taken.clear();
  for (block* blk = b->full.exchange(nullptr, std::memory_order_acquire); blk != nullptr;
       blk = blk->next_full)
    b->taken.push_back(blk);
  std::reverse(b->taken.begin(), b->taken.end());  // oldest hand-over first
  const bool discard = b->destroyed.load(std::memory_order_relaxed);
  if (!discard) {
    for (block* blk : b->taken)
      collect(b, blk, blk->delivered, blk->committed.load(std::memory_order_acquire));
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
    const uint64_t drops = take_drops(b);
    if (!b->batch.empty() || drops > 0) {
      b->delivering_tid.store(current_thread() != nullptr ? current_thread()->tid : 1,
                              std::memory_order_relaxed);
      b->callback(b->context, rocprofiler_buffer_id_t{buffer_handle(b->index)}, b->batch.data(),
                  b->batch.size(), b->callback_data, drops);
      b->delivering_tid.store(0, std::memory_order_relaxed);
    }
  }
  for (block* blk : b->taken) {
    blk->delivered = 0;
    blk->committed.store(0, std::memory_order_relaxed);
    blk->state.store(block::free_state, std::memory_order_release);
  }
  b->batch.clear();
  return b->taken.size();
}

}  // namespace rocprof::core
