#include <fmt/format.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <unordered_map>

#include "common/agent_json.hpp"
#include "json/json_text.hpp"
#include "json/json_writer.hpp"
#include "rocprof/formats/agent_names.hpp"
#include "rocprof/formats/kernel_names.hpp"
#include "rocprof/formats/number_format.hpp"
#include "rocprof/formats/output_file.hpp"
#include "rocprof/formats/trace_stats.hpp"

namespace rocprof::formats::json {
namespace {

using namespace rocprof::trace;
using ojson = nlohmann::ordered_json;

// buffer_records keys, in rocprofv3's order, then ours.
enum class part : uint8_t {
  kernel_dispatch,
  hip_api,
  hsa_api,
  marker_api,
  rccl_api,
  memory_copy,
  memory_allocation,
  scratch_memory,
  rocdecode_api,
  rocjpeg_api,
  pc_sample_host_trap,
  pc_sample_stochastic,
  cuda_api,
  memory_set,
  device_counter_sample,
  marker_strings,  // strings.marker_api, not a buffer_records key
  count
};
constexpr std::array<std::string_view, static_cast<size_t>(part::count)> part_keys{
    {"kernel_dispatch", "hip_api", "hsa_api", "marker_api", "rccl_api", "memory_copy",
     "memory_allocation", "scratch_memory", "rocdecode_api", "rocjpeg_api", "pc_sample_host_trap",
     "pc_sample_stochastic", "cuda_api", "memory_set", "device_counter_sample", "marker_api"}};

// Numeric record kinds: one per api_domain (same index), then the activity kinds. Records carry
// the number; strings.buffer_records maps it to the name and operation names.
constexpr uint32_t kind_base = static_cast<uint32_t>(api_domain::count);
enum activity_kind : uint32_t {
  kind_kernel_dispatch = kind_base,
  kind_memory_copy,
  kind_memory_set,
  kind_memory_allocation,
  kind_scratch_memory,
  kind_pc_sample_host_trap,
  kind_device_counter_sample,
  kind_end
};
constexpr uint32_t kernel_dispatch_complete = 2;
constexpr uint32_t max_operation_id = 1u << 16;  // bigger ids are not tabled (sparse garbage)

struct appender {
  std::string& out;
  appender& key(std::string_view k) {
    out += '"';
    out += k;
    out += "\":";
    return *this;
  }
  appender& u(std::string_view k, uint64_t v) {
    key(k);
    append_uint(out, v);
    out += ',';
    return *this;
  }
  appender& i(std::string_view k, int64_t v) {
    key(k);
    append_int(out, v);
    out += ',';
    return *this;
  }
  appender& handle(std::string_view k, uint64_t v) {
    key(k);
    out += "{\"handle\":";
    append_uint(out, v);
    out += "},";
    return *this;
  }
  appender& corr(const correlation& c, bool with_ancestor) {
    key("correlation_id");
    out += "{\"internal\":";
    append_uint(out, c.internal);
    out += ",\"external\":";
    append_uint(out, c.external);
    if (with_ancestor) {
      out += ",\"ancestor\":";
      append_uint(out, c.ancestor);
    }
    out += "},";
    return *this;
  }
  appender& xyz(std::string_view k, const dim3& d) {
    key(k);
    fmt::format_to(std::back_inserter(out), "{{\"x\":{},\"y\":{},\"z\":{}}},", d.x, d.y, d.z);
    return *this;
  }
  // The fields every asynchronous record (kernel, copy, set, allocation) starts with, in order.
  appender& async_head(uint64_t size, uint64_t kind, uint64_t operation, int64_t tid,
                       const correlation& c, uint64_t start_ns, uint64_t end_ns) {
    return u("size", size)
        .u("kind", kind)
        .u("operation", operation)
        .i("thread_id", tid)
        .corr(c, false)
        .u("start_timestamp", start_ns)
        .u("end_timestamp", end_ns);
  }
  appender& hex_address(std::string_view k, uint64_t address) {
    key(k);
    out += '"';
    append_hex_address(out, address);
    out += "\",";
    return *this;
  }
  appender& str(std::string_view k, std::string_view v) {
    key(k);
    append_string(out, v);
    out += ',';
    return *this;
  }
  // Replaces the trailing ',' with the closing brace.
  void close() {
    if (!out.empty() && out.back() == ',') out.pop_back();
    out += '}';
  }
};

ojson stats_json(const duration_stats& s) {
  return ojson{{"count", s.count},     {"sum", s.total},
               {"sqr", s.sum_squares}, {"min", s.count ? s.min : 0},
               {"max", s.max},         {"mean", s.average()},
               {"stddev", s.stddev()}, {"variance", s.variance()}};
}

ojson parse_or_empty(const std::string& text) {
  auto j = ojson::parse(text, nullptr, false);
  return j.is_discarded() ? ojson::object() : j;
}

class json_writer final : public writer {
 public:
  explicit json_writer(const output_options& options)
      : options_{options}, path_{options.path_for("results", "json")} {}
  using writer::write;

