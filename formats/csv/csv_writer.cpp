#include "csv/csv_writer.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <unordered_map>

#include "common/agent_names.hpp"
#include "common/kernel_names.hpp"
#include "common/number_format.hpp"
#include "common/output_file.hpp"
#include "common/trace_stats.hpp"
#include "csv/csv_headers.hpp"
#include "csv/csv_stats.hpp"

namespace rocprof::formats::csv {
namespace {

using namespace rocprof::trace;

constexpr uint32_t lds_block_size = 128 * 4;

uint32_t round_lds(uint32_t bytes) {
  return (bytes + lds_block_size - 1) / lds_block_size * lds_block_size;
}

// Row-building helpers: fields are separated by ',' and rows end with '\n'.
struct row {
  std::string& out;
  bool first = true;
  void sep() {
    if (!first) out += ',';
    first = false;
  }
  row& u(uint64_t v) {
    sep();
    append_uint(out, v);
    return *this;
  }
  row& i(int64_t v) {
    sep();
    append_int(out, v);
    return *this;
  }
  row& s(std::string_view v) {
    sep();
    append_quoted(out, v);
    return *this;
  }
  // A column with no value (a field the record does not have; never a made-up 0).
  row& none() {
    sep();
    return *this;
  }
  row& u_if(bool present, uint64_t v) { return present ? u(v) : none(); }
  row& d(double v) {
    sep();
    append_trace_double(out, v);
    return *this;
  }
  void end() { out += '\n'; }
};

class csv_writer final : public writer {
 public:
  explicit csv_writer(const output_options& options) : options_{options} {}
  using writer::write;  // the kinds not overridden keep the base no-op

  void begin(const trace_definitions& defs) override {
    defs_ = &defs;
    agents_.emplace(defs, options_.agent_index);
    kernels_.emplace(defs, options_);
    if (options_.stats) stats_.emplace(defs, options_);
    keep_dispatches_ = !defs.counters.empty();
    if (options_.stats && keep_dispatches_) counter_stats_.emplace(defs, options_);
    for (const auto& c : defs.counters)
      counter_names_.emplace(c.id, &c.name);
    for (size_t d = 0; d < domain_table.size(); ++d) {
      // Domains sharing a stem share a file (the HSA and HIP categories, CUDA runtime + driver).
      size_t first = d;
      for (size_t e = 0; e < d; ++e)
        if (domain_table[e].csv_stem == domain_table[d].csv_stem) {
          first = e;
          break;
        }
      api_file_of_[d] = first;
    }
  }

  void write(record_span<api_record> records) override {
    if (records.empty()) return;
    if (stats_) stats_->add(records);
    for (const auto& r : records) {
      auto& f = file(api_files_[api_file_of_[static_cast<size_t>(r.domain)]],
                     info(r.domain).csv_stem, api_trace_header);
      row{f.buffer()}
          .s(info(r.domain).category)
          .s(api_display_name(*defs_, r))
          .i(r.pid)
          .i(r.tid)
          .u(r.corr.internal)
          .u(r.start_ns)
          .u(r.end_ns)
          .end();
      f.maybe_flush();
    }
  }

  void write(record_span<kernel_dispatch_record> records) override {
    if (records.empty()) return;
    if (stats_) stats_->add(records);
    if (counter_stats_) counter_stats_->add(records);
    auto& f = file(kernel_file_, "kernel_trace", kernel_trace_header);
    for (const auto& r : records) {
      const auto* sym = kernels_->find(r.kernel_id);
      const auto registers = registers_of(r, sym);
      row{f.buffer()}
          .s(kernel_dispatch_kind)
          .s(agents_->label(r.agent_id))
          .u(r.queue_id)
          .u(options_.group_by_queue ? 0 : r.stream_id)
          .i(r.tid)
          .u(r.dispatch_id)
          .u(r.kernel_id)
          .s(kernels_->name(r))
          .u(r.corr.internal)
          .u(r.start_ns)
          .u(r.end_ns)
          .u(round_lds(sym ? sym->group_segment_size : r.group_segment_size))
          .u(r.private_segment_size)
          .u(registers.arch_vgpr)
          .u(registers.accum_vgpr)
          .u(registers.sgpr)
          .u(r.workgroup_size.x)
          .u(r.workgroup_size.y)
          .u(r.workgroup_size.z)
          .u(r.grid_size.x)
          .u(r.grid_size.y)
          .u(r.grid_size.z)
          .end();
      f.maybe_flush();
      if (keep_dispatches_) dispatches_.emplace(r.dispatch_id, r);
      if (!defs_->launch_callstacks.empty()) write_callstack(r);
    }
  }

