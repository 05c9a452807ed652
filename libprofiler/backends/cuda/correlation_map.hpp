// CUPTI correlation id -> (core correlation id, launching thread), written on application
// threads inside API callbacks and read on CUPTI's buffer thread when the kernel, copy or memset
// record arrives. Lock-free and allocation-free after construction: a direct-mapped table
// indexed by the CUPTI id (ids are dense and increasing), each slot guarded like a seqlock so a
// reader never takes a half-written entry. A slot is reused after `capacity` newer ids; a reader
// that misses gets false and the processor assigns a fresh id (see activity_processor.cpp).
#pragma once

#include <sys/mman.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>

namespace rocprof::cuda {

struct correlation_entry {
  uint64_t correlation_id = 0;  // the id activity records of this call take (outermost API call)
  uint64_t external_id = 0;
  int64_t tid = 0;
  uint64_t dispatch_id = 0;  // given at launch while counting (0: numbered when the record comes)
};

class correlation_map {
 public:
  // capacity is rounded up to a power of two.
  explicit correlation_map(size_t capacity = size_t{1} << 20) {
    size_t cap = 1;
    while (cap < capacity)
      cap <<= 1;
    mask_ = cap - 1;
    // Anonymous memory: zero pages come from the kernel on first touch, so the 40 MB table of
    // the default capacity costs memory only for the ids actually used. A zero slot is empty.
    // Ids advance through the table, each new page faulting inside an API callback: huge pages
    // where the kernel allows them (THP "madvise") make that one fault per 2 MB, not per 4 KB.
    static_assert(std::is_trivially_default_constructible_v<slot> &&
                      std::atomic<uint64_t>::is_always_lock_free,
                  "slots must be valid as zeroed memory");
    const size_t bytes = cap * sizeof(slot);
    void* table = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (table == MAP_FAILED) throw std::bad_alloc{};
    (void)madvise(table, bytes, MADV_HUGEPAGE);  // a hint: refused, 4 KB pages serve as well
    slots_ =
        std::unique_ptr<slot[], unmap_deleter>{static_cast<slot*>(table), unmap_deleter{bytes}};
  }

  void put(uint32_t cupti_id, const correlation_entry& e) noexcept {
    slot& s = slots_[cupti_id & mask_];
    s.tag.store(0, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    s.correlation_id.store(e.correlation_id, std::memory_order_relaxed);
    s.external_id.store(e.external_id, std::memory_order_relaxed);
    s.tid.store(e.tid, std::memory_order_relaxed);
    s.dispatch_id.store(e.dispatch_id, std::memory_order_relaxed);
    s.tag.store(tag_of(cupti_id), std::memory_order_release);
  }

  bool get(uint32_t cupti_id, correlation_entry& out) const noexcept {
    const slot& s = slots_[cupti_id & mask_];
    const uint64_t want = tag_of(cupti_id);
    if (s.tag.load(std::memory_order_acquire) != want) return false;
    out.correlation_id = s.correlation_id.load(std::memory_order_relaxed);
    out.external_id = s.external_id.load(std::memory_order_relaxed);
    out.tid = s.tid.load(std::memory_order_relaxed);
    out.dispatch_id = s.dispatch_id.load(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    return s.tag.load(std::memory_order_relaxed) == want;
  }

  size_t capacity() const noexcept { return mask_ + 1; }

 private:
  static uint64_t tag_of(uint32_t cupti_id) noexcept { return uint64_t{cupti_id} + 1; }
  struct slot {
    std::atomic<uint64_t> tag;
    std::atomic<uint64_t> correlation_id;
    std::atomic<uint64_t> external_id;
    std::atomic<int64_t> tid;
    std::atomic<uint64_t> dispatch_id;
  };
  struct unmap_deleter {
    unmap_deleter() noexcept : bytes{0} {}
    explicit unmap_deleter(size_t n) noexcept : bytes{n} {}
    size_t bytes;
    void operator()(slot* p) const noexcept { munmap(p, bytes); }
  };
  size_t mask_ = 0;
  std::unique_ptr<slot[], unmap_deleter> slots_;
};

}  // namespace rocprof::cuda