  void begin(const trace_definitions& defs) override {
    defs_ = &defs;
    kernels_.emplace(defs, options_);
    if (options_.stats || options_.summary || options_.summary_per_domain ||
        !options_.summary_groups.empty())
      stats_.emplace(defs, options_);
    keep_dispatches_ = !defs.counters.empty();
    // marker_strings shares the "marker_api" key (under "strings"), hence the bound.
    for (const auto& d : domain_table)
      for (size_t p = 0; p < static_cast<size_t>(part::marker_strings); ++p)
        if (part_keys[p] == d.json_key)
          api_part_[static_cast<size_t>(d.domain)] = static_cast<part>(p);
  }

  void write(record_span<api_record> records) override {
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
      a.close();
      end_record(api_part_[dom]);
      if (r.message != empty_string) {
        auto& m = begin_record(part::marker_strings);
        m += "{\"key\":";
        append_uint(m, r.corr.internal);
        m += ",\"value\":";
        append_string(m, defs_->str(r.message));
        m += '}';
        end_record(part::marker_strings);
      }
    }
  }

  void write(record_span<kernel_dispatch_record> records) override {
    if (stats_) stats_->add(records);
    for (const auto& r : records) {
      auto& out = begin_record(part::kernel_dispatch);
      appender a{out};
      out += '{';
      a.async_head(sizeof(kernel_dispatch_record), kind_kernel_dispatch, kernel_dispatch_complete,
                   r.tid, r.corr, r.start_ns, r.end_ns);
      a.key("dispatch_info");
      out += '{';
      append_dispatch_info(a, r);
      a.close();
      out += ',';
      // CUDA graph membership and cluster shape (0 when not launched from a graph / no cluster).
      a.handle("stream_id", r.stream_id)
          .u("graph_id", r.graph_id)
          .u("graph_node_id", r.graph_node_id)
          .xyz("cluster_size", r.cluster_size)
          .close();
      end_record(part::kernel_dispatch);
      if (keep_dispatches_) dispatches_.emplace(r.dispatch_id, r);
    }
  }

