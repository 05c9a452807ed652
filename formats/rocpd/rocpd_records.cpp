// rocpd writer: one write() per record kind. Every record gets an event row (category, stack
// ids, external correlation) and a row in its kind's table that points at it.
#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "common/json_text.hpp"
#include "common/number_format.hpp"
#include "rocpd/rocpd_writer_impl.hpp"
#include "rocprof/trace/api_args.hpp"

namespace rocprof::formats::rocpd {

using namespace rocprof::trace;

// {"<key>":"<value>"}, in scratch_text_ (valid until the next call).
std::string_view rocpd_writer::json_member(std::string_view key, std::string_view value) {
  scratch_text_.assign("{\"");
  scratch_text_ += key;
  scratch_text_ += "\":";
  append_json_string(scratch_text_, value);
  scratch_text_ += '}';
  return scratch_text_;
}

// The columns every activity row (region, kernel, copy, memset, allocation, scratch) fills
// alike: where it ran, when, and its event.
template <typename Table>
table_insert<Table>& rocpd_writer::activity_row(table_insert<Table>& rows, int64_t pid, int64_t tid,
                                                uint64_t start, uint64_t end, int64_t event) {
  using col = typename Table::column;
  return rows.i64(col::nid, nid_)
      .i64(col::pid, pid)
      .i64(col::tid, tid)
      .u64(col::start, start)
      .u64(col::end, end)
      .i64(col::event_id, event);
}

void rocpd_writer::write(record_span<api_record> records) {
  if (!loading()) return;
  uint64_t arg_rows = 0;
  for (const auto& r : records) {
    see_thread(r.tid);
    const auto dom = static_cast<size_t>(r.domain);
    const int64_t event = add_event(category_ids_[dom], r.corr.internal, r.corr.ancestor,
                                    r.corr.external, api_extdata(r));
    if (r.args != empty_string) arg_rows += write_args(event, defs_->str(r.args));
    const int64_t pid = r.pid ? r.pid : pid_;
    const uint64_t id = r.corr.internal ? r.corr.internal : ++uncorrelated_id_;
    if (r.start_ns == r.end_ns) {  // a mark: a sample on the thread's track for this category
      // The track is named by the category; the API name ("roctxMarkA") goes to the sample's
      // extdata, which AMD's views do not read, so that `rocpd convert` gives it back.
      const int64_t track = track_for(pid, r.tid, category_ids_[dom]);
      inserts_->samples.u64(sample_col::id, id)
          .i64(sample_col::track_id, track)
          .u64(sample_col::timestamp, r.start_ns)
          .i64(sample_col::event_id, event)
          .text(sample_col::extdata, json_member("operation", defs_->str(r.operation)))
          .end_row();
    } else {
      activity_row(inserts_->regions, pid, r.tid, r.start_ns, r.end_ns, event)
          .u64(region_col::id, id)
          .i64(region_col::name_id, sid(r.operation))
          .end_row();
    }
  }
  count_rows(records.size * 2 + arg_rows);
}

std::string_view rocpd_writer::api_extdata(const api_record& r) {
  if (r.message != empty_string) return json_member("message", defs_->str(r.message));
  if (r.args == empty_string) return "{}";
  const int64_t retval = api_args_retval(defs_->str(r.args));
  if (retval == 0) return "{}";
  scratch_text_.assign("{\"retval\":");
  scratch_text_ += std::to_string(retval);
  scratch_text_ += '}';
  return scratch_text_;
}

uint64_t rocpd_writer::write_args(int64_t event, std::string_view args_text) {
  int64_t position = 0;
  for_each_api_arg(args_text, [&](const api_arg_view& a) {
    inserts_->args.i64(arg_col::event_id, event)
        .i64(arg_col::position, position++)
        .text(arg_col::type, a.type)
        .text(arg_col::name, a.name)
        .text(arg_col::value, a.value)
        .end_row();
  });
  return static_cast<uint64_t>(position);
}

// CUDA graph membership and thread-block cluster shape have no column of their own in rocpd
// schema 3: they go to the dispatch's extdata, and only when present. So do register counts
// that differ from the kernel symbol's (the views read the symbol's; `rocpd convert` restores
// the dispatch's own).
std::string_view rocpd_writer::kernel_extdata(const kernel_dispatch_record& r) {
  const bool graph = r.graph_id != 0 || r.graph_node_id != 0;
  const bool cluster = r.cluster_size.x != 0 || r.cluster_size.y != 0 || r.cluster_size.z != 0;
  const auto* sym = kernels_->find(r.kernel_id);
  const bool registers =
      sym ? (sym->arch_vgpr_count != r.arch_vgpr_count ||
             sym->accum_vgpr_count != r.accum_vgpr_count || sym->sgpr_count != r.sgpr_count)
          : (r.arch_vgpr_count | r.accum_vgpr_count | r.sgpr_count) != 0;
  if (!graph && !cluster && !registers) return "{}";
  scratch_text_.assign("{");
  auto out = std::back_inserter(scratch_text_);
  if (graph)
    fmt::format_to(out, "\"graph_id\":{},\"graph_node_id\":{},", r.graph_id, r.graph_node_id);
  if (registers)
    fmt::format_to(out, "\"arch_vgpr_count\":{},\"accum_vgpr_count\":{},\"sgpr_count\":{},",
                   r.arch_vgpr_count, r.accum_vgpr_count, r.sgpr_count);
  if (cluster)
    fmt::format_to(out, "\"cluster_size\":{{\"x\":{},\"y\":{},\"z\":{}}},", r.cluster_size.x,
                   r.cluster_size.y, r.cluster_size.z);
  scratch_text_.back() = '}';
  return scratch_text_;
}

void rocpd_writer::write(record_span<kernel_dispatch_record> records) {
  if (!loading()) return;
  for (const auto& r : records)
    write_dispatch(r);
  count_rows(records.size * 2);
}

// One rocpd_kernel_dispatch row and its event; the event is what the dispatch's pmc events
// point at (the counters_collection view joins them through it).
void rocpd_writer::write_dispatch(const kernel_dispatch_record& r) {
  see_thread(r.tid);
  see_queue(r.queue_id);
  see_stream(r.stream_id);
  const int64_t event =
      add_event(kernel_category_, r.corr.internal, r.corr.internal, r.corr.external);
  if (keep_dispatch_events_) dispatch_events_.emplace(r.dispatch_id, event);
  activity_row(inserts_->kernels, pid_, r.tid, r.start_ns, r.end_ns, event)
      .u64(kernel_col::id, r.dispatch_id)
      .i64(kernel_col::agent_id, agent_row(r.agent_id))
      .u64(kernel_col::kernel_id, r.kernel_id)
      .u64(kernel_col::dispatch_id, r.dispatch_id)
      .u64(kernel_col::queue_id, r.queue_id)
      .u64(kernel_col::stream_id, r.stream_id)
      .i64(kernel_col::private_segment_size, r.private_segment_size)
      .i64(kernel_col::group_segment_size, r.group_segment_size)
      .i64(kernel_col::workgroup_size_x, r.workgroup_size.x)
      .i64(kernel_col::workgroup_size_y, r.workgroup_size.y)
      .i64(kernel_col::workgroup_size_z, r.workgroup_size.z)
      .i64(kernel_col::grid_size_x, r.grid_size.x)
      .i64(kernel_col::grid_size_y, r.grid_size.y)
      .i64(kernel_col::grid_size_z, r.grid_size.z)
      .i64(kernel_col::region_name_id, sid(r.region_name))
      .text(kernel_col::extdata, kernel_extdata(r))
      .end_row();
  if (callstack_rows_) write_callstack(r);
}

void rocpd_writer::write(record_span<memory_copy_record> records) {
  if (!loading()) return;
  for (const auto& r : records) {
    see_thread(r.tid);
    see_stream(r.stream_id);
    const int64_t event =
        add_event(copy_category_, r.corr.internal, r.corr.internal, r.corr.external);
    activity_row(inserts_->copies, pid_, r.tid, r.start_ns, r.end_ns, event)
        .i64(copy_col::id, ++next_copy_)
        .i64(copy_col::name_id,
             direction_ids_[std::min<size_t>(static_cast<size_t>(r.direction), 5)])
        .i64(copy_col::dst_agent_id, agent_row(r.dst_agent_id))
        .u64(copy_col::dst_address, r.dst_address)
        .i64(copy_col::src_agent_id, agent_row(r.src_agent_id))
        .u64(copy_col::src_address, r.src_address)
        .u64(copy_col::size, r.bytes)
        .null(copy_col::queue_id)  // rocprofv3 leaves queue_id NULL for copies
        .u64(copy_col::stream_id, r.stream_id)
        .i64(copy_col::region_name_id, sid(r.region_name))
        .end_row();
  }
  count_rows(records.size * 2);
}

void rocpd_writer::write(record_span<memory_set_record> records) {
  if (!loading()) return;
  for (const auto& r : records) {
    see_thread(r.tid);
    see_stream(r.stream_id);
    const int64_t event =
        add_event(set_category_, r.corr.internal, r.corr.internal, r.corr.external);
    activity_row(inserts_->memory_sets, pid_, r.tid, r.start_ns, r.end_ns, event)
        .i64(copy_col::id, ++next_copy_)
        .i64(copy_col::name_id, memory_set_name_)
        .i64(copy_col::dst_agent_id, agent_row(r.agent_id))
        .u64(copy_col::dst_address, r.address)
        .u64(copy_col::size, r.bytes)
        .u64(copy_col::queue_id, r.queue_id)
        .u64(copy_col::stream_id, r.stream_id)
        .i64(copy_col::region_name_id, empty_id_)
        .text(copy_col::extdata, fmt::format("{{\"value\":{}}}", r.value))
        .end_row();
  }
  count_rows(records.size * 2);
}

void rocpd_writer::write(record_span<memory_allocation_record> records) {
  if (!loading()) return;
  for (const auto& r : records) {
    see_thread(r.tid);
    see_stream(r.stream_id);
    const int64_t event =
        add_event(alloc_category_, r.corr.internal, r.corr.ancestor, r.corr.external);
    const bool alloc = r.operation == memory_allocation_operation::allocate ||
                       r.operation == memory_allocation_operation::vmem_allocate;
    const bool virt = r.operation == memory_allocation_operation::vmem_allocate ||
                      r.operation == memory_allocation_operation::vmem_free;
    auto& a = inserts_->allocations;
    if (alloc)
      a.i64(allocate_col::agent_id, agent_row(r.agent_id));
    else
      a.null(allocate_col::agent_id);
    activity_row(a, pid_, r.tid, r.start_ns, r.end_ns, event)
        .text(allocate_col::type, alloc ? "ALLOC" : "FREE")
        .text(allocate_col::level, virt ? "VIRTUAL" : "REAL")
        .u64(allocate_col::address, r.address)
        .u64(allocate_col::size, r.size)
        .null(allocate_col::queue_id)
        .u64(allocate_col::stream_id, r.stream_id)
        .text(allocate_col::extdata, r.memory_kind != empty_string
                                         ? json_member("memory_kind", defs_->str(r.memory_kind))
                                         : "{}")
        .end_row();
  }
  count_rows(records.size * 2);
}

void rocpd_writer::write(record_span<scratch_memory_record> records) {
  if (!loading()) return;
  for (const auto& r : records) {
    see_thread(r.tid);
    see_queue(r.queue_id);
    const int64_t event =
        add_event(scratch_category_, r.corr.internal, r.corr.ancestor, r.corr.external);
    std::string_view type = "ALLOC";
    if (r.operation == scratch_memory_operation::free) type = "FREE";
    if (r.operation == scratch_memory_operation::async_reclaim) type = "RECLAIM";
    auto& a = inserts_->scratch;
    if (r.operation == scratch_memory_operation::alloc)
      a.i64(allocate_col::agent_id, agent_row(r.agent_id));
    else
      a.null(allocate_col::agent_id);
    activity_row(a, pid_, r.tid, r.start_ns, r.end_ns, event)
        .text(allocate_col::type, type)
        .text(allocate_col::level, "SCRATCH")
        .i64(allocate_col::address, 0)
        .u64(allocate_col::size, r.allocation_size)
        .u64(allocate_col::queue_id, r.queue_id)
        .text(allocate_col::extdata, fmt::format("{{\"flags\":\"{}\"}}", r.flags))
        .end_row();
  }
  count_rows(records.size * 2);
}

// A track per agent and counter, named by the counter: AMD's `samples` view lists its samples
// under that name on the process's main thread; the extdata says which agent (its
// rocpd_info_agent row) and counter (its rocpd_info_pmc id) the track belongs to.
int64_t rocpd_writer::device_track_for(uint64_t agent, uint64_t counter) {
  auto [it, inserted] = device_tracks_.emplace(std::make_pair(agent, counter),
                                               int64_t(tracks_.size() + device_tracks_.size() + 1));
  if (inserted) {
    const auto name = counter_names_.find(counter);
    see_thread(pid_);
    inserts_->device_tracks.i64(track_col::id, it->second)
        .i64(track_col::nid, nid_)
        .i64(track_col::pid, pid_)
        .i64(track_col::tid, pid_)
        .i64(track_col::name_id, name != counter_names_.end() ? name->second : empty_id_)
        .text(track_col::extdata,
              fmt::format(R"({{"agent_id":{},"counter_id":{}}})", agent_row(agent), counter))
        .end_row();
  }
  return it->second;
}

// Each sample: an event of category DEVICE_COUNTER_SAMPLE, a rocpd_sample row on its track at
// its timestamp, and a rocpd_pmc_event of that event with the counter's value.
void rocpd_writer::write(record_span<device_counter_sample_record> records) {
  if (!loading()) return;
  for (const auto& r : records) {
    const int64_t track = device_track_for(r.agent_id, r.counter_id);
    const int64_t event = add_event(device_sample_category_, 0, 0, 0);
    inserts_->samples.u64(sample_col::id, ++uncorrelated_id_)
        .i64(sample_col::track_id, track)
        .u64(sample_col::timestamp, r.timestamp_ns)
        .i64(sample_col::event_id, event)
        .text(sample_col::extdata, "{}")
        .end_row();
    inserts_->pmc_events.i64(pmc_event_col::id, ++next_pmc_event_)
        .i64(pmc_event_col::event_id, event)
        .u64(pmc_event_col::pmc_id, r.counter_id)
        .f64(pmc_event_col::value, r.value)
        .end_row();
  }
  count_rows(records.size * 3);
}

}  // namespace rocprof::formats::rocpd
