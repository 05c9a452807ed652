// rocpd writer: the database's set-up (schema, bulk-load settings), the string table, events,
// tracks and transactions, begin() and finish(). See rocpd_writer_impl.hpp for the other files.
#include <unistd.h>

#include <algorithm>

#include "common/number_format.hpp"
#include "rocpd/rocpd_schema.hpp"
#include "rocpd/rocpd_writer_impl.hpp"

namespace rocprof::formats::rocpd {

using namespace rocprof::trace;

namespace {

// Rows per transaction: large enough to amortise the commit, small enough that an aborted run
// keeps most of its data.
constexpr uint64_t rows_per_transaction = 1'000'000;

}  // namespace

rocpd_writer::inserts::inserts(database& db, const std::string& u)
    : events{db,
             u,
             {event_col::id, event_col::category_id, event_col::stack_id,
              event_col::parent_stack_id, event_col::correlation_id}},
      events_with_extdata{
          db,
          u,
          {event_col::id, event_col::category_id, event_col::stack_id, event_col::parent_stack_id,
           event_col::correlation_id, event_col::extdata}},
      regions{db,
              u,
              {region_col::id, region_col::nid, region_col::pid, region_col::tid, region_col::start,
               region_col::end, region_col::name_id, region_col::event_id}},
      samples{db,
              u,
              {sample_col::id, sample_col::track_id, sample_col::timestamp, sample_col::event_id,
               sample_col::extdata}},
      tracks{db,
             u,
             {track_col::id, track_col::nid, track_col::pid, track_col::tid, track_col::name_id},
             1},
      device_tracks{db,
                    u,
                    {track_col::id, track_col::nid, track_col::pid, track_col::tid,
                     track_col::name_id, track_col::extdata},
                    1},
      kernels{db,
              u,
              {kernel_col::id,
               kernel_col::nid,
               kernel_col::pid,
               kernel_col::tid,
               kernel_col::agent_id,
               kernel_col::kernel_id,
               kernel_col::dispatch_id,
               kernel_col::queue_id,
               kernel_col::stream_id,
               kernel_col::start,
               kernel_col::end,
               kernel_col::private_segment_size,
               kernel_col::group_segment_size,
               kernel_col::workgroup_size_x,
               kernel_col::workgroup_size_y,
               kernel_col::workgroup_size_z,
               kernel_col::grid_size_x,
               kernel_col::grid_size_y,
               kernel_col::grid_size_z,
               kernel_col::region_name_id,
               kernel_col::event_id,
               kernel_col::extdata},
              32},
      copies{db,
             u,
             {copy_col::id, copy_col::nid, copy_col::pid, copy_col::tid, copy_col::start,
              copy_col::end, copy_col::name_id, copy_col::dst_agent_id, copy_col::dst_address,
              copy_col::src_agent_id, copy_col::src_address, copy_col::size, copy_col::queue_id,
              copy_col::stream_id, copy_col::region_name_id, copy_col::event_id},
             32},
      memory_sets{db,
                  u,
                  {copy_col::id, copy_col::nid, copy_col::pid, copy_col::tid, copy_col::start,
                   copy_col::end, copy_col::name_id, copy_col::dst_agent_id, copy_col::dst_address,
                   copy_col::size, copy_col::queue_id, copy_col::stream_id,
                   copy_col::region_name_id, copy_col::event_id, copy_col::extdata},
                  32},
      allocations{db,
                  u,
                  {allocate_col::nid, allocate_col::pid, allocate_col::tid, allocate_col::agent_id,
                   allocate_col::type, allocate_col::level, allocate_col::start, allocate_col::end,
                   allocate_col::address, allocate_col::size, allocate_col::queue_id,
                   allocate_col::stream_id, allocate_col::event_id, allocate_col::extdata},
                  32},
      scratch{db,
              u,
              {allocate_col::nid, allocate_col::pid, allocate_col::tid, allocate_col::agent_id,
               allocate_col::type, allocate_col::level, allocate_col::start, allocate_col::end,
               allocate_col::address, allocate_col::size, allocate_col::queue_id,
               allocate_col::event_id, allocate_col::extdata},
              32},
      pmc_events{db,
                 u,
                 {pmc_event_col::id, pmc_event_col::event_id, pmc_event_col::pmc_id,
                  pmc_event_col::value}},
      args{db,
           u,
           {arg_col::event_id, arg_col::position, arg_col::type, arg_col::name, arg_col::value}},
      pc_samples{db,
                 u,
                 {pc_col::nid,
                  pc_col::pid,
                  pc_col::agent_id,
                  pc_col::method,
                  pc_col::dispatch_id,
                  pc_col::kernel_id,
                  pc_col::correlation_id,
                  pc_col::code_object_id,
                  pc_col::code_object_offset,
                  pc_col::timestamp,
                  pc_col::exec_mask,
                  pc_col::wave_count,
                  pc_col::wave_issued,
                  pc_col::sample_count,
                  pc_col::not_issued_count,
                  pc_col::instruction_type_id,
                  pc_col::stall_reason_id,
                  pc_col::vendor_stall_reason_id,
                  pc_col::instruction_id,
                  pc_col::comment_id,
                  pc_col::extdata},
                 32} {
  regions.renumber_on_conflict(region_col::event_id);
  samples.renumber_on_conflict(sample_col::event_id);
}

void rocpd_writer::inserts::flush() {
  events.flush();
  events_with_extdata.flush();
  regions.flush();
  samples.flush();
  tracks.flush();
  device_tracks.flush();
  kernels.flush();
  copies.flush();
  memory_sets.flush();
  allocations.flush();
  scratch.flush();
  pmc_events.flush();
  args.flush();
  pc_samples.flush();
}

void rocpd_writer::collect_strings() {
  const auto& d = *defs_;
  std::vector<std::string_view> all;
  all.reserve(d.strings.size() + 64);
  all.emplace_back("");
  for (const auto& s : d.strings)
    all.emplace_back(s);
  auto own = [&all](std::string_view s) { all.push_back(s); };
  for (const auto& row : domain_table)
    own(row.category);
  for (auto s : {kernel_dispatch_kind, memory_copy_kind, memory_set_kind, memory_allocation_kind,
                 scratch_memory_kind, counter_collection_kind, device_counter_sample_kind})
    own(s);
  for (int v = 0; v <= 5; ++v)
    own(copy_direction_name(static_cast<memory_copy_direction>(v)));
  for (const auto& a : d.agents) {
    own(a.name);
    own(a.product_name);
  }
  for (const auto& k : d.kernel_symbols) {
    own(k.mangled_name);
    own(k.demangled_name);
    own(k.truncated_name);
    own(symbol_display_name(k));
  }
  for (const auto& c : d.code_objects)
    own(c.uri);
  for (const auto& c : d.counters)
    own(c.name);
  for (const auto& stack : d.host_callstacks)
    for (const auto& f : stack.frames) {
      own(f.function);
      own(f.file);
      own(f.module);
    }
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  sorted_strings_ = std::move(all);

  string_remap_.resize(d.strings.size());
  for (size_t i = 0; i < d.strings.size(); ++i)
    string_remap_[i] = sid(std::string_view{d.strings[i]});
  empty_id_ = sid(std::string_view{});
  for (size_t i = 0; i < domain_table.size(); ++i)
    category_ids_[i] = sid(domain_table[i].category);
  kernel_category_ = sid(kernel_dispatch_kind);
  copy_category_ = sid(memory_copy_kind);
  set_category_ = sid(memory_set_kind);
  alloc_category_ = sid(memory_allocation_kind);
  scratch_category_ = sid(scratch_memory_kind);
  counter_category_ = sid(counter_collection_kind);
  device_sample_category_ = sid(device_counter_sample_kind);
  for (const auto& c : d.counters)
    counter_names_.emplace(c.id, sid(std::string_view{c.name}));
  for (int v = 0; v <= 5; ++v)
    direction_ids_[static_cast<size_t>(v)] =
        sid(copy_direction_name(static_cast<memory_copy_direction>(v)));
  memory_set_name_ = set_category_;
}

int64_t rocpd_writer::sid(std::string_view s) const {
  auto it = std::lower_bound(sorted_strings_.begin(), sorted_strings_.end(), s);
  return static_cast<int64_t>(it - sorted_strings_.begin()) + 1;
}

void rocpd_writer::begin(const trace_definitions& defs) {
  defs_ = &defs;
  kernels_.emplace(defs, options_);
  nid_ = static_cast<int64_t>(defs.node.id);
  pid_ = defs.process.pid;
  guid_ =
      make_guid(defs.process.start_ns, defs.node.machine_id, defs.process.pid, defs.process.ppid);
  uuid_ = guid_;
  std::replace(uuid_.begin(), uuid_.end(), '-', '_');
  uuid_suffix_ = "_" + uuid_;
  assign_agent_rows();
  keep_dispatch_events_ = !defs.counters.empty();
  collect_strings();

  // Built under a temporary name (O_EXCL|O_NOFOLLOW) that finish() renames over path_: an
  // earlier run's database is replaced in one step, a link at the name is never followed.
  if (!staged_.create(path_)) {
    db_.check(SQLITE_CANTOPEN, staged_.error().c_str(), __FILE__, __LINE__);
    return;
  }
  // SQLite opens it by name; ours is closed first (closing any descriptor of a file drops the
  // process's POSIX locks on it, SQLite's included).
  ::close(staged_.release_fd());
  if (!db_.open(staged_.temp_path())) return;
  // Bulk-load settings: no rollback journal (an in-memory one costs a quarter of the
  // throughput; key conflicts are repaired by bulk_insert::renumber_on_conflict instead), no
  // fsync, big pages, one writer. temp_store stays on disk: CREATE INDEX sorts through it and
  // must not grow memory with the row count.
  ROCPD_EXEC(db_,
             "PRAGMA page_size=65536; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
             "PRAGMA locking_mode=EXCLUSIVE; PRAGMA cache_size=-32768;"
             "PRAGMA foreign_keys=OFF;");
  ROCPD_EXEC(db_, expand_schema(rocpd_tables_sql, uuid_, guid_));
  ROCPD_EXEC(db_, expand_schema(rocpd_views_sql, uuid_, guid_));
  ROCPD_EXEC(db_, expand_schema(data_views_sql, uuid_, guid_));
  ROCPD_EXEC(db_, expand_schema(summary_views_sql, uuid_, guid_));
  ROCPD_EXEC(db_, "BEGIN");
  write_definitions();
  inserts_.emplace(db_, uuid_suffix_);
  begin_callstacks();
}

void rocpd_writer::count_rows(uint64_t n) {
  rows_in_transaction_ += n;
  if (rows_in_transaction_ >= rows_per_transaction) {
    ROCPD_EXEC(db_, "COMMIT; BEGIN");
    rows_in_transaction_ = 0;
  }
}

int64_t rocpd_writer::add_event(int64_t category, uint64_t stack, uint64_t parent,
                                uint64_t corr_external, std::string_view extdata) {
  const int64_t id = ++next_event_;
  const bool with_extdata = extdata != "{}";
  auto& e = with_extdata ? inserts_->events_with_extdata : inserts_->events;
  e.i64(event_col::id, id)
      .i64(event_col::category_id, category)
      .u64(event_col::stack_id, stack)
      .u64(event_col::parent_stack_id, parent)
      .u64(event_col::correlation_id, corr_external);
  if (with_extdata) e.text(event_col::extdata, extdata);
  e.end_row();
  return id;
}

int64_t rocpd_writer::track_for(int64_t pid, int64_t tid, int64_t name_id) {
  auto [it, inserted] = tracks_.emplace(std::make_tuple(pid, tid, name_id),
                                        int64_t(tracks_.size() + device_tracks_.size() + 1));
  if (inserted)
    inserts_->tracks.i64(track_col::id, it->second)
        .i64(track_col::nid, nid_)
        .i64(track_col::pid, pid)
        .i64(track_col::tid, tid)
        .i64(track_col::name_id, name_id)
        .end_row();
  return it->second;
}

std::string rocpd_writer::finish() {
  if (!defs_) return "rocpd writer finished before begin()";
  if (loading() && inserts_) {
    // dispatch_events_ knows the kernel trace's dispatches only in counter runs.
    for (const auto& d : counter_dispatches_) {
      if (keep_dispatch_events_ && dispatch_events_.count(d.dispatch_id) == 0) write_dispatch(d);
    }
    count_rows(counter_dispatches_.size() * 2);
    for (const auto& c : pending_counters_) {
      int64_t event = 0;
      auto it = dispatch_events_.find(c.dispatch_id);
      if (it != dispatch_events_.end())
        event = it->second;
      else
        event = add_event(counter_category_, 0, 0, 0);
      inserts_->pmc_events.i64(pmc_event_col::id, ++next_pmc_event_)
          .i64(pmc_event_col::event_id, event)
          .u64(pmc_event_col::pmc_id, c.counter_id)
          .f64(pmc_event_col::value, c.value)
          .end_row();
    }
    inserts_->flush();
    if (callstack_rows_) callstack_rows_->flush();
    write_late_definitions();
    ROCPD_EXEC(db_, expand_schema(rocpd_indexes_sql, uuid_, guid_));
    ROCPD_EXEC(db_, "COMMIT");
  }
  inserts_.reset();
  callstack_rows_.reset();
  db_.close();
  if (!db_.error().empty()) {
    staged_.discard();  // complete or absent
    return db_.error();
  }
  return staged_.commit();
}

std::unique_ptr<writer> make_rocpd_writer(const output_options& options) {
  return std::make_unique<rocpd_writer>(options);
}

}  // namespace rocprof::formats::rocpd