  void write(record_span<memory_copy_record> records) override {
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

  void write(record_span<memory_set_record> records) override {
    if (stats_) stats_->add(records);
    for (const auto& r : records) {
      auto& out = begin_record(part::memory_set);
      appender a{out};
      out += '{';
      a.async_head(sizeof(memory_set_record), kind_memory_set, 0, r.tid, r.corr, r.start_ns,
                   r.end_ns)
          .handle("agent_id", r.agent_id);
      a.hex_address("address", r.address);
      a.u("bytes", r.bytes).u("value", r.value).handle("stream_id", r.stream_id).close();
      end_record(part::memory_set);
    }
  }

  void write(record_span<memory_allocation_record> records) override {
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

  void write(record_span<scratch_memory_record> records) override {
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

  void write(record_span<counter_value_record> records) override {
    // Kept per dispatch for callback_records.counter_collection (counter runs are small).
    for (const auto& r : records)
      counter_values_[r.dispatch_id].push_back(r);
  }

  void write(record_span<device_counter_sample_record> records) override {
    for (const auto& r : records) {
      auto& out = begin_record(part::device_counter_sample);
      appender a{out};
      out += '{';
      a.u("kind", kind_device_counter_sample)
          .handle("agent_id", r.agent_id)
          .handle("counter_id", r.counter_id)
          .u("timestamp", r.timestamp_ns);
      a.key("value");
      append_double(out, r.value);
      out += '}';
      end_record(part::device_counter_sample);
    }
  }

  void write(record_span<pc_sample_record> records) override {
    for (const auto& r : records) {
      auto [inst, inserted_i] =
          instruction_index_.emplace(r.instruction, instruction_index_.size());
      auto [comment, inserted_c] = comment_index_.emplace(r.comment, comment_index_.size());
      if (inserted_i) instruction_order_.push_back(r.instruction);
      if (inserted_c) comment_order_.push_back(r.comment);
      auto& out = begin_record(part::pc_sample_host_trap);
      fmt::format_to(std::back_inserter(out),
                     "{{\"kind\":{},\"pc\":{{\"code_object_id\":{},\"code_object_offset\":{}}},"
                     "\"exec_mask\":{},\"timestamp\":{},\"dispatch_id\":{},"
                     "\"correlation_id\":{{\"internal\":{},\"external\":0}},\"wave_count\":{},"
                     "\"inst_index\":{},\"comment_index\":{}}}",
                     static_cast<uint32_t>(kind_pc_sample_host_trap), r.code_object_id,
                     r.code_object_offset, r.exec_mask, r.timestamp_ns, r.dispatch_id,
                     r.correlation_internal, r.wave_count, inst->second, comment->second);
      end_record(part::pc_sample_host_trap);
    }
  }

  std::string finish() override;

 private:
  struct part_file {
    output_file file;
    uint64_t count = 0;
  };

  std::string& begin_record(part p) {
    auto& pf = parts_[static_cast<size_t>(p)];
    if (!pf.file.is_open()) pf.file.open(part_path(p));
    auto& out = pf.file.buffer();
    out += pf.count++ ? ",\n" : "\n";
    return out;
  }
  void end_record(part p) { parts_[static_cast<size_t>(p)].file.maybe_flush(); }
  std::string part_path(part p) const {
    return path_ + ".part" + std::to_string(static_cast<size_t>(p));
  }

  void note_operation(size_t domain, uint32_t op, string_id name) {
    if (op >= max_operation_id) return;
    auto& ops = operations_[domain];
    if (ops.size() <= op) ops.resize(op + 1, empty_string);
    if (ops[op] == empty_string) ops[op] = name;
  }

  void append_dispatch_info(appender& a, const kernel_dispatch_record& r) {
    a.u("size", sizeof(kernel_dispatch_record))
        .handle("agent_id", r.agent_id)
        .handle("queue_id", r.queue_id)
        .u("kernel_id", r.kernel_id)
        .u("dispatch_id", r.dispatch_id)
        .u("private_segment_size", r.private_segment_size)
        .u("group_segment_size", r.group_segment_size)
        .xyz("workgroup_size", r.workgroup_size)
        .xyz("grid_size", r.grid_size);
  }

  struct head;
  head build_head() const;
  std::string counter_collection_text() const;
  std::string splice(output_file& out, part p);

  output_options options_;
  std::string path_;
  const trace_definitions* defs_ = nullptr;
  std::optional<kernel_names> kernels_;
  std::optional<trace_stats> stats_;
  std::array<part, static_cast<size_t>(api_domain::count)> api_part_{};
  std::array<part_file, static_cast<size_t>(part::count)> parts_;
  std::array<std::vector<string_id>, static_cast<size_t>(api_domain::count)> operations_;
  bool keep_dispatches_ = false;
  std::unordered_map<uint64_t, kernel_dispatch_record> dispatches_;
  std::map<uint64_t, std::vector<counter_value_record>> counter_values_;
  std::unordered_map<string_id, size_t> instruction_index_, comment_index_;
  std::vector<string_id> instruction_order_, comment_order_;
};

struct json_writer::head {
  ojson meta, agents, counters, kinds, external, instructions, comments, code_objects, symbols,
      summary;
};

json_writer::head json_writer::build_head() const {
  const auto& d = *defs_;
  ojson meta;
  meta["node"] = {{"id", d.node.id},
                  {"hash", d.node.hash},
                  {"machine_id", d.node.machine_id},
                  {"system_name", d.node.system_name},
                  {"hostname", d.node.hostname},
                  {"release", d.node.release},
                  {"version", d.node.version},
                  {"hardware_name", d.node.hardware_name},
                  {"domain_name", d.node.domain_name}};
  meta["pid"] = d.process.pid;
  meta["init_time"] = d.process.init_ns;
  meta["fini_time"] = d.process.fini_ns;
  meta["command"] = d.process.command;
  meta["config"] = parse_or_empty(d.process.config_json);

  ojson agents = ojson::array();
  for (const auto& a : d.agents)
    agents.push_back(formats::agent_json(a));

  ojson counters = ojson::array();
  for (const auto& c : d.counters)
    counters.push_back({{"agent_id", {{"handle", c.agent_id}}},
                        {"id", {{"handle", c.id}}},
                        {"is_constant", c.is_constant},
                        {"is_derived", c.is_derived},
                        {"name", c.name},
                        {"description", c.description},
                        {"block", c.block},
                        {"expression", c.expression},
                        {"dimensions", ojson::array()},
                        {"instances", ojson::array()}});

  ojson kinds = ojson::array();
  for (size_t k = 0; k < domain_table.size(); ++k) {
    ojson ops = ojson::array();
    for (auto id : operations_[k])
      ops.push_back(d.str(id));
    kinds.push_back({{"kind", domain_table[k].category}, {"operations", ops}});
  }
  auto enum_ops = [](auto first, auto last, auto name_of) {
    ojson ops = ojson::array();
    for (auto v = first; v <= last; ++v)
      ops.push_back(name_of(v));
    return ops;
  };
  kinds.push_back(
      {{"kind", kernel_dispatch_kind},
       {"operations",
        {"KERNEL_DISPATCH_NONE", "KERNEL_DISPATCH_ENQUEUE", "KERNEL_DISPATCH_COMPLETE"}}});
  kinds.push_back({{"kind", memory_copy_kind}, {"operations", enum_ops(0, 4, [](int v) {
                                                  return copy_direction_name(
                                                      static_cast<memory_copy_direction>(v));
                                                })}});
  kinds.push_back({{"kind", memory_set_kind}, {"operations", {"MEMORY_SET"}}});
  kinds.push_back({{"kind", memory_allocation_kind},
                   {"operations", enum_ops(0, 4, [](int v) {
                      return allocation_operation_name(static_cast<memory_allocation_operation>(v));
                    })}});
  kinds.push_back({{"kind", scratch_memory_kind}, {"operations", enum_ops(0, 3, [](int v) {
                                                     return scratch_operation_name(
                                                         static_cast<scratch_memory_operation>(v));
                                                   })}});
  kinds.push_back({{"kind", "PC_SAMPLING_HOST_TRAP"}, {"operations", ojson::array()}});
  kinds.push_back({{"kind", "DEVICE_COUNTER_SAMPLE"}, {"operations", ojson::array()}});

  ojson external = ojson::array();
  if (options_.kernel_rename) {
    std::map<uint64_t, string_id> regions;  // no rename records in the model: from dispatches
    for (const auto& [id, k] : dispatches_)
      if (k.corr.external && k.region_name) regions.emplace(k.corr.external, k.region_name);
    for (const auto& [id, s] : regions)
      external.push_back({{"key", id}, {"value", d.str(s)}});
  }
  ojson instructions = ojson::array(), comments = ojson::array();
  for (auto id : instruction_order_)
    instructions.push_back(d.str(id));
  for (auto id : comment_order_)
    comments.push_back(d.str(id));

  ojson code_objects = ojson::array();
  uint64_t max_co = 0;
  for (const auto& c : d.code_objects)
    max_co = std::max(max_co, c.id);
  std::vector<const code_object_info*> co_by_id(max_co + 1, nullptr);
  for (const auto& c : d.code_objects)
    co_by_id[c.id] = &c;
  for (uint64_t i = 0; i <= max_co; ++i) {
    const auto* c = co_by_id[i];
    if (!c) {
      code_objects.push_back({{"size", 0}, {"code_object_id", i}});
      continue;
    }
    ojson j{{"size", sizeof(code_object_info)},
            {"code_object_id", c->id},
            {"agent_id", {{"handle", c->agent_id}}},
            {"uri", c->uri},
            {"load_base", c->load_base},
            {"load_size", c->load_size},
            {"load_delta", c->load_delta},
            {"storage_type", c->storage_is_file ? 1 : 2}};
    if (c->storage_is_file)
      j["storage_file"] = -1;
    else {
      j["memory_base"] = c->memory_base;
      j["memory_size"] = c->memory_size;
    }
    code_objects.push_back(j);
  }

  ojson symbols = ojson::array();
  uint64_t max_k = 0;
  for (const auto& s : d.kernel_symbols)
    max_k = std::max(max_k, s.kernel_id);
  std::vector<const kernel_symbol_info*> sym_by_id(max_k + 1, nullptr);
  for (const auto& s : d.kernel_symbols)
    sym_by_id[s.kernel_id] = &s;
  for (uint64_t i = 0; i <= max_k; ++i) {
    const auto* s = sym_by_id[i];
    if (!s) {
      symbols.push_back({{"size", 0}, {"kernel_id", i}});
      continue;
    }
    symbols.push_back({{"size", sizeof(kernel_symbol_info)},
                       {"kernel_id", s->kernel_id},
                       {"code_object_id", s->code_object_id},
                       {"kernel_name", s->mangled_name},
                       {"kernel_object", s->kernel_object},
                       {"kernarg_segment_size", s->kernarg_segment_size},
                       {"kernarg_segment_alignment", s->kernarg_segment_alignment},
                       {"group_segment_size", s->group_segment_size},
                       {"private_segment_size", s->private_segment_size},
                       {"sgpr_count", s->sgpr_count},
                       {"arch_vgpr_count", s->arch_vgpr_count},
                       {"accum_vgpr_count", s->accum_vgpr_count},
                       {"kernel_code_entry_byte_offset", 0},
                       {"kernel_address", {{"handle", s->kernel_object}}},
                       {"formatted_kernel_name", symbol_display_name(*s)},
                       {"demangled_kernel_name", s->demangled_name},
                       {"truncated_kernel_name", s->truncated_name}});
  }

  ojson summary = ojson::array();
  if (stats_) {
    for (const auto& total : stats_->domain_totals()) {
      ojson st = stats_json(total.stats);
      ojson ops = ojson::array();
      for (const auto& r : stats_->rows(total.domain))
        ops.push_back({{"key", r.name}, {"value", stats_json(r.stats)}});
      st["operations"] = ops;
      summary.push_back({{"domain", total.name}, {"stats", st}});
    }
  }

  return head{std::move(meta),     std::move(agents),       std::move(counters),
              std::move(kinds),    std::move(external),     std::move(instructions),
              std::move(comments), std::move(code_objects), std::move(symbols),
              std::move(summary)};
}

std::string json_writer::counter_collection_text() const {
  std::string out;
  bool first = true;
  for (const auto& [dispatch_id, values] : counter_values_) {
    auto it = dispatches_.find(dispatch_id);
    kernel_dispatch_record k = it != dispatches_.end() ? it->second : kernel_dispatch_record{};
    k.dispatch_id = dispatch_id;
    out += first ? "\n" : ",\n";
    first = false;
    appender a{out};
    out += '{';
    a.i("thread_id", k.tid);
    a.key("dispatch_data");
    out += '{';
    a.u("size", sizeof(kernel_dispatch_record))
        .corr(k.corr, false)
        .u("start_timestamp", k.start_ns)
        .u("end_timestamp", k.end_ns);
    a.key("dispatch_info");
    out += '{';
    a.u("size", sizeof(kernel_dispatch_record))
        .handle("agent_id", k.agent_id)
        .handle("queue_id", k.queue_id)
        .u("kernel_id", k.kernel_id)
        .u("dispatch_id", k.dispatch_id)
        .u("private_segment_size", k.private_segment_size)
        .u("group_segment_size", k.group_segment_size)
        .xyz("workgroup_size", k.workgroup_size)
        .xyz("grid_size", k.grid_size)
        .close();
    out += ',';
    a.close();
    out += ',';
    a.key("records");
    out += '[';
    for (size_t i = 0; i < values.size(); ++i) {
      if (i) out += ',';
      out += "{\"counter_id\":{\"handle\":";
      append_uint(out, values[i].counter_id);
      out += "},\"value\":";
      append_double(out, values[i].value);
      out += '}';
    }
    out += "],";
    a.handle("stream_id", k.stream_id).close();
  }
  return out;
}

// Appends a part file's contents to out and removes the part file.
std::string json_writer::splice(output_file& out, part p) {
  auto& pf = parts_[static_cast<size_t>(p)];
  if (!pf.file.is_open()) return {};
  auto error = pf.file.close();
  const auto path = part_path(p);
  if (std::FILE* in = std::fopen(path.c_str(), "rb")) {
    std::string chunk(1 << 20, '\0');
    size_t n = 0;
    while ((n = std::fread(chunk.data(), 1, chunk.size(), in)) > 0) {
      out.flush();
      out.write(std::string_view{chunk.data(), n});
    }
    std::fclose(in);
  } else if (error.empty()) {
    error = "cannot reopen " + path;
  }
  std::error_code ec;
  std::filesystem::remove(path, ec);
  return error;
}

std::string json_writer::finish() {
  if (!defs_) return "json writer finished before begin()";
  const auto h = build_head();
  output_file out{path_};
  std::string error;
  auto keep = [&error](std::string e) {
    if (error.empty()) error = std::move(e);
  };
  auto member = [&out](std::string_view key, const ojson& value, bool last = false) {
    auto& b = out.buffer();
    b += '"';
    b += key;
    b += "\": ";
    b += value.dump();
    b += last ? "\n" : ",\n";
  };
  out.buffer() += "{\n\"rocprofiler-sdk-tool\": [\n{\n";
  member("metadata", h.meta);
  member("agents", h.agents);
  member("counters", h.counters);
  out.buffer() += "\"strings\": {\n";
  member("callback_records",
         ojson::array({ojson{{"kind", counter_collection_kind}, {"operations", ojson::array()}}}));
  member("buffer_records", h.kinds);
  out.buffer() += "\"marker_api\": [";
  keep(splice(out, part::marker_strings));
  out.buffer() += "\n],\n";
  member("correlation_id", ojson{{"external", h.external}});
  member("counters", ojson{{"dimension_ids", ojson::array()}});
  member("pc_sample_instructions", h.instructions);
  member("pc_sample_comments", h.comments);
  member("att_filenames", ojson::array());
  member("code_object_snapshot_filenames", ojson::array(), true);
  out.buffer() += "},\n";
  member("code_objects", h.code_objects);
  member("kernel_symbols", h.symbols);
  member("host_functions", ojson::array());
  member("summary", h.summary);
  out.buffer() += "\"callback_records\": {\n\"counter_collection\": [";
  out.write(counter_collection_text());
  out.buffer() += "\n]\n},\n\"buffer_records\": {\n";
  for (size_t p = 0; p < static_cast<size_t>(part::marker_strings); ++p) {
    if (p) out.buffer() += ",\n";
    out.buffer() += '"';
    out.buffer() += part_keys[p];
    out.buffer() += "\": [";
    keep(splice(out, static_cast<part>(p)));
    out.buffer() += "\n]";
  }
  out.buffer() += "\n}\n}\n]\n}\n";
  keep(out.close());
  return error;
}

}  // namespace

std::unique_ptr<writer> make_json_writer(const output_options& options) {
  return std::make_unique<json_writer>(options);
}

}  // namespace rocprof::formats::json
