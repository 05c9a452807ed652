// results.json writer: part files, begin() and finish(). Record arrays are streamed into one
// part file per buffer_records key while batches arrive (json_records.cpp); finish() writes the
// document in rocprofv3's key order, with the head (json_head.cpp) and the part files spliced in.
#include "json/json_writer_impl.hpp"

namespace rocprof::formats::json {

using namespace rocprof::trace;

namespace {

constexpr uint32_t max_operation_id = 1u << 16;  // bigger ids are not tabled (sparse garbage)

// --kernel-host-callstack: each launch stack, its frames innermost first (an extension of
// rocprofv3's document; absent when no stack was recorded).
ojson host_callstacks_json(const trace_definitions& defs) {
  ojson stacks = ojson::array();
  for (const auto& c : defs.host_callstacks) {
    ojson frames = ojson::array();
    for (const auto& f : c.frames)
      frames.push_back({{"address", f.address},
                        {"function", f.function},
                        {"file", f.file},
                        {"line", f.line},
                        {"module", f.module}});
    stacks.push_back({{"id", c.id}, {"frames", std::move(frames)}});
  }
  return stacks;
}

}  // namespace

void json_writer::begin(const trace_definitions& defs) {
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

std::string& json_writer::begin_record(part p) {
  auto& pf = parts_[static_cast<size_t>(p)];
  if (!pf.file.is_open()) pf.file.open(part_path(p));
  auto& out = pf.file.buffer();
  out += pf.count++ ? ",\n" : "\n";
  return out;
}

std::string json_writer::part_path(part p) const {
  return path_ + ".part" + std::to_string(static_cast<size_t>(p));
}

void json_writer::note_operation(size_t domain, uint32_t op, string_id name) {
  if (op >= max_operation_id) return;
  auto& ops = operations_[domain];
  if (ops.size() <= op) ops.resize(op + 1, empty_string);
  if (ops[op] == empty_string) ops[op] = name;
}

// callback_records.counter_collection: one entry per dispatch with counter values, the
// dispatch's own fields from its record (zeros when the record never came).
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
    a.dispatch_info(k).close();
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
      append_json_double(out, values[i].value);
      out += '}';
    }
    out += "],";
    a.handle("stream_id", k.stream_id).close();
  }
  return out;
}

// strings.counters.dimension_ids: every dimension the counters use, once per id.
ojson json_writer::dimension_ids() const {
  std::map<uint64_t, const counter_dimension*> seen;
  for (const auto& c : defs_->counters)
    for (const auto& dim : c.dimensions)
      seen.emplace(dim.id, &dim);
  ojson out = ojson::array();
  for (const auto& [id, dim] : seen)
    out.push_back({{"id", id}, {"instance_size", dim->instance_size}, {"name", dim->name}});
  return out;
}

// Appends a part file's contents to out and removes the part file.
std::string json_writer::splice(output_file& out, part p) {
  auto& pf = parts_[static_cast<size_t>(p)];
  if (!pf.file.is_open()) return {};
  return pf.file.move_contents_to(out);
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
  member("counters", ojson{{"dimension_ids", dimension_ids()}});
  member("pc_sample_instructions", h.instructions);
  member("pc_sample_comments", h.comments);
  member("att_filenames", ojson::array());
  member("code_object_snapshot_filenames", ojson::array(), true);
  out.buffer() += "},\n";
  member("code_objects", h.code_objects);
  member("kernel_symbols", h.symbols);
  if (!defs_->host_callstacks.empty()) member("host_callstacks", host_callstacks_json(*defs_));
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
  if (error.empty())
    keep(out.close());
  else
    out.discard();  // a part that could not be read back would leave the document invalid
  return error;
}

std::unique_ptr<writer> make_json_writer(const output_options& options) {
  return std::make_unique<json_writer>(options);
}

}  // namespace rocprof::formats::json
