// The rocpd writer class, shared by its three source files (internal to formats/rocpd):
//   rocpd_writer.cpp      database set-up, strings, events and tracks, begin() / finish();
//   rocpd_definitions.cpp node, process, agents, counters, code objects, symbols, and the
//                         threads / queues / streams rows written at the end;
//   rocpd_records.cpp     one write() per record kind.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/kernel_names.hpp"
#include "rocpd/rocpd_tables.hpp"
#include "rocpd/rocpd_writer.hpp"
#include "rocpd/sqlite_db.hpp"
#include "rocpd/table_insert.hpp"
#include "rocprof/trace/staged_file.hpp"

namespace rocprof::formats::rocpd {

// Short names for the columns of the tables the writer fills.
using metadata_col = metadata_table::column;
using string_col = string_table::column;
using node_col = info_node_table::column;
using process_col = info_process_table::column;
using thread_col = info_thread_table::column;
using agent_col = info_agent_table::column;
using pmc_col = info_pmc_table::column;
using code_object_col = info_code_object_table::column;
using symbol_col = info_kernel_symbol_table::column;
using track_col = track_table::column;
using event_col = event_table::column;
using pmc_event_col = pmc_event_table::column;
using arg_col = arg_table::column;
using region_col = region_table::column;
using sample_col = sample_table::column;
using kernel_col = kernel_dispatch_table::column;
using copy_col = memory_copy_table::column;
using allocate_col = memory_allocate_table::column;
using pc_col = pc_sample_table::column;

class rocpd_writer final : public trace::writer {
 public:
  explicit rocpd_writer(const trace::output_options& options)
      : options_{options}, path_{options.path_for("results", "db")} {}
  using writer::write;

  void begin(const trace::trace_definitions& defs) override;
  void write(trace::record_span<trace::api_record> records) override;
  void write(trace::record_span<trace::kernel_dispatch_record> records) override;
  void write(trace::record_span<trace::memory_copy_record> records) override;
  void write(trace::record_span<trace::memory_set_record> records) override;
  void write(trace::record_span<trace::memory_allocation_record> records) override;
  void write(trace::record_span<trace::scratch_memory_record> records) override;
  void write(trace::record_span<trace::counter_value_record> records) override {
    pending_counters_.insert(pending_counters_.end(), records.begin(), records.end());
  }
  // Without --kernel-trace the counted dispatches become the rocpd_kernel_dispatch rows, as in
  // rocprofv3; with it, the kernel trace's rows stand (finish() writes the missing ones only).
  void write(trace::record_span<trace::counter_dispatch_record> records) override {
    for (const auto& r : records)
      counter_dispatches_.push_back(r.dispatch);
  }
  // A sample on the agent's track of its counter, its value in a pmc event (README.md).
  void write(trace::record_span<trace::device_counter_sample_record> records) override;
  // One rocpd_pc_sample row per sample record (extension table, README.md).
  void write(trace::record_span<trace::pc_sample_record> records) override;
  std::string finish() override;

 private:
  // The bulk INSERTs of the records, made at begin() once the tables exist. Most events keep
  // the column default extdata "{}"; only those with data go through event_with_extdata.
  // Copies and memsets share rocpd_memory_copy, allocations and scratch rocpd_memory_allocate.
  struct inserts {
    inserts(database& db, const std::string& uuid_suffix);
    table_insert<event_table> events;
    table_insert<event_table> events_with_extdata;
    table_insert<region_table> regions;
    table_insert<sample_table> samples;
    table_insert<track_table> tracks;
    table_insert<track_table> device_tracks;  // with extdata naming agent and counter
    table_insert<kernel_dispatch_table> kernels;
    table_insert<memory_copy_table> copies;
    table_insert<memory_copy_table> memory_sets;
    table_insert<memory_allocate_table> allocations;
    table_insert<memory_allocate_table> scratch;
    table_insert<pmc_event_table> pmc_events;
    table_insert<arg_table> args;
    table_insert<pc_sample_table> pc_samples;
    void flush();
  };

  // --- strings: every string the database will hold is known at begin(); sorted, numbered 1..
  void collect_strings();
  int64_t sid(std::string_view s) const;
  int64_t sid(trace::string_id id) const {
    return id < string_remap_.size() ? string_remap_[id] : empty_id_;
  }

