// results.json writer: one write() per record kind. Each record is appended as text to its
// buffer_records part file (json_writer.cpp splices the parts in at finish()); API operation
// names and PC-sample strings are noted for the head.
#include <fmt/format.h>

#include <iterator>

#include "json/json_writer_impl.hpp"
#include "rocprof/trace/api_args.hpp"

namespace rocprof::formats::json {

using namespace rocprof::trace;

namespace {

constexpr uint32_t kernel_dispatch_complete = 2;

// "args":[{"type","name","value"}...],"retval":N as rocprofv3 writes them for HIP's records.
void append_args(appender& a, std::string_view text) {
  a.key("args");
  a.out += '[';
  bool first = true;
  for_each_api_arg(text, [&](const api_arg_view& arg) {
    if (!first) a.out += ',';
    first = false;
    a.out += '{';
    a.str("type", arg.type).str("name", arg.name).str("value", arg.value).close();
  });
  a.out += "],";
  a.i("retval", api_args_retval(text));
}

}  // namespace

void json_writer::write(record_span<api_record> records) {
  if (stats_) stats_->add(records);
  for (const auto& r : records) {
    const auto dom = static_cast<size_t>(r.domain);
    note_operation(dom, r.operation_id, r.operation);
    auto& out = begin_record(api_part_[dom]);
    appender a{out};
    out += '{';
    a.u("size", sizeof(api_record))
        .u("kind", dom)
        .u("operation", r.operation_id)
        .corr(r.corr, true)
        .u("start_timestamp", r.start_ns)
        .u("end_timestamp", r.end_ns)
        .i("thread_id", r.tid);
    if (r.domain == api_domain::hip_runtime || r.domain == api_domain::cuda_runtime ||
        r.domain == api_domain::cuda_driver)
      a.handle("stream_id", r.stream_id);
    if (r.args != empty_string) append_args(a, defs_->str(r.args));
    a.close();
    end_record(api_part_[dom]);
    if (r.message != empty_string) {
      auto& m = begin_record(part::marker_strings);
      m += "{\"key\":";
      append_uint(m, r.corr.internal);
      m += ",\"value\":";
      append_json_string(m, defs_->str(r.message));
      m += '}';
      end_record(part::marker_strings);
    }
  }
}

void json_writer::write(record_span<kernel_dispatch_record> records) {
  if (stats_) stats_->add(records);
  for (const auto& r : records) {
    auto& out = begin_record(part::kernel_dispatch);
    appender a{out};
    out += '{';
    a.async_head(sizeof(kernel_dispatch_record), kind_kernel_dispatch, kernel_dispatch_complete,
                 r.tid, r.corr, r.start_ns, r.end_ns);
    a.key("dispatch_info");
    out += '{';
    a.dispatch_info(r).close();
    out += ',';
    // CUDA graph membership and cluster shape (0 when not launched from a graph / no cluster).
    a.handle("stream_id", r.stream_id)
        .u("graph_id", r.graph_id)
        .u("graph_node_id", r.graph_node_id)
        .xyz("cluster_size", r.cluster_size);
    // --kernel-host-callstack: the launch's stack in the host_callstacks table (0: none).
    if (!defs_->launch_callstacks.empty())
      a.u("callstack_id", defs_->callstack_of(r.corr.internal));
    a.close();
    end_record(part::kernel_dispatch);
    if (keep_dispatches_) dispatches_.emplace(r.dispatch_id, r);
  }
}

void json_writer::write(record_span<memory_copy_record> records) {
  if (stats_) stats_->add(records);
  for (const auto& r : records) {
    auto& out = begin_record(part::memory_copy);
    appender a{out};
    out += '{';
    a.async_head(sizeof(memory_copy_record), kind_memory_copy, static_cast<uint64_t>(r.direction),
                 r.tid, r.corr, r.start_ns, r.end_ns)
        .handle("dst_agent_id", r.dst_agent_id)
        .handle("src_agent_id", r.src_agent_id)
        .u("bytes", r.bytes)
        .handle("stream_id", r.stream_id)
        .close();
    end_record(part::memory_copy);
  }
}

void json_writer::write(record_span<memory_set_record> records) {
  if (stats_) stats_->add(records);
  for (const auto& r : records) {
    auto& out = begin_record(part::memory_set);
    appender a{out};
    out += '{';
    a.async_head(sizeof(memory_set_record), kind_memory_set, 0, r.tid, r.corr, r.start_ns, r.end_ns)
        .handle("agent_id", r.agent_id);
    a.hex_address("address", r.address);
    a.u("bytes", r.bytes).u("value", r.value).handle("stream_id", r.stream_id).close();
    end_record(part::memory_set);
  }
}

void json_writer::write(record_span<memory_allocation_record> records) {
  if (stats_) stats_->add(records);
  for (const auto& r : records) {
    auto& out = begin_record(part::memory_allocation);
    appender a{out};
    out += '{';
    a.async_head(sizeof(memory_allocation_record), kind_memory_allocation,
                 static_cast<uint64_t>(r.operation), r.tid, r.corr, r.start_ns, r.end_ns)
        .handle("agent_id", r.agent_id);
    a.hex_address("address", r.address);
    a.u("allocation_size", r.size).handle("stream_id", r.stream_id);
    if (r.memory_kind != empty_string) a.str("memory_kind", defs_->str(r.memory_kind));
    a.close();
    end_record(part::memory_allocation);
  }
}

void json_writer::write(record_span<scratch_memory_record> records) {
  if (stats_) stats_->add(records);
  for (const auto& r : records) {
    auto& out = begin_record(part::scratch_memory);
    appender a{out};
    out += '{';
    a.u("size", sizeof(scratch_memory_record))
        .u("kind", kind_scratch_memory)
        .u("operation", static_cast<uint64_t>(r.operation))
        .handle("agent_id", r.agent_id)
        .handle("queue_id", r.queue_id)
        .i("thread_id", r.tid)
        .u("start_timestamp", r.start_ns)
        .u("end_timestamp", r.end_ns)
        .corr(r.corr, false)
        .u("flags", r.flags)
        .u("allocation_size", r.allocation_size)
        .close();
    end_record(part::scratch_memory);
  }
}

void json_writer::write(record_span<counter_value_record> records) {
  // Kept per dispatch for callback_records.counter_collection (counter runs are small).
  for (const auto& r : records)
    counter_values_[r.dispatch_id].push_back(r);
}

// The counted dispatches' own fields for callback_records.counter_collection (present with or
// without --kernel-trace).
void json_writer::write(record_span<counter_dispatch_record> records) {
  for (const auto& r : records)
    dispatches_.emplace(r.dispatch.dispatch_id, r.dispatch);
}

void json_writer::write(record_span<device_counter_sample_record> records) {
  for (const auto& r : records) {
    auto& out = begin_record(part::device_counter_sample);
    appender a{out};
    out += '{';
    a.u("kind", kind_device_counter_sample)
        .handle("agent_id", r.agent_id)
        .handle("counter_id", r.counter_id)
        .u("timestamp", r.timestamp_ns);
    a.key("value");
    append_json_double(out, r.value);
    out += '}';
    end_record(part::device_counter_sample);
  }
}

// A stochastic sample: AMD's fields where the record has them, then the aggregation's
// extension members (sample_count, not_issued_count, warp_state, agent_id, kernel_id). Fields
// the vendor does not report are left out, not written as 0.
std::pair<size_t, size_t> json_writer::note_pc_strings(const pc_sample_record& r) {
  const string_id instruction = instruction_of(*defs_, r);
  auto [inst, inserted_i] = instruction_index_.emplace(instruction, instruction_index_.size());
  auto [comment, inserted_c] = comment_index_.emplace(r.comment, comment_index_.size());
  if (inserted_i) instruction_order_.push_back(instruction);
  if (inserted_c) comment_order_.push_back(r.comment);
  return {inst->second, comment->second};
}

void json_writer::write_stochastic(const pc_sample_record& r) {
  const auto [inst, comment] = note_pc_strings(r);
  auto& out = begin_record(part::pc_sample_stochastic);
  fmt::format_to(std::back_inserter(out),
                 "{{\"kind\":{},\"pc\":{{\"code_object_id\":{},\"code_object_offset\":{}}},",
                 static_cast<uint32_t>(kind_pc_sample_stochastic), r.code_object_id,
                 r.code_object_offset);
  if (r.has_sample_detail)
    fmt::format_to(std::back_inserter(out), "\"exec_mask\":{},\"timestamp\":{},\"wave_count\":{},",
                   r.exec_mask, r.timestamp_ns, r.wave_count);
  if (r.dispatch_exact)
    fmt::format_to(std::back_inserter(out),
                   "\"dispatch_id\":{},\"correlation_id\":{{\"internal\":{},\"external\":0}},",
                   r.dispatch_id, r.correlation_internal);
  fmt::format_to(std::back_inserter(out),
                 "\"wave_issued\":{},\"stall_reason\":\"{}\",\"inst_index\":{},"
                 "\"comment_index\":{},\"sample_count\":{},\"not_issued_count\":{},"
                 "\"warp_state\":\"{}\",\"agent_id\":{},\"kernel_id\":{}}}",
                 r.wave_issued ? 1 : 0, defs_->str(r.stall_reason), inst, comment, r.sample_count,
                 r.not_issued_count, defs_->str(r.warp_state), r.agent_id, r.kernel_id);
  end_record(part::pc_sample_stochastic);
}

void json_writer::write(record_span<pc_sample_record> records) {
  for (const auto& r : records) {
    if (r.method == pc_sample_method::stochastic) {
      write_stochastic(r);
      continue;
    }
    const auto [inst, comment] = note_pc_strings(r);
    auto& out = begin_record(part::pc_sample_host_trap);
    fmt::format_to(std::back_inserter(out),
                   "{{\"kind\":{},\"pc\":{{\"code_object_id\":{},\"code_object_offset\":{}}},"
                   "\"exec_mask\":{},\"timestamp\":{},\"dispatch_id\":{},"
                   "\"correlation_id\":{{\"internal\":{},\"external\":0}},\"wave_count\":{},"
                   "\"inst_index\":{},\"comment_index\":{}}}",
                   static_cast<uint32_t>(kind_pc_sample_host_trap), r.code_object_id,
                   r.code_object_offset, r.exec_mask, r.timestamp_ns, r.dispatch_id,
                   r.correlation_internal, r.wave_count, inst, comment);
    end_record(part::pc_sample_host_trap);
  }
}

}  // namespace rocprof::formats::json
