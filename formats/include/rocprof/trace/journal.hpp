// The record journal: a process's trace on disk while it runs, so that a process that dies
// without finishing (SIGKILL, the OOM killer, SIGSEGV, _exit) can still have its outputs written
// by someone else (the rocprofv3 launcher) from what is on disk.
//
// One file per process, `<directory>/.rocprofv3-journal-<pid>-<n>.dat`, created with
// O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600, and locked (flock) for as long as the process lives: a
// reader that gets the lock knows the writer is gone. Records are copied into file-backed shared
// mappings (MAP_SHARED): a store there is in the page cache at once, and the page cache keeps it
// when the process dies, whatever kills it. Each extent's count of complete bytes is published
// after the copy, so a reader never sees a torn record. Beside the records go the definitions
// they need (the output plan, process and node, strings, thread names and windows, agents, code
// objects, kernel symbols, counters, drop counts), as entries appended when they are learnt.
//
// Layout (journal_layout.hpp): a one-page file header, then extents, each page aligned: a
// 64-byte extent header (type, record kind, record size, capacity, complete bytes) and its
// payload. Extents of records hold whole records of one kind; extents of definitions hold
// entries. Blocks are reserved (posix_fallocate) before an extent is mapped, so a full disk is an
// error reported once, never a SIGBUS.
//
// Thread safety: every writer method may be called from any thread (one mutex; this is the
// delivery threads' path, not the application's hot path). A forked child must not touch the
// parent's journal: abandon_in_forked_child(), then a journal of its own.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "rocprof/trace/model.hpp"
#include "rocprof/trace/output_plan.hpp"
#include "rocprof/trace/record_kinds.hpp"
#include "rocprof/trace/writer.hpp"

namespace rocprof::trace {

// Where one extent lies in the file and how much of it is complete (journal_layout.hpp).
struct journal_extent {
  uint64_t offset = 0;  // of its header
  uint32_t type = 0, kind = 0, record_size = 0;
  uint64_t capacity = 0;  // payload bytes
  uint64_t bytes = 0;     // complete payload bytes
};

class journal_writer {
 public:
  journal_writer();
  ~journal_writer();  // unmaps; the file stays unless remove() was called
  journal_writer(const journal_writer&) = delete;
  journal_writer& operator=(const journal_writer&) = delete;

  // Creates and locks the file in `directory` (created if missing) and writes the plan first.
  // Returns false and sets *error on failure (nothing is left behind then).
  bool create(const std::string& directory, const output_plan& plan, std::string* error);
  const std::string& path() const { return path_; }

  // Returns how many of the records it took: all of them, unless journaling failed (then the
  // caller keeps the rest elsewhere).
  template <typename T>
  size_t append(const T* records, size_t count) {
    return append_bytes(record_traits<T>::kind, records, sizeof(T), count);
  }
  size_t append_bytes(record_kind kind, const void* data, size_t record_size, size_t count);

  // Definitions, each appended as an entry.
  void define_process(const process_info& process, const node_info& node);
  void define_string(string_id id, std::string_view text);
  void name_thread(int64_t tid, std::string_view name);
  void observe_thread(int64_t tid, uint64_t start_ns, uint64_t end_ns);
  void define_agent(const agent_info& agent);
  void define_code_object(const code_object_info& code_object);
  void define_kernel_symbol(const kernel_symbol_info& symbol);
  void define_counter(const counter_info& counter);
  void add_dropped(uint64_t count);

  // Hands every record to `outs` (file order: kind by kind within each extent, recording order
  // within a kind), in batches of at most batch_records. Appends wait meanwhile. Returns an
  // error text, empty when every record was read back.
  std::string replay(const std::vector<writer*>& outs, size_t batch_records = 65536);
  uint64_t total_records() const;
  // Empty, or what failed (the first failure stops journaling; the caller keeps records
  // elsewhere from then on).
  std::string last_error() const;
  bool failed() const;

  // The outputs were written: notes it in the file header (a reader then has nothing to do).
  void mark_outputs_written();
  // Unmaps, removes the file and releases the lock.
  void remove();
  // In a forked child, with no other thread running: forgets the parent's file without
  // locking, unmapping or removing anything; every later call does nothing.
  void abandon_in_forked_child();

 private:
  struct state;
  bool owned_here() const;
  bool usable_locked() const;
  void append_entry_locked(uint32_t type, const std::string& payload);
  void fail_locked(std::string error);

  std::atomic<int64_t> owner_pid_{0};
  std::atomic<bool> abandoned_{false};
  mutable std::mutex mutex_;
  std::unique_ptr<state> state_;
  std::string path_;
};

// A journal left by a process that did not finish.
class journal_reader {
 public:
  journal_reader();
  ~journal_reader();
  journal_reader(const journal_reader&) = delete;
  journal_reader& operator=(const journal_reader&) = delete;

  // Reads the header, the extent table and every definition entry. A journal whose writer still
  // holds its lock (the process lives) is refused: *error says so and *busy is set.
  bool open(const std::string& path, std::string* error, bool* busy = nullptr);

  // Whether the file is a journal of this build (whatever else failed): only then may a caller
  // remove it as one.
  bool recognized() const { return recognized_; }
  const output_plan& plan() const { return plan_; }
  // Definitions as the writer knew them; thread windows as journaled; fini and end times are
  // the last record time seen (the process had no end of its own).
  const trace_definitions& definitions() const { return defs_; }
  int64_t pid() const { return pid_; }
  bool outputs_written() const { return outputs_written_; }
  uint64_t total_records() const;
  void replay(const std::vector<writer*>& outs, size_t batch_records = 65536);
  // Errors met while reading (a torn tail is not one: it ends the journal).
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  bool read_definitions(const std::vector<unsigned char>& payload);
  thread_info& thread(int64_t tid);

  int fd_ = -1;
  bool recognized_ = false;
  int64_t pid_ = 0;
  bool outputs_written_ = false;
  output_plan plan_;
  trace_definitions defs_;
  std::vector<journal_extent> extents_;
  std::map<int64_t, size_t> thread_index_;  // tid -> index in defs_.threads
  std::vector<std::string> warnings_;
};

}  // namespace rocprof::trace
