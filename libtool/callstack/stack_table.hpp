// Host call stacks of kernel launches, interned while the application runs.
//
// stack_table: a fixed-size, lock-free intern table. intern() is called from a CUDA launch
// callback (the hot path): it never locks, allocates or makes a system call. A stack seen
// before costs its hash and one probe with a frame comparison; a new stack reserves an entry
// and room for its frames in preallocated arrays, writes them, then publishes its id into the
// hash slot with one compare-and-swap. Two threads inserting the same new stack at once both
// reserve; the loser finds the winner's id in the slot and returns it (its reservation is never
// published, so it never appears in the output). A full table counts the stack as dropped.
//
// launch_log: (correlation id, stack id) pairs appended with one fetch_add into a preallocated,
// lazily mapped array, read once at the end.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace rocprof::callstack {

inline constexpr uint32_t max_frames = 32;  // frames kept per stack

struct stack_view {
  const uintptr_t* frames = nullptr;
  uint32_t depth = 0;
};

class stack_table {
 public:
  // Room for `max_stacks` distinct stacks holding `max_total_frames` frames together.
  stack_table(uint32_t max_stacks, size_t max_total_frames);
  stack_table(const stack_table&) = delete;
  stack_table& operator=(const stack_table&) = delete;

  // The id (1-based) of this stack, interned on first sight; 0 when the table is full or the
  // stack is empty (counted in dropped()). Thread-safe, lock-free.
  uint32_t intern(const uintptr_t* frames, uint32_t depth);

  // The stack of an id intern() returned.
  stack_view stack(uint32_t id) const;
  // Every published id, in slot order (not sorted). Call when no intern() runs.
  std::vector<uint32_t> published_ids() const;

  uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }
  uint32_t capacity() const { return max_stacks_; }

 private:
  struct entry {
    uint64_t hash = 0;
    size_t offset = 0;  // into frames_
    uint32_t depth = 0;
  };

  bool same(const entry& e, uint64_t hash, const uintptr_t* frames, uint32_t depth) const;
  uint32_t reserve(uint64_t hash, const uintptr_t* frames, uint32_t depth);

  uint32_t max_stacks_;
  size_t max_total_frames_;
  size_t slot_mask_;
  std::unique_ptr<std::atomic<uint32_t>[]> slots_;  // 0: empty, else an entry id
  std::unique_ptr<entry[]> entries_;                // index id - 1
  std::unique_ptr<uintptr_t[]> frames_;
  std::atomic<uint32_t> next_entry_{0};
  std::atomic<size_t> next_frame_{0};
  std::atomic<uint64_t> dropped_{0};
};

uint64_t hash_frames(const uintptr_t* frames, uint32_t depth);

struct launch_entry {
  uint64_t correlation_id = 0;
  uint32_t stack_id = 0;  // written last (release): 0 means "not complete yet"
};

class launch_log {
 public:
  explicit launch_log(size_t capacity);  // anonymous mapping: pages are touched on first use
  ~launch_log();
  launch_log(const launch_log&) = delete;
  launch_log& operator=(const launch_log&) = delete;

  // False (and counted) when full or when the mapping could not be made.
  bool append(uint64_t correlation_id, uint32_t stack_id);
  // The complete entries appended so far, in append order.
  std::vector<launch_entry> entries() const;
  uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }

 private:
  struct slot {
    uint64_t correlation_id;
    uint32_t
        stack_id;  // accessed with __atomic builtins (the mapping holds no constructed objects)
  };
  slot* slots_ = nullptr;
  size_t capacity_ = 0;
  size_t mapped_bytes_ = 0;
  std::atomic<size_t> next_{0};
  std::atomic<uint64_t> dropped_{0};
};

}  // namespace rocprof::callstack
