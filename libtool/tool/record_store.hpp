// Where a process's converted records go, and how its outputs get written from them.
//
// The first batch that holds records makes the process's claim on its output names
// (output_claim.hpp: a second live process with the same names gets "<prefix>-<pid>") and,
// when the tool runs under the rocprofv3 launcher (ROCPROF_RECOVERY_REGISTRY), its record
// journal (rocprof/trace/journal.hpp): from then on records and definitions reach a file-backed
// shared mapping as they are delivered, and the journal is registered with the launcher
// (`<registry>/<pid>`, a symbolic link to the journal), which writes the outputs from it if the
// process dies before it does. Without the launcher, or when the journal cannot be made or
// grows no further (disk full), records go to the record spool (memory, then a spill file).
//
// At the end, write_outputs() runs the output plan over the journal's records and then the
// spool's; finish() removes the journal, its registration and the spill file.
//
// Thread safety: append() from any number of delivery threads; the rest from the finalizing
// thread. A forked child abandons its parent's store (abandon_in_forked_child) for a new one.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "definitions_builder.hpp"
#include "output_claim.hpp"
#include "output_stage.hpp"
#include "record_batch.hpp"
#include "record_spool.hpp"
#include "rocprof/config/tool_settings.hpp"
#include "rocprof/trace/journal.hpp"

namespace rocprof::tool {

class record_store {
 public:
  // settings and defs must outlive the store. spool_budget_bytes: the spool's memory budget.
  record_store(const config::tool_settings& settings, definitions_builder& defs,
               size_t spool_budget_bytes);
  ~record_store() = default;
  record_store(const record_store&) = delete;
  record_store& operator=(const record_store&) = delete;

  void append(const record_batch& batch);

  // Whether records reach a journal that the launcher can recover (for the fatal-signal path:
  // there it is enough to flush the buffers into it).
  bool journaling() const { return journaling_.load(std::memory_order_acquire); }

  uint64_t total_records() const;
  // Runs the output plan (claiming the names first if no record did) over every record.
  output_report write_outputs(const trace::trace_definitions& defs);
  // The plan's options once claimed (the prefix may carry "-<pid>").
  trace::output_options output_options();
  // After the outputs were written: journal, registration and spill file go. Late appends are
  // kept in memory only.
  void finish();

  // In a forked child with no other thread running: forgets the parent's journal, claim and
  // spill file without locking, removing or destroying anything. The object is then left
  // alone, never used or destroyed.
  void abandon_in_forked_child();

  // The spool (tests).
  record_spool& spool() { return spool_; }

 private:
  void ensure_ready(bool with_journal);
  void open_journal();

  const config::tool_settings& settings_;
  definitions_builder& defs_;
  std::mutex ready_mutex_;
  std::atomic<bool> ready_{false};
  std::atomic<bool> journaling_{false};
  trace::output_plan plan_;
  output_claim claim_;
  std::unique_ptr<trace::journal_writer> journal_;
  std::string registration_;  // <registry>/<pid>
  std::atomic<bool> journal_failure_reported_{false};
  record_spool spool_;
};

}  // namespace rocprof::tool
