// Collects the definitions half of the trace model while the run goes on: interned strings,
// the threads seen (with their names and first/last record times), agents, code objects,
// kernel symbols and counters, plus process and node identity. Every method may be called from
// any thread (buffer callback threads, the application's naming calls); one mutex guards all,
// which is fine because none of this is on the application's record path.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "rocprof/trace/journal.hpp"
#include "rocprof/trace/model.hpp"

namespace rocprof::tool {

/// Widens a thread's [start, end] window so that it covers [start_ns, end_ns]; 0 is "unknown".
inline void widen_thread_window(uint64_t& start, uint64_t& end, uint64_t start_ns,
                                uint64_t end_ns) {
  if (start_ns != 0 && (start == 0 || start_ns < start)) start = start_ns;
  if (end_ns > end) end = end_ns;
}

class definitions_builder {
 public:
  definitions_builder();

  trace::string_id intern(std::string_view text);
  // As intern(), for strings of unbounded variety (API argument lists): a string seen before
  // keeps its id, a new one is kept only while the new ones taken this way hold fewer than
  // `limit_bytes`; beyond, empty_string.
  trace::string_id intern_within(std::string_view text, uint64_t limit_bytes);

  // Widens the thread's [start, end] window; creates the thread on first sight.
  void observe_thread(int64_t tid, uint64_t start_ns, uint64_t end_ns);
  void name_thread(int64_t tid, std::string_view name);

  void add_agent(trace::agent_info agent);
  void add_code_object(trace::code_object_info code_object);
  void add_kernel_symbol(trace::kernel_symbol_info symbol);
  void add_counter(trace::counter_info counter);
  void add_dropped(uint64_t count);
  uint64_t dropped() const;

  // Fills process (pid, ppid, argv, environment, start time) and node from the system.
  void capture_process_identity();
  void set_tool_times(uint64_t init_ns, uint64_t fini_ns);
  void set_config_json(std::string json);

  // Threads without a marker-given name get their pthread name (/proc/self/task/<tid>/comm)
  // while they still exist, so names survive even if the thread never named itself via ROCTx.
  void fill_missing_thread_names();

  trace::trace_definitions snapshot() const;

  // A forked child starts clean: forget everything recorded by the parent.
  void reset();

  // From now on every definition also goes to `journal` (which must outlive this object's use
  // of it), starting with everything known so far.
  void attach_journal(trace::journal_writer* journal);

 private:
  mutable std::mutex mutex_;
  trace::trace_definitions defs_;
  std::unordered_map<std::string, trace::string_id> string_ids_;
  uint64_t bounded_bytes_ = 0;              // bytes of the strings intern_within() added
  std::map<int64_t, size_t> thread_index_;    // tid -> index in defs_.threads
  trace::journal_writer* journal_ = nullptr;  // guarded by mutex_ (lock order: this, journal)
};

// The node identity (uname, /etc/machine-id) as the rocpd writer expects it.
trace::node_info read_node_info();

}  // namespace rocprof::tool