  // --kernel-host-callstack: the dispatch's launch stack, one row per frame.
  void write_callstack(const kernel_dispatch_record& r) {
    const auto* stack = defs_->host_callstack(defs_->callstack_of(r.corr.internal));
    if (stack == nullptr) return;
    auto& f = file(callstack_file_, "kernel_host_callstacks", kernel_host_callstacks_header);
    const std::string_view kernel = kernels_->name(r);
    for (size_t depth = 0; depth < stack->frames.size(); ++depth) {
      const host_frame& frame = stack->frames[depth];
      row{f.buffer()}
          .u(r.dispatch_id)
          .u(r.corr.internal)
          .s(kernel)
          .u(depth)
          .s(frame.function)
          .s(frame.file)
          .u_if(frame.line != 0, frame.line)
          .s(frame.module)
          .end();
    }
    f.maybe_flush();
  }

  void write(record_span<memory_copy_record> records) override {
    if (records.empty()) return;
    if (stats_) stats_->add(records);
    auto& f = file(copy_file_, "memory_copy_trace", memory_copy_trace_header);
    for (const auto& r : records) {
      row{f.buffer()}
          .s(memory_copy_kind)
          .s(copy_direction_name(r.direction))
          .u(options_.group_by_queue ? 0 : r.stream_id)
          .s(agents_->label(r.src_agent_id))
          .s(agents_->label(r.dst_agent_id))
          .u(r.corr.internal)
          .u(r.start_ns)
          .u(r.end_ns)
          .end();
      f.maybe_flush();
    }
  }

  void write(record_span<memory_set_record> records) override {
    if (records.empty()) return;
    if (stats_) stats_->add(records);
    auto& f = file(set_file_, "memory_set_trace", memory_set_trace_header);
    for (const auto& r : records) {
      row x{f.buffer()};
      x.s(memory_set_kind).s(agents_->label(r.agent_id)).u(r.queue_id).u(r.stream_id).i(r.tid);
      x.sep();
      f.buffer() += '"';
      append_hex_address(f.buffer(), r.address);
      f.buffer() += '"';
      x.u(r.bytes).u(r.value).u(r.corr.internal).u(r.start_ns).u(r.end_ns).end();
      f.maybe_flush();
    }
  }

  void write(record_span<memory_allocation_record> records) override {
    if (records.empty()) return;
    if (stats_) stats_->add(records);
    auto& f = file(alloc_file_, "memory_allocation_trace", memory_allocation_trace_header);
    for (const auto& r : records) {
      const bool is_free = r.operation == memory_allocation_operation::free ||
                           r.operation == memory_allocation_operation::vmem_free;
      row x{f.buffer()};
      x.s(memory_allocation_kind)
          .s(allocation_operation_name(r.operation))
          .s(is_free ? std::string_view{} : agents_->label(r.agent_id))
          .u(is_free ? 0 : r.size);
      x.sep();
      f.buffer() += '"';
      append_hex_address(f.buffer(), r.address);
      f.buffer() += '"';
      x.u(r.corr.internal).u(r.start_ns).u(r.end_ns).end();
      f.maybe_flush();
    }
  }

  void write(record_span<scratch_memory_record> records) override {
    if (records.empty()) return;
    if (stats_) stats_->add(records);
    auto& f = file(scratch_file_, "scratch_memory_trace", scratch_memory_trace_header);
    for (const auto& r : records) {
      row{f.buffer()}
          .s(scratch_memory_kind)
          .s(scratch_operation_name(r.operation))
          .s(agents_->label(r.agent_id))
          .u(r.queue_id)
          .i(r.tid)
          .u(r.flags)
          .u(r.start_ns)
          .u(r.end_ns)
          .u(r.allocation_size)
          .end();
      f.maybe_flush();
    }
  }

  void write(record_span<counter_value_record> records) override {
    // Summed over instances per (dispatch, counter) and written at finish(), joined with the
    // dispatch; counter runs have few dispatches, so this stays small.
    for (const auto& r : records)
      counter_sums_[{r.dispatch_id, r.counter_id}] += r.value;
    if (counter_stats_) counter_stats_->add(records);
  }

  // The counted dispatches' own fields (present with or without --kernel-trace).
  void write(record_span<counter_dispatch_record> records) override {
    for (const auto& r : records)
      dispatches_.emplace(r.dispatch.dispatch_id, r.dispatch);
    if (counter_stats_) counter_stats_->add(records);
  }

