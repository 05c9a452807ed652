// Where the tool keeps converted records between their arrival (on buffer callback threads) and
// the end of the run. Records stay in memory up to a byte budget; beyond it whole batches go to
// a private temporary file (O_CREAT|O_EXCL, mode 0600) in the spill directory, which is removed
// when the spool is destroyed. Nothing is dropped here: a spill failure is reported and the
// records are then kept in memory instead.
//
// Thread safety: append() may be called from several callback threads at once (one mutex; this
// is not the application's hot path). replay() runs once, at the end, on the finalizing thread.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "rocprof/trace/record_kinds.hpp"
#include "rocprof/trace/writer.hpp"

namespace rocprof::tool {

class record_spool {
 public:
  // budget_bytes: in-memory bytes held before spilling. spill_directory: created on demand.
  record_spool(size_t budget_bytes, std::string spill_directory);
  ~record_spool();
  record_spool(const record_spool&) = delete;
  record_spool& operator=(const record_spool&) = delete;

  template <typename T>
  void append(const T* records, size_t count) {
    append_bytes(trace::record_traits<T>::kind, records, sizeof(T), count);
  }
  template <typename T>
  void append(const T& record) {
    append(&record, 1);
  }

  // Hands every record to `out`, kind by kind, in the order appended within each kind, in
  // batches of at most batch_records. Spilled records come first (they are the older ones).
  void replay(trace::writer& out, size_t batch_records = 65536);
  // As replay(), to several writers at once (each batch is read back once).
  void replay(const std::vector<trace::writer*>& outs, size_t batch_records = 65536);

  uint64_t total_records() const;
  uint64_t spilled_bytes() const;
  const std::string& spill_path() const { return spill_path_; }  // empty until the first spill
  std::string last_error() const;

  // In a forked child, with no other thread running: closes the parent's spill file
  // descriptor, without removing the file (it is the parent's) and without taking the lock (a
  // vanished parent thread may hold it). The object is then left alone, never used or
  // destroyed; the child starts a new spool.
  void abandon_in_forked_child();
  // Frees the records and removes the spill file (after the outputs were written). Appends
  // that still arrive are kept in memory only.
  void discard();

 private:
  static constexpr size_t kind_count = trace::record_kind_count;

  // In-memory records of one kind live in chunks of whole records: appending never moves
  // what is stored (a growing vector copied everything at each doubling and held both copies
  // at once, near the budget 1.5 times the budget).
  // Chunks are mapped with their pages populated at once: faulting them in one by one cost the
  // delivery thread that appends about 40 ns per 88-byte record on the dev VM.
  struct unmapper {
    void operator()(unsigned char* p) const;
  };
  struct chunk {
    std::unique_ptr<unsigned char, unmapper> data;
    size_t used = 0;      // bytes
    size_t capacity = 0;  // bytes, a multiple of the kind's record size
  };
  static constexpr size_t chunk_bytes = size_t{1} << 20;

  void append_bytes(trace::record_kind kind, const void* data, size_t record_size, size_t count);
  bool spill_locked();
  void close_spill_locked();

  mutable std::mutex mutex_;
  size_t budget_bytes_;
  std::string spill_directory_;
  std::string spill_path_;
  int spill_fd_ = -1;
  uint64_t spilled_bytes_ = 0;
  size_t memory_bytes_ = 0;
  bool spill_failed_ = false;
  std::string error_;
  std::array<std::vector<chunk>, kind_count> memory_{};
  std::array<uint64_t, kind_count> counts_{};
};

}  // namespace rocprof::tool
