// Perfetto writer: one write() per record kind, turning records into slices, flows and counters.
#include "common/kernel_names.hpp"
#include "perfetto/perfetto_writer_impl.hpp"

namespace rocprof::trace::perfetto_impl {

void perfetto_writer::write(record_span<api_record> records) {
  if (!began_) return;
  for (const api_record& r : records) {
    const auto& domain = info(r.domain);
    const bool marker = r.domain == api_domain::marker_core_range ||
                        r.domain == api_domain::marker_control ||
                        r.domain == api_domain::marker_name;
    const string_id name_id = marker && r.message != empty_string ? r.message : r.operation;
    const std::string_view name = defs_->str(name_id);
    const uint64_t end = std::max(r.end_ns, r.start_ns);
    lane_track& thread = thread_track(r.tid);
    lane_sequence& lane = place(thread, r.start_ns, end);
    // Markers launch nothing, so a flow would only dangle.
    const uint64_t flow = marker ? 0 : flow_id(r.corr.internal);
    slice(lane, r.start_ns, end, name, category_iid(domain.perfetto_category), flow, false, [&] {
      arg_uint(arg::begin_ns, r.start_ns);
      arg_uint(arg::end_ns, end);
      arg_uint(arg::delta_ns, end - r.start_ns);
      arg_int(arg::tid, r.tid);
      arg_string(arg::kind, domain.category);
      arg_string(arg::operation, defs_->str(r.operation));
      arg_uint(arg::corr_id, r.corr.internal);
      arg_uint(arg::ancestor_id, r.corr.ancestor);
      if (r.stream_id != 0) arg_uint(arg::stream_id, r.stream_id);
      if (r.args != empty_string) api_args(defs_->str(r.args));
    });
  }
}

void perfetto_writer::write(record_span<kernel_dispatch_record> records) {
  if (!began_) return;
  const auto mode = options_.agent_index;
  for (const kernel_dispatch_record& r : records) {
    const auto sym = kernels_.find(r.kernel_id);
    const kernel_symbol_info* k = sym != kernels_.end() ? sym->second : nullptr;
    // rocprofv3 names kernel slices by the demangled symbol, ignoring renames (§6).
    std::string_view name = "<unknown kernel>";
    if (k != nullptr) name = !k->demangled_name.empty() ? k->demangled_name : k->mangled_name;
    const agent_info* ag = agent(r.agent_id);
    lane_track& gpu = stream_mode_
                          ? gpu_track(gpu_track_kind::stream, r.stream_id, 0, ag)
                          : gpu_track(gpu_track_kind::compute_queue, r.agent_id, r.queue_id, ag);
    const uint64_t end = std::max(r.end_ns, r.start_ns);
    lane_sequence& lane = place(gpu, r.start_ns, end);
    if (keep_dispatch_spans_) dispatch_spans_[r.dispatch_id] = {r.start_ns, end};
    note_kernel_span(r, end);
    slice(lane, r.start_ns, end, name, category_iid("kernel_dispatch"), flow_id(r.corr.internal),
          true, [&] {
            arg_uint(arg::begin_ns, r.start_ns);
            arg_uint(arg::end_ns, end);
            arg_uint(arg::delta_ns, end - r.start_ns);
            arg_string(arg::kind, "KERNEL_DISPATCH");
            arg_string(arg::agent, perfetto::dashed_name(ag, mode));
            arg_string(arg::agent_type, perfetto::type_name(ag));
            arg_uint(arg::corr_id, r.corr.internal);
            arg_uint(arg::queue, r.queue_id);
            arg_int(arg::tid, r.tid);
            arg_uint(arg::kernel_id, r.kernel_id);
            arg_uint(arg::scratch_size, r.private_segment_size);
            arg_uint(arg::lds_block_size, r.group_segment_size);
            const auto registers = formats::registers_of(r, k);
            arg_uint(arg::vgpr_count, registers.arch_vgpr);
            arg_uint(arg::accum_vgpr_count, registers.accum_vgpr);
            arg_uint(arg::sgpr_count, registers.sgpr);
            arg_uint(arg::workgroup_size,
                     uint64_t{r.workgroup_size.x} * r.workgroup_size.y * r.workgroup_size.z);
            arg_uint(arg::grid_size, uint64_t{r.grid_size.x} * r.grid_size.y * r.grid_size.z);
            arg_uint(arg::stream_id, r.stream_id);
          });
  }
}

void perfetto_writer::write(record_span<memory_copy_record> records) {
  if (!began_) return;
  const auto mode = options_.agent_index;
  for (const memory_copy_record& r : records) {
    const std::string_view direction = formats::copy_direction_name(r.direction);
    const agent_info* dst = agent(r.dst_agent_id);
    lane_track& gpu = stream_mode_ ? gpu_track(gpu_track_kind::stream, r.stream_id, 0, dst)
                                   : gpu_track(gpu_track_kind::copy, r.dst_agent_id,
                                               static_cast<uint64_t>(r.tid), dst);
    const uint64_t end = std::max(r.end_ns, r.start_ns);
    lane_sequence& lane = place(gpu, r.start_ns, end);
    slice(lane, r.start_ns, end, direction, category_iid("memory_copy"), flow_id(r.corr.internal),
          true, [&] {
            arg_uint(arg::begin_ns, r.start_ns);
            arg_uint(arg::end_ns, end);
            arg_uint(arg::delta_ns, end - r.start_ns);
            arg_string(arg::kind, "MEMORY_COPY");
            arg_string(arg::operation, direction);
            arg_string(arg::src_agent, perfetto::dashed_name(agent(r.src_agent_id), mode));
            arg_string(arg::dst_agent, perfetto::dashed_name(dst, mode));
            arg_uint(arg::copy_bytes, r.bytes);
            arg_uint(arg::corr_id, r.corr.internal);
            arg_int(arg::tid, r.tid);
            arg_uint(arg::stream_id, r.stream_id);
          });
    // Bytes on the destination while the copy runs. rocprofv3 plots the in-flight sum, which
    // needs records sorted by time; a streaming writer shows each copy's own size instead.
    const uint64_t bytes_track = counter_track(counter_kind::copy_bytes, r.dst_agent_id, 0);
    counter(r.start_ns, bytes_track, static_cast<int64_t>(r.bytes));
    counter(end, bytes_track, int64_t{0});
  }
}

void perfetto_writer::write(record_span<memory_set_record> records) {
  if (!began_) return;
  const auto mode = options_.agent_index;
  for (const memory_set_record& r : records) {
    const agent_info* ag = agent(r.agent_id);
    lane_track& gpu = stream_mode_
                          ? gpu_track(gpu_track_kind::stream, r.stream_id, 0, ag)
                          : gpu_track(gpu_track_kind::compute_queue, r.agent_id, r.queue_id, ag);
    const uint64_t end = std::max(r.end_ns, r.start_ns);
    lane_sequence& lane = place(gpu, r.start_ns, end);
    slice(lane, r.start_ns, end, "MEMORY_SET", category_iid("memory_copy"),
          flow_id(r.corr.internal), true, [&] {
            arg_uint(arg::begin_ns, r.start_ns);
            arg_uint(arg::end_ns, end);
            arg_uint(arg::delta_ns, end - r.start_ns);
            arg_string(arg::kind, "MEMORY_SET");
            arg_string(arg::agent, perfetto::dashed_name(ag, mode));
            arg_uint(arg::copy_bytes, r.bytes);
            arg_uint(arg::corr_id, r.corr.internal);
            arg_int(arg::tid, r.tid);
            arg_uint(arg::stream_id, r.stream_id);
          });
  }
}

void perfetto_writer::write(record_span<memory_allocation_record> records) {
  if (!began_) return;
  // Allocations produce no slices in rocprofv3, only the running total per agent (§6).
  for (const memory_allocation_record& r : records) {
    const bool is_free = r.operation == memory_allocation_operation::free ||
                         r.operation == memory_allocation_operation::vmem_free;
    if (!is_free) {
      live_allocations_[r.address] = {r.agent_id, r.size};
      int64_t& total = allocated_bytes_[r.agent_id];
      total += static_cast<int64_t>(r.size);
      counter(r.start_ns, counter_track(counter_kind::allocated_bytes, r.agent_id, 0), total);
      continue;
    }
    const auto live = live_allocations_.find(r.address);
    if (live == live_allocations_.end()) {
      counter(r.start_ns, counter_track(counter_kind::free_bytes, 0, 0), int64_t{0});
      continue;
    }
    const auto [agent_id, size] = live->second;
    live_allocations_.erase(live);
    int64_t& total = allocated_bytes_[agent_id];
    total -= static_cast<int64_t>(size);
    counter(r.start_ns, counter_track(counter_kind::allocated_bytes, agent_id, 0), total);
  }
}

void perfetto_writer::write(record_span<scratch_memory_record> records) {
  if (!began_) return;
  for (const scratch_memory_record& r : records) {
    const uint64_t track = counter_track(counter_kind::scratch, r.agent_id, 0);
    const bool alloc = r.operation == scratch_memory_operation::alloc;
    counter(r.start_ns, track, alloc ? static_cast<int64_t>(r.allocation_size) : int64_t{0});
  }
}

void perfetto_writer::emit_pmc(const counter_value_record& v, uint64_t start, uint64_t end) {
  const uint64_t track = counter_track(counter_kind::pmc, v.agent_id, v.counter_id);
  counter(start, track, v.value);
  counter(end, track, 0.0);
}

void perfetto_writer::write(record_span<counter_value_record> records) {
  if (!began_) return;
  for (const counter_value_record& v : records) {
    const auto span = dispatch_spans_.find(v.dispatch_id);
    if (span == dispatch_spans_.end()) {
      pending_counter_values_.push_back(v);  // its dispatch has not arrived yet
      continue;
    }
    emit_pmc(v, span->second.start, span->second.end);
  }
}

// A counted dispatch places its values in time when the kernel itself is not traced (no slice:
// the kernel trace draws those).
void perfetto_writer::write(record_span<counter_dispatch_record> records) {
  if (!began_) return;
  for (const counter_dispatch_record& r : records) {
    const auto& d = r.dispatch;
    dispatch_spans_.emplace(d.dispatch_id,
                            dispatch_span{d.start_ns, std::max(d.end_ns, d.start_ns)});
  }
}

void perfetto_writer::write(record_span<device_counter_sample_record> records) {
  if (!began_) return;
  for (const device_counter_sample_record& s : records)
    counter(s.timestamp_ns, counter_track(counter_kind::device_sample, s.agent_id, s.counter_id),
            s.value);
}

}  // namespace rocprof::trace::perfetto_impl