  // Device counter samples (--spm): PREFIX_device_counter_collection.csv, one row per counter
  // value of a sample, timestamp = the sample's start (rocprofv3 writes no such file).
  void write(record_span<device_counter_sample_record> records) override {
    if (records.empty()) return;
    auto& f =
        file(device_sample_file_, "device_counter_collection", device_counter_collection_header);
    for (const auto& r : records) {
      const auto cn = counter_names_.find(r.counter_id);
      row{f.buffer()}
          .s(agents_->label(r.agent_id))
          .u(r.counter_id)
          .s(cn != counter_names_.end() ? std::string_view{*cn->second} : std::string_view{})
          .u(r.timestamp_ns)
          .d(r.value)
          .end();
      f.maybe_flush();
    }
  }

  void write(record_span<pc_sample_record> records) override {
    for (const auto& r : records) {
      if (r.method == pc_sample_method::stochastic) {
        write_stochastic(r);
        continue;
      }
      auto& f = file(pc_file_, "pc_sampling_host_trap", pc_sampling_host_trap_header);
      row{f.buffer()}
          .u(r.timestamp_ns)
          .u(r.exec_mask)
          .u(r.dispatch_id)
          .s(defs_->str(instruction_of(*defs_, r)))
          .s(defs_->str(r.comment))
          .u(r.correlation_internal)
          .end();
      f.maybe_flush();
    }
  }

  // rocprofv3's ten columns, then the extension columns (docs/user-guide.md, "PC sampling").
  // Aggregated (NVIDIA) rows leave Sample_Timestamp, Exec_Mask and Wave_Count empty, and
  // Dispatch_Id / Correlation_Id when only the kernel is known.
  void write_stochastic(const pc_sample_record& r) {
    auto& f = file(pc_stochastic_file_, "pc_sampling_stochastic", pc_sampling_stochastic_header);
    row{f.buffer()}
        .u_if(r.has_sample_detail, r.timestamp_ns)
        .u_if(r.has_sample_detail, r.exec_mask)
        .u_if(r.dispatch_exact, r.dispatch_id)
        .s(defs_->str(instruction_of(*defs_, r)))
        .s(defs_->str(r.comment))
        .u_if(r.dispatch_exact, r.correlation_internal)
        .u(r.wave_issued ? 1 : 0)
        .s(defs_->str(r.instruction_type))
        .s(defs_->str(r.stall_reason))
        .u_if(r.has_sample_detail, r.wave_count)
        .u(r.sample_count)
        .u(r.not_issued_count)
        .s(defs_->str(r.warp_state))
        .u(r.agent_id)
        .u(r.kernel_id)
        .s(r.kernel_id != 0 ? kernels_->name(r.kernel_id, 0) : std::string_view())
        .u(r.code_object_id)
        .u(r.code_object_offset)
        .end();
    f.maybe_flush();
  }

  std::string finish() override {
    if (!counter_sums_.empty()) write_counter_collection();
    const bool any_rows = std::any_of(files_.begin(), files_.end(),
                                      [](const output_file* f) { return f->is_open(); });
    if (any_rows) write_agent_info();
    std::string error;
    for (auto* f : files_) {
      auto e = f->close();
      if (error.empty()) error = e;
    }
    for (auto e : {stats_ && !stats_->empty() ? write_stats_files(*stats_, options_) : "",
                   write_dropped_records(defs_->dropped_records, options_)})
      if (error.empty()) error = e;
    if (counter_stats_ && !counter_stats_->empty()) {
      auto e = write_counter_stats_file(*counter_stats_, options_);
      if (error.empty()) error = e;
    }
    return error;
  }

 private:
  output_file& file(output_file& f, std::string_view stem, std::string_view header) {
    if (!f.is_open()) {
      f.open(options_.path_for(std::string{stem}, "csv"));
      f.write(header);
      files_.push_back(&f);
    }
    return f;
  }

