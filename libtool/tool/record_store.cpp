#include "record_store.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "rocprof/common/placeholders.hpp"

namespace rocprof::tool {
namespace {

// Spill and journal files go to ROCPROF_TMPDIR when set, else beside the outputs.
std::string scratch_directory(const config::tool_settings& settings) {
  if (!settings.tmp_directory.empty())
    return common::expand_placeholders(settings.tmp_directory,
                                       common::placeholder_context::for_current_process());
  return make_output_options(settings).output_directory;
}

// Records of a batch go to the journal; what it cannot take (it failed) goes to the spool.
struct journal_then_spool {
  trace::journal_writer* journal;
  record_spool& spool;
  template <typename T>
  void append(const T* records, size_t count) {
    const size_t taken = journal != nullptr ? journal->append(records, count) : 0;
    if (taken < count) spool.append(records + taken, count - taken);
  }
};

}  // namespace

record_store::record_store(const config::tool_settings& settings, definitions_builder& defs,
                           size_t spool_budget_bytes)
    : settings_(settings), defs_(defs), spool_(spool_budget_bytes, scratch_directory(settings)) {}

void record_store::ensure_ready(bool with_journal) {
  if (ready_.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> lock(ready_mutex_);
  if (ready_.load(std::memory_order_relaxed)) return;
  plan_ = make_output_plan(settings_);
  if (!plan_.writers.empty()) {
    const std::string wanted = plan_.options.file_prefix;
    plan_.options.file_prefix =
        claim_.claim(plan_.options.output_directory, wanted, settings_.recovery_registry);
    if (claim_.suffixed())
      std::fprintf(stderr,
                   "rocprofv3: warning: another process is writing outputs named '%s_*' in '%s'; "
                   "this process (pid %d) writes '%s_*'\n",
                   wanted.c_str(), plan_.options.output_directory.c_str(),
                   static_cast<int>(::getpid()), plan_.options.file_prefix.c_str());
  }
  if (with_journal && !settings_.recovery_registry.empty() && !plan_.writers.empty())
    open_journal();
  ready_.store(true, std::memory_order_release);
}

void record_store::open_journal() {
  auto journal = std::make_unique<trace::journal_writer>();
  std::string error;
  if (!journal->create(scratch_directory(settings_), plan_, &error)) {
    std::fprintf(stderr, "rocprofv3: %s; outputs cannot be recovered if this process dies\n",
                 error.c_str());
    return;
  }
  // Registered with the launcher: a link named after this process, to the journal.
  std::string entry = settings_.recovery_registry + "/" + std::to_string(::getpid());
  ::unlink(entry.c_str());  // an earlier process of this run that had our pid
  if (::symlink(journal->path().c_str(), entry.c_str()) != 0) {
    std::fprintf(stderr,
                 "rocprofv3: cannot register the record journal in '%s': %s; outputs cannot be "
                 "recovered if this process dies\n",
                 settings_.recovery_registry.c_str(), std::strerror(errno));
    journal->remove();
    return;
  }
  registration_ = std::move(entry);
  defs_.attach_journal(journal.get());
  journal_ = std::move(journal);
  journaling_.store(true, std::memory_order_release);
}

void record_store::append(const record_batch& batch) {
  if (batch.total() == 0) return;
  ensure_ready(true);
  trace::journal_writer* journal = journal_.get();
  journal_then_spool sink{journal, spool_};
  batch.append_to_sink(sink);
  if (journal != nullptr && journal->failed() && !journal_failure_reported_.exchange(true)) {
    journaling_.store(false, std::memory_order_release);
    std::fprintf(stderr,
                 "rocprofv3: %s; later records are kept in memory and cannot be recovered if "
                 "this process dies\n",
                 journal->last_error().c_str());
  }
}

uint64_t record_store::total_records() const {
  const trace::journal_writer* journal = journal_.get();
  return (ready_.load() && journal != nullptr ? journal->total_records() : 0) +
         spool_.total_records();
}

trace::output_options record_store::output_options() {
  ensure_ready(false);
  return plan_.options;
}

output_report record_store::write_outputs(const trace::trace_definitions& defs) {
  ensure_ready(false);  // nothing was recorded: the config file may still be written
  trace::journal_writer* journal = journal_.get();
  std::string journal_error;
  auto report = trace::run_output_plan(
      plan_, defs, total_records(), [&](const std::vector<trace::writer*>& outs) {
        if (journal != nullptr) journal_error = journal->replay(outs);  // the older records first
        spool_.replay(outs);
      });
  for (const std::string& error : {journal_error, spool_.last_error()})
    if (!error.empty()) report.errors.push_back(error);
  return report;
}

void record_store::finish() {
  if (journal_ != nullptr) {
    journal_->mark_outputs_written();
    ::unlink(registration_.c_str());
    journal_->remove();
  }
  spool_.discard();
}

void record_store::abandon_in_forked_child() {
  if (journal_ != nullptr) journal_->abandon_in_forked_child();
  claim_.forget_in_forked_child();
  spool_.abandon_in_forked_child();
}

}  // namespace rocprof::tool
