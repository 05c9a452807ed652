// CUPTI correlation id -> (core correlation id, launching thread), written on application
// threads inside API callbacks and read on CUPTI's buffer thread when the kernel, copy or memset
// record arrives. Lock-free and allocation-free after construction: a direct-mapped table
// indexed by the CUPTI id (ids are dense and increasing), each slot guarded like a seqlock so a
// reader never takes a half-written entry. A slot is reused after `capacity` newer ids; a reader
// that misses gets false and the processor assigns a fresh id (see activity_processor.cpp).
//
// Ids CUPTI does not keep apart are not trusted: id 0 names no call (nothing is stored under
// it), and an id put again for a different outermost call (another core id) no longer names
// one call. Such an id is marked shared: it resolves to nothing, never to the latest call that
// carried it (on the H100, under the tools' deferred start, every callback and record carried
// one id, and every kernel took the program's last call's ids).
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
  uint64_t kernel_id = 0;    // the launched kernel's, with dispatch_id (0: not known at launch)
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

  enum class found : uint8_t { none, entry, shared };

  // Returns false when the id is not stored: 0, or an id seen with another call (shared).
  bool put(uint32_t cupti_id, const correlation_entry& e) noexcept {
    if (cupti_id == 0) {
      zero_puts_.fetch_add(1, std::memory_order_relaxed);
      return false;
    }
    slot& s = slots_[cupti_id & mask_];
    // The slot is claimed (writing_bit) before its fields change: two ids a multiple of the
    // capacity apart may be put at once by two threads, and their fields must not mix.
    uint64_t tag = s.tag.load(std::memory_order_acquire);
    for (int attempt = 0;; ++attempt) {
      if ((tag & writing_bit) != 0) {  // another thread writes this slot: a few ns
        if (attempt >= max_claim_attempts) {
          busy_puts_.fetch_add(1, std::memory_order_relaxed);
          return false;
        }
        tag = s.tag.load(std::memory_order_acquire);
        continue;
      }
      if (tag == (tag_of(cupti_id) | shared_bit)) return false;
      if (tag == tag_of(cupti_id) &&
          s.correlation_id.load(std::memory_order_relaxed) != e.correlation_id) {
        if (!s.tag.compare_exchange_weak(tag, tag_of(cupti_id) | shared_bit,
                                         std::memory_order_acq_rel))
          continue;
        shared_marks_.fetch_add(1, std::memory_order_relaxed);
        return false;
      }
      if (s.tag.compare_exchange_weak(tag, writing_bit, std::memory_order_acq_rel)) break;
    }
    std::atomic_thread_fence(std::memory_order_release);
    s.correlation_id.store(e.correlation_id, std::memory_order_relaxed);
    s.external_id.store(e.external_id, std::memory_order_relaxed);
    s.tid.store(e.tid, std::memory_order_relaxed);
    s.dispatch_id.store(e.dispatch_id, std::memory_order_relaxed);
    s.kernel_id.store(e.kernel_id, std::memory_order_relaxed);
    s.tag.store(tag_of(cupti_id), std::memory_order_release);
    return true;
  }

  bool get(uint32_t cupti_id, correlation_entry& out) const noexcept {
    return find(cupti_id, out) == found::entry;
  }

  // Like get, and tells a shared id (no entry to be trusted) from an unknown one.
  found find(uint32_t cupti_id, correlation_entry& out) const noexcept {
    if (cupti_id == 0) return found::none;
    const slot& s = slots_[cupti_id & mask_];
    const uint64_t want = tag_of(cupti_id);
    const uint64_t tag = s.tag.load(std::memory_order_acquire);
    if (tag == (want | shared_bit)) return found::shared;
    if (tag != want) return found::none;
    out.correlation_id = s.correlation_id.load(std::memory_order_relaxed);
    out.external_id = s.external_id.load(std::memory_order_relaxed);
    out.tid = s.tid.load(std::memory_order_relaxed);
    out.dispatch_id = s.dispatch_id.load(std::memory_order_relaxed);
    out.kernel_id = s.kernel_id.load(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    const uint64_t after = s.tag.load(std::memory_order_relaxed);
    if (after == (want | shared_bit)) return found::shared;
    return after == want ? found::entry : found::none;
  }

  size_t capacity() const noexcept { return mask_ + 1; }
  // Diagnostics: puts of id 0, ids that became shared, puts given up on a slot another thread
  // kept claimed.
  uint64_t zero_puts() const noexcept { return zero_puts_.load(std::memory_order_relaxed); }
  uint64_t busy_puts() const noexcept { return busy_puts_.load(std::memory_order_relaxed); }
  uint64_t shared_marks() const noexcept { return shared_marks_.load(std::memory_order_relaxed); }

 private:
  static uint64_t tag_of(uint32_t cupti_id) noexcept { return uint64_t{cupti_id} + 1; }
  static constexpr uint64_t shared_bit = uint64_t{1} << 63;
  static constexpr uint64_t writing_bit = uint64_t{1} << 62;
  static constexpr int max_claim_attempts = 1000;
  struct slot {
    std::atomic<uint64_t> tag;
    std::atomic<uint64_t> correlation_id;
    std::atomic<uint64_t> external_id;
    std::atomic<int64_t> tid;
    std::atomic<uint64_t> dispatch_id;
    std::atomic<uint64_t> kernel_id;
  };
  struct unmap_deleter {
    unmap_deleter() noexcept : bytes{0} {}
    explicit unmap_deleter(size_t n) noexcept : bytes{n} {}
    size_t bytes;
    void operator()(slot* p) const noexcept { munmap(p, bytes); }
  };
  size_t mask_ = 0;
  std::unique_ptr<slot[], unmap_deleter> slots_;
  std::atomic<uint64_t> zero_puts_{0}, shared_marks_{0}, busy_puts_{0};
};

}  // namespace rocprof::cuda