  void write_counter_collection() {
    auto& f = file(counter_file_, "counter_collection", counter_collection_header);
    for (const auto& [key, value] : counter_sums_) {
      auto it = dispatches_.find(key.first);
      const kernel_dispatch_record k =
          it != dispatches_.end() ? it->second : kernel_dispatch_record{};
      const auto* sym = kernels_->find(k.kernel_id);
      const auto registers = registers_of(k, sym);
      auto cn = counter_names_.find(key.second);
      row{f.buffer()}
          .u(k.corr.internal)
          .u(key.first)
          .s(agents_->label(k.agent_id))
          .u(k.queue_id)
          .i(defs_->process.pid)
          .i(k.tid)
          .u(uint64_t{k.grid_size.x} * k.grid_size.y * k.grid_size.z)
          .u(k.kernel_id)
          .s(kernels_->name(k))
          .u(uint64_t{k.workgroup_size.x} * k.workgroup_size.y * k.workgroup_size.z)
          .u(round_lds(sym ? sym->group_segment_size : k.group_segment_size))
          .u(k.private_segment_size)
          .u(registers.arch_vgpr)
          .u(registers.accum_vgpr)
          .u(registers.sgpr)
          .s(cn != counter_names_.end() ? std::string_view{*cn->second} : std::string_view{})
          .d(value)
          .u(k.start_ns)
          .u(k.end_ns)
          .end();
      f.maybe_flush();
    }
  }

  void write_agent_info() {
    std::vector<const agent_info*> agents;
    for (const auto& a : defs_->agents)
      agents.push_back(&a);
    std::stable_sort(agents.begin(), agents.end(), [](const agent_info* a, const agent_info* b) {
      return a->node_id < b->node_id;
    });
    auto& f = file(agent_file_, "agent_info", agent_info_header);
    for (const auto* a : agents) {
      row{f.buffer()}
          .u(a->node_id)
          .u(a->logical_node_id)
          .s(agent_type_name(a->type))
          .u(a->cpu_cores_count)
          .u(a->simd_count)
          .u(a->cpu_core_id_base)
          .u(a->simd_id_base)
          .u(a->max_waves_per_simd)
          .u(a->lds_size_in_kb)
          .u(a->gds_size_in_kb)
          .u(a->num_gws)
          .u(a->wave_front_size)
          .u(a->num_xcc)
          .u(a->cu_count)
          .u(a->array_count)
          .u(a->num_shader_banks)
          .u(a->simd_arrays_per_engine)
          .u(a->cu_per_simd_array)
          .u(a->simd_per_cu)
          .u(a->max_slots_scratch_cu)
          .u(a->gfx_target_version)
          .u(a->vendor_id)
          .u(a->device_id)
          .u(a->location_id)
          .u(a->domain)
          .u(a->drm_render_minor)
          .u(a->num_sdma_engines)
          .u(a->num_sdma_xgmi_engines)
          .u(a->num_sdma_queues_per_engine)
          .u(a->num_cp_queues)
          .u(a->max_engine_clk_ccompute)
          .u(a->max_engine_clk_fcompute)
          .u(a->sdma_fw_version)
          .u(a->fw_version)
          .u(a->capability)
          .u(a->cu_per_engine)
          .u(a->max_waves_per_cu)
          .u(a->family_id)
          .u(a->workgroup_max_size)
          .u(a->grid_max_size)
          .u(a->local_mem_size)
          .u(a->hive_id)
          .u(a->gpu_id)
          .u(a->workgroup_max_dim[0])
          .u(a->workgroup_max_dim[1])
          .u(a->workgroup_max_dim[2])
          .u(a->grid_max_dim[0])
          .u(a->grid_max_dim[1])
          .u(a->grid_max_dim[2])
          .s(a->name)
          .s(a->vendor_name)
          .s(a->product_name)
          .s(a->model_name)
          .end();
    }
  }

  output_options options_;
  const trace_definitions* defs_ = nullptr;
  std::optional<agent_names> agents_;
  std::optional<kernel_names> kernels_;
  std::optional<trace_stats> stats_;
  std::optional<counter_stats> counter_stats_;

  std::array<output_file, domain_table.size()> api_files_;
  std::array<size_t, domain_table.size()> api_file_of_{};
  output_file kernel_file_, copy_file_, set_file_, alloc_file_, scratch_file_, counter_file_,
      pc_file_, pc_stochastic_file_, agent_file_, device_sample_file_, callstack_file_;
  std::vector<output_file*> files_;  // opened files, in order of first row

  bool keep_dispatches_ = false;
  std::unordered_map<uint64_t, kernel_dispatch_record> dispatches_;
  std::map<std::pair<uint64_t, uint64_t>, double> counter_sums_;
  std::unordered_map<uint64_t, const std::string*> counter_names_;
};

}  // namespace

std::unique_ptr<writer> make_csv_writer(const output_options& options) {
  return std::make_unique<csv_writer>(options);
}

}  // namespace rocprof::formats::csv