  // rocpd_info_agent.id of an agent handle. A handle the definitions lack (other than 0, "no
  // agent") gets a fresh row, written at finish(), so the views' agent joins keep the record.
  int64_t agent_row(uint64_t handle);
  void assign_agent_rows();
  void write_agent(table_insert<info_agent_table>& rows, const trace::agent_info& a, int64_t row);
  void see_thread(int64_t tid) {
    if (tid != last_tid_) {
      seen_tids_.insert(tid);
      last_tid_ = tid;
    }
  }
  void see_queue(uint64_t id) {
    if (id != last_queue_) {
      seen_queues_.insert(id);
      last_queue_ = id;
    }
  }
  void see_stream(uint64_t id) {
    if (id != last_stream_) {
      seen_streams_.insert(id);
      last_stream_ = id;
    }
  }
  bool loading() const { return db_.handle() != nullptr && db_.ok(); }

  int64_t add_event(int64_t category, uint64_t stack, uint64_t parent, uint64_t corr_external,
                    std::string_view extdata = "{}");
  int64_t track_for(int64_t pid, int64_t tid, int64_t name_id);
  int64_t device_track_for(uint64_t agent, uint64_t counter);
  template <typename Table>
  table_insert<Table>& activity_row(table_insert<Table>& rows, int64_t pid, int64_t tid,
                                    uint64_t start, uint64_t end, int64_t event);
  void count_rows(uint64_t n);
  void write_definitions();
  void write_process();
  void write_counters_and_code();
  void write_late_definitions();
  void write_threads();
  std::string_view kernel_extdata(const trace::kernel_dispatch_record& r);
  void write_dispatch(const trace::kernel_dispatch_record& r);
  // --kernel-host-callstack (rocpd_callstacks.cpp): the extension table, made at begin() when
  // the definitions hold stacks, and one row per frame of each dispatch's launch stack.
  void begin_callstacks();
  void write_callstack(const trace::kernel_dispatch_record& r);
  std::string_view json_member(std::string_view key, std::string_view value);
  // An API call's extdata: the marker's message, or the call's return value when it is not 0.
  std::string_view api_extdata(const trace::api_record& r);
  // One rocpd_arg row per recorded argument of the call (--cuda-api-args), as AMD's rocpd does
  // for HIP's: position from 0, type, name, value. Returns the rows written.
  uint64_t write_args(int64_t event, std::string_view args_text);

  trace::output_options options_;
  std::string path_;
  trace::staged_file staged_;  // path_ while the database is built
  const trace::trace_definitions* defs_ = nullptr;
  std::optional<kernel_names> kernels_;
  database db_;
  std::string uuid_, guid_;
  std::string uuid_suffix_;  // "_" + uuid_: every table name ends with it
  int64_t nid_ = 0, pid_ = 0;

  std::vector<std::string_view> sorted_strings_;
  std::vector<int64_t> string_remap_;  // defs string_id -> rocpd string id
  int64_t empty_id_ = 1;
  std::array<int64_t, trace::domain_table.size()> category_ids_{};
  int64_t kernel_category_ = 0, copy_category_ = 0, set_category_ = 0, alloc_category_ = 0,
          scratch_category_ = 0, counter_category_ = 0, device_sample_category_ = 0;
  std::array<int64_t, 6> direction_ids_{};
  int64_t memory_set_name_ = 0;

  std::unordered_map<uint64_t, int64_t> agent_node_;  // agent handle -> rocpd_info_agent.id
  std::vector<int64_t> agent_rows_;                   // per defs agent; -1: a repeated handle
  std::vector<std::pair<uint64_t, int64_t>> late_agents_;
  int64_t next_agent_row_ = 0;
  std::unordered_set<int64_t> seen_tids_;
  std::unordered_set<uint64_t> seen_queues_, seen_streams_;
  int64_t last_tid_ = INT64_MIN;
  uint64_t last_queue_ = UINT64_MAX, last_stream_ = UINT64_MAX;
  std::map<std::tuple<int64_t, int64_t, int64_t>, int64_t> tracks_;
  std::map<std::pair<uint64_t, uint64_t>, int64_t> device_tracks_;  // (agent, counter) -> id
  std::unordered_map<uint64_t, int64_t> counter_names_;             // counter id -> string id

  std::optional<inserts> inserts_;
  std::optional<bulk_insert> callstack_rows_;
  int64_t next_event_ = 0, next_copy_ = 0, next_pmc_event_ = 0;
  // Ids for regions / samples without a correlation id, far above any correlation id (every
  // row needs an explicit id for the conflict repair in bulk_insert).
  uint64_t uncorrelated_id_ = uint64_t{1} << 62;
  uint64_t rows_in_transaction_ = 0;
  bool keep_dispatch_events_ = false;
  std::unordered_map<uint64_t, int64_t> dispatch_events_;
  std::vector<trace::counter_value_record> pending_counters_;
  std::vector<trace::kernel_dispatch_record> counter_dispatches_;
  std::string scratch_text_;
};

}  // namespace rocprof::formats::rocpd
