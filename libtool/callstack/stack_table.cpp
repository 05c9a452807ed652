#include "stack_table.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>

namespace rocprof::callstack {

uint64_t hash_frames(const uintptr_t* frames, uint32_t depth) {
  // FNV-1a over whole addresses, then a final mix: cheap and spreads nearby return addresses.
  uint64_t h = 1469598103934665603ull ^ depth;
  for (uint32_t i = 0; i < depth; ++i) {
    h ^= static_cast<uint64_t>(frames[i]);
    h *= 1099511628211ull;
  }
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

namespace {
size_t slots_for(uint32_t max_stacks) {
  size_t n = 16;
  while (n < size_t{max_stacks} * 2)
    n <<= 1;  // at most half full: probes stay short
  return n;
}
}  // namespace

stack_table::stack_table(uint32_t max_stacks, size_t max_total_frames)
    : max_stacks_{max_stacks},
      max_total_frames_{max_total_frames},
      slot_mask_{slots_for(max_stacks) - 1},
      slots_{new std::atomic<uint32_t>[slot_mask_ + 1]},
      entries_{new entry[max_stacks == 0 ? 1 : max_stacks]},
      frames_{new uintptr_t[max_total_frames == 0 ? 1 : max_total_frames]} {
  for (size_t i = 0; i <= slot_mask_; ++i)
    slots_[i].store(0, std::memory_order_relaxed);
}

bool stack_table::same(const entry& e, uint64_t hash, const uintptr_t* frames,
                       uint32_t depth) const {
  return e.hash == hash && e.depth == depth &&
         std::memcmp(&frames_[e.offset], frames, depth * sizeof(uintptr_t)) == 0;
}

// Writes a new entry (not yet reachable from any slot); 0 when there is no room.
uint32_t stack_table::reserve(uint64_t hash, const uintptr_t* frames, uint32_t depth) {
  const uint32_t index = next_entry_.fetch_add(1, std::memory_order_relaxed);
  if (index >= max_stacks_) return 0;
  const size_t offset = next_frame_.fetch_add(depth, std::memory_order_relaxed);
  if (offset + depth > max_total_frames_) return 0;
  std::memcpy(&frames_[offset], frames, depth * sizeof(uintptr_t));
  entries_[index] = entry{hash, offset, depth};
  return index + 1;
}

uint32_t stack_table::intern(const uintptr_t* frames, uint32_t depth) {
  if (depth == 0 || frames == nullptr) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return 0;
  }
  depth = std::min(depth, max_frames);
  const uint64_t hash = hash_frames(frames, depth);
  uint32_t mine = 0;  // our reserved entry, once we reached an empty slot
  for (size_t probe = 0; probe <= slot_mask_; ++probe) {
    std::atomic<uint32_t>& slot = slots_[(hash + probe) & slot_mask_];
    uint32_t id = slot.load(std::memory_order_acquire);
    if (id == 0) {
      if (mine == 0) mine = reserve(hash, frames, depth);
      if (mine == 0) break;
      // Release: the entry and its frames are visible to whoever reads the id.
      if (slot.compare_exchange_strong(id, mine, std::memory_order_acq_rel,
                                       std::memory_order_acquire))
        return mine;
      // Lost the slot: `id` is the winner's; it may be this very stack.
    }
    if (same(entries_[id - 1], hash, frames, depth)) return id;
  }
  dropped_.fetch_add(1, std::memory_order_relaxed);
  return 0;
}

stack_view stack_table::stack(uint32_t id) const {
  if (id == 0 || id > max_stacks_) return {};
  const entry& e = entries_[id - 1];
  return stack_view{&frames_[e.offset], e.depth};
}

std::vector<uint32_t> stack_table::published_ids() const {
  std::vector<uint32_t> ids;
  for (size_t i = 0; i <= slot_mask_; ++i)
    if (const uint32_t id = slots_[i].load(std::memory_order_acquire); id != 0) ids.push_back(id);
  return ids;
}

launch_log::launch_log(size_t capacity) {
  const size_t bytes = capacity * sizeof(slot);
  // Reserved, not committed: only the pages that launches reach become resident.
  void* p = bytes == 0 ? MAP_FAILED
                       : ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return;
  slots_ = static_cast<slot*>(p);  // zero-filled: every stack_id starts at 0
  capacity_ = capacity;
  mapped_bytes_ = bytes;
}

launch_log::~launch_log() {
  if (slots_ != nullptr) ::munmap(slots_, mapped_bytes_);
}

bool launch_log::append(uint64_t correlation_id, uint32_t stack_id) {
  const size_t index = next_.fetch_add(1, std::memory_order_relaxed);
  if (index >= capacity_ || stack_id == 0) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  slots_[index].correlation_id = correlation_id;
  __atomic_store_n(&slots_[index].stack_id, stack_id, __ATOMIC_RELEASE);
  return true;
}

std::vector<launch_entry> launch_log::entries() const {
  std::vector<launch_entry> out;
  const size_t n = std::min(next_.load(std::memory_order_acquire), capacity_);
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t id = __atomic_load_n(&slots_[i].stack_id, __ATOMIC_ACQUIRE);
    if (id != 0) out.push_back(launch_entry{slots_[i].correlation_id, id});
  }
  return out;
}

}  // namespace rocprof::callstack
