// The results.json writer class, shared by its three source files (internal to formats/json):
//   json_writer.cpp   part files, begin() / finish(): the document's skeleton, the part files
//                     spliced in, counter collection;
//   json_head.cpp     the members built from the definitions and what the records taught
//                     (metadata, agents, counters, strings, code objects, symbols, summary);
//   json_records.cpp  one write() per record kind, streamed as text into the part files.
#pragma once

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/json_text.hpp"
#include "common/kernel_names.hpp"
#include "common/number_format.hpp"
#include "common/output_file.hpp"
#include "common/trace_stats.hpp"
#include "json/json_writer.hpp"

namespace rocprof::formats::json {

using ojson = nlohmann::ordered_json;

// buffer_records keys, in rocprofv3's order, then ours. Each has its own part file.
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
inline constexpr std::array<std::string_view, static_cast<size_t>(part::count)> part_keys{
    {"kernel_dispatch", "hip_api", "hsa_api", "marker_api", "rccl_api", "memory_copy",
     "memory_allocation", "scratch_memory", "rocdecode_api", "rocjpeg_api", "pc_sample_host_trap",
     "pc_sample_stochastic", "cuda_api", "memory_set", "device_counter_sample", "marker_api"}};

// Numeric record kinds: one per api_domain (same index), then the activity kinds. Records carry
// the number; strings.buffer_records maps it to the name and operation names.
inline constexpr uint32_t kind_base = static_cast<uint32_t>(trace::api_domain::count);
enum activity_kind : uint32_t {
  kind_kernel_dispatch = kind_base,
  kind_memory_copy,
  kind_memory_set,
  kind_memory_allocation,
  kind_scratch_memory,
  kind_pc_sample_host_trap,
  kind_device_counter_sample,
  kind_pc_sample_stochastic,
  kind_end
};

// Appends `"key":value,` members to a record's text; close() ends the object. Inline: it runs
// for every member of every record.
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
  appender& corr(const trace::correlation& c, bool with_ancestor) {
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
  appender& xyz(std::string_view k, const trace::dim3& d) {
    key(k);
    fmt::format_to(std::back_inserter(out), "{{\"x\":{},\"y\":{},\"z\":{}}},", d.x, d.y, d.z);
    return *this;
  }
  // The fields every asynchronous record (kernel, copy, set, allocation) starts with, in order.
  appender& async_head(uint64_t size, uint64_t kind, uint64_t operation, int64_t tid,
                       const trace::correlation& c, uint64_t start_ns, uint64_t end_ns) {
    return u("size", size)
        .u("kind", kind)
        .u("operation", operation)
        .i("thread_id", tid)
        .corr(c, false)
        .u("start_timestamp", start_ns)
        .u("end_timestamp", end_ns);
  }
  // A kernel dispatch's dispatch_info members (the caller closes the object).
  appender& dispatch_info(const trace::kernel_dispatch_record& r) {
    return u("size", sizeof(trace::kernel_dispatch_record))
        .handle("agent_id", r.agent_id)
        .handle("queue_id", r.queue_id)
        .u("kernel_id", r.kernel_id)
        .u("dispatch_id", r.dispatch_id)
        .u("private_segment_size", r.private_segment_size)
        .u("group_segment_size", r.group_segment_size)
        .xyz("workgroup_size", r.workgroup_size)
        .xyz("grid_size", r.grid_size);
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
    append_json_string(out, v);
    out += ',';
    return *this;
  }
  // Replaces the trailing ',' with the closing brace.
  void close() {
    if (!out.empty() && out.back() == ',') out.pop_back();
    out += '}';
  }
};

class json_writer final : public trace::writer {
 public:
  explicit json_writer(const trace::output_options& options)
      : options_{options}, path_{options.path_for("results", "json")} {}
  using writer::write;

  void begin(const trace::trace_definitions& defs) override;
  void write(trace::record_span<trace::api_record> records) override;
  void write(trace::record_span<trace::kernel_dispatch_record> records) override;
  void write(trace::record_span<trace::memory_copy_record> records) override;
  void write(trace::record_span<trace::memory_set_record> records) override;
  void write(trace::record_span<trace::memory_allocation_record> records) override;
  void write(trace::record_span<trace::scratch_memory_record> records) override;
  void write(trace::record_span<trace::counter_value_record> records) override;
  void write(trace::record_span<trace::counter_dispatch_record> records) override;
  void write(trace::record_span<trace::device_counter_sample_record> records) override;
  void write(trace::record_span<trace::pc_sample_record> records) override;
  void write_stochastic(const trace::pc_sample_record& r);
  // Indices of a PC sample's instruction and comment in pc_sample_instructions/_comments.
  std::pair<size_t, size_t> note_pc_strings(const trace::pc_sample_record& r);
  std::string finish() override;

 private:
  struct part_file {
    output_file file;
    uint64_t count = 0;
  };
  // The members of the document that are built at finish() (json_head.cpp).
  struct head {
    ojson meta, agents, counters, kinds, external, instructions, comments, code_objects, symbols,
        summary;
  };

  std::string& begin_record(part p);
  void end_record(part p) { parts_[static_cast<size_t>(p)].file.maybe_flush(); }
  std::string part_path(part p) const;
  void note_operation(size_t domain, uint32_t op, trace::string_id name);

  head build_head() const;
  ojson buffer_record_kinds() const;
  ojson code_objects_json() const;
  ojson kernel_symbols_json() const;
  ojson summary_json() const;
  std::string counter_collection_text() const;
  ojson dimension_ids() const;
  std::string splice(output_file& out, part p);

  trace::output_options options_;
  std::string path_;
  const trace::trace_definitions* defs_ = nullptr;
  std::optional<kernel_names> kernels_;
  std::optional<trace_stats> stats_;
  std::array<part, static_cast<size_t>(trace::api_domain::count)> api_part_{};
  std::array<part_file, static_cast<size_t>(part::count)> parts_;
  std::array<std::vector<trace::string_id>, static_cast<size_t>(trace::api_domain::count)>
      operations_;
  bool keep_dispatches_ = false;
  std::unordered_map<uint64_t, trace::kernel_dispatch_record> dispatches_;
  std::map<uint64_t, std::vector<trace::counter_value_record>> counter_values_;
  std::unordered_map<trace::string_id, size_t> instruction_index_, comment_index_;
  std::vector<trace::string_id> instruction_order_, comment_order_;
};

}  // namespace rocprof::formats::json
