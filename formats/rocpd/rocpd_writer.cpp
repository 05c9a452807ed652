#include "rocpd/rocpd_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "common/agent_json.hpp"
#include "json/json_text.hpp"
#include "rocpd/rocpd_schema.hpp"
#include "rocpd/sqlite_db.hpp"
#include "rocprof/formats/agent_names.hpp"
#include "rocprof/formats/kernel_names.hpp"
#include "rocprof/formats/number_format.hpp"
#include "rocprof/formats/output_file.hpp"

namespace rocprof::formats::rocpd {
namespace {

using namespace rocprof::trace;
using ojson = nlohmann::ordered_json;

// Rows per transaction: large enough to amortise the commit, small enough that an aborted run
// keeps most of its data.
constexpr uint64_t rows_per_transaction = 1'000'000;

std::vector<std::string> agent_columns() {
  return {"id",         "nid",    "pid",  "type",       "absolute_index", "logical_index",
          "type_index", "uuid",   "name", "model_name", "vendor_name",    "product_name",
          "user_name",  "extdata"};
}

class rocpd_writer final : public writer {
 public:
  explicit rocpd_writer(const output_options& options)
      : options_{options}, path_{options.path_for("results", "db")} {}
  using writer::write;

  void begin(const trace_definitions& defs) override;
  void write(record_span<api_record> records) override;
  void write(record_span<kernel_dispatch_record> records) override;
  void write(record_span<memory_copy_record> records) override;
  void write(record_span<memory_set_record> records) override;
  void write(record_span<memory_allocation_record> records) override;
  void write(record_span<scratch_memory_record> records) override;
  void write(record_span<counter_value_record> records) override {
    pending_counters_.insert(pending_counters_.end(), records.begin(), records.end());
  }
  // Not stored, as in rocprofv3 7.0 (formats/rocpd/README.md).
  void write(record_span<device_counter_sample_record> r) override { ignore_records(r); }
  void write(record_span<pc_sample_record> r) override { ignore_records(r); }
  std::string finish() override;

 private:
  // --- strings: every string the database will hold is known at begin(); sorted, numbered 1..
  void collect_strings();
  int64_t sid(std::string_view s) const {
    auto it = std::lower_bound(sorted_strings_.begin(), sorted_strings_.end(), s);
    return static_cast<int64_t>(it - sorted_strings_.begin()) + 1;
  }
  int64_t sid(string_id id) const {
    return id < string_remap_.size() ? string_remap_[id] : empty_id_;
  }

  // rocpd_info_agent.id of an agent handle. A handle the definitions lack (other than 0, "no
  // agent") gets a fresh row, written at finish(), so the views' agent joins keep the record.
  int64_t agent_row(uint64_t handle) {
    auto it = agent_node_.find(handle);
    if (it != agent_node_.end()) return it->second;
    if (handle == 0) return 0;
    const int64_t row = next_agent_row_++;
    agent_node_.emplace(handle, row);
    late_agents_.emplace_back(handle, row);
    return row;
  }
  void assign_agent_rows();
  void write_agent(bulk_insert& rows, const agent_info& a, int64_t row);
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

  int64_t add_event(int64_t category, uint64_t stack, uint64_t parent, uint64_t corr_external,
                    std::string_view extdata = "{}");
  int64_t track_for(int64_t pid, int64_t tid, int64_t name_id);
  void count_rows(uint64_t n);
  void write_definitions();
  void write_late_definitions();

  output_options options_;
  std::string path_;
  const trace_definitions* defs_ = nullptr;
  std::optional<kernel_names> kernels_;
  database db_;
  std::string uuid_, guid_;
  int64_t nid_ = 0, pid_ = 0;

  std::vector<std::string_view> sorted_strings_;
  std::vector<std::string> owned_strings_;  // names not in defs (categories, op names, ...)
  std::vector<int64_t> string_remap_;       // defs string_id -> rocpd string id
  int64_t empty_id_ = 1;
  std::array<int64_t, domain_table.size()> category_ids_{};
  int64_t kernel_category_ = 0, copy_category_ = 0, set_category_ = 0, alloc_category_ = 0,
          scratch_category_ = 0, counter_category_ = 0;
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

  std::optional<bulk_insert> events_, events_ext_, regions_, samples_, tracks_insert_,
      kernels_insert_, copies_, sets_, allocations_, scratch_, pmc_events_;
  int64_t next_event_ = 0, next_copy_ = 0, next_pmc_event_ = 0;
  // Ids for regions / samples without a correlation id, far above any correlation id (every
  // row needs an explicit id for the conflict repair in bulk_insert).
  uint64_t uncorrelated_id_ = uint64_t{1} << 62;
  uint64_t rows_in_transaction_ = 0;
  bool keep_dispatch_events_ = false;
  std::unordered_map<uint64_t, int64_t> dispatch_events_;
  std::vector<counter_value_record> pending_counters_;
  std::string scratch_text_;
  std::string_view kernel_extdata(const kernel_dispatch_record& r);
};

void rocpd_writer::collect_strings() {
  const auto& d = *defs_;
  std::vector<std::string_view> all;
  all.reserve(d.strings.size() + 64);
  all.emplace_back("");
  for (const auto& s : d.strings)
    all.emplace_back(s);
  auto own = [this, &all](std::string_view s) { all.push_back(s); };
  for (const auto& row : domain_table)
    own(row.category);
  for (auto s : {kernel_dispatch_kind, memory_copy_kind, memory_set_kind, memory_allocation_kind,
                 scratch_memory_kind, counter_collection_kind})
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
  for (int v = 0; v <= 5; ++v)
    direction_ids_[static_cast<size_t>(v)] =
        sid(copy_direction_name(static_cast<memory_copy_direction>(v)));
  memory_set_name_ = set_category_;
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
  assign_agent_rows();
  keep_dispatch_events_ = !defs.counters.empty();
  collect_strings();

  if (auto e = create_parent_directories(path_); !e.empty()) {
    db_.check(SQLITE_CANTOPEN, e.c_str(), __FILE__, __LINE__);
    return;
  }
  std::error_code ec;
  std::filesystem::remove(path_, ec);  // any existing file is replaced
  if (!db_.open(path_)) return;
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

  const std::string u = "_" + uuid_;
  // Most events keep the column default extdata "{}"; only those with data bind it.
  events_.emplace(db_, "rocpd_event" + u,
                  std::vector<std::string>{"id", "category_id", "stack_id", "parent_stack_id",
                                           "correlation_id"});
  events_ext_.emplace(db_, "rocpd_event" + u,
                      std::vector<std::string>{"id", "category_id", "stack_id", "parent_stack_id",
                                               "correlation_id", "extdata"});
  regions_.emplace(
      db_, "rocpd_region" + u,
      std::vector<std::string>{"id", "nid", "pid", "tid", "start", "end", "name_id", "event_id"});
  samples_.emplace(db_, "rocpd_sample" + u,
                   std::vector<std::string>{"id", "track_id", "timestamp", "event_id"});
  regions_->renumber_on_conflict("event_id");
  samples_->renumber_on_conflict("event_id");
  tracks_insert_.emplace(db_, "rocpd_track" + u,
                         std::vector<std::string>{"id", "nid", "pid", "tid", "name_id"}, 1);
  kernels_insert_.emplace(db_, "rocpd_kernel_dispatch" + u,
                          std::vector<std::string>{"id",
                                                   "nid",
                                                   "pid",
                                                   "tid",
                                                   "agent_id",
                                                   "kernel_id",
                                                   "dispatch_id",
                                                   "queue_id",
                                                   "stream_id",
                                                   "start",
                                                   "end",
                                                   "private_segment_size",
                                                   "group_segment_size",
                                                   "workgroup_size_x",
                                                   "workgroup_size_y",
                                                   "workgroup_size_z",
                                                   "grid_size_x",
                                                   "grid_size_y",
                                                   "grid_size_z",
                                                   "region_name_id",
                                                   "event_id",
                                                   "extdata"},
                          32);
  copies_.emplace(
      db_, "rocpd_memory_copy" + u,
      std::vector<std::string>{"id", "nid", "pid", "tid", "start", "end", "name_id", "dst_agent_id",
                               "dst_address", "src_agent_id", "src_address", "size", "queue_id",
                               "stream_id", "region_name_id", "event_id"},
      32);
  sets_.emplace(db_, "rocpd_memory_copy" + u,
                std::vector<std::string>{"id", "nid", "pid", "tid", "start", "end", "name_id",
                                         "dst_agent_id", "dst_address", "size", "stream_id",
                                         "region_name_id", "event_id", "extdata"},
                32);
  allocations_.emplace(
      db_, "rocpd_memory_allocate" + u,
      std::vector<std::string>{"nid", "pid", "tid", "agent_id", "type", "level", "start", "end",
                               "address", "size", "queue_id", "stream_id", "event_id", "extdata"},
      32);
  scratch_.emplace(
      db_, "rocpd_memory_allocate" + u,
      std::vector<std::string>{"nid", "pid", "tid", "agent_id", "type", "level", "start", "end",
                               "address", "size", "queue_id", "event_id", "extdata"},
      32);
  pmc_events_.emplace(db_, "rocpd_pmc_event" + u,
                      std::vector<std::string>{"id", "event_id", "pmc_id", "value"});
}

// Row id = node_id, rocprofv3's natural id, which AMD's tool also uses as the agent's absolute
// index (agents are keyed by it). A backend may leave node ids unset or repeat them (the CUDA
// backend's GPUs had node_id 0, the CPU's): such an agent takes the next free id instead of
// losing its row, and that id is its node_id / absolute_index in the database.
void rocpd_writer::assign_agent_rows() {
  const auto& agents = defs_->agents;
  for (const auto& a : agents)
    next_agent_row_ = std::max(next_agent_row_, static_cast<int64_t>(a.node_id) + 1);
  std::set<int64_t> taken;
  agent_rows_.assign(agents.size(), -1);
  for (size_t i = 0; i < agents.size(); ++i) {
    if (agent_node_.count(agents[i].id) != 0) continue;  // the same agent listed twice
    int64_t row = agents[i].node_id;
    if (!taken.insert(row).second) taken.insert(row = next_agent_row_++);
    agent_rows_[i] = row;
    agent_node_.emplace(agents[i].id, row);
  }
}

void rocpd_writer::write_agent(bulk_insert& rows, const agent_info& agent, int64_t row) {
  agent_info a = agent;
  a.node_id = static_cast<uint32_t>(row);
  rows.i64(row);
  rows.i64(nid_);
  rows.i64(pid_);
  if (a.type == agent_type::unknown)
    rows.null();
  else
    rows.text(agent_type_name(a.type));
  rows.i64(row);
  rows.i64(a.logical_node_id);
  rows.i64(a.logical_node_type_id);
  rows.i64(a.device_id);  // rocprofv3 stores device_id in "uuid" (sic)
  rows.text(a.name);
  rows.text(a.model_name);
  rows.text(a.vendor_name);
  rows.text(a.product_name);
  rows.text(a.product_name);
  rows.text(formats::agent_json(a).dump());
  rows.end_row();
}

void rocpd_writer::write_definitions() {
  const auto& d = *defs_;
  const std::string u = "_" + uuid_;
  {
    bulk_insert meta{db_, "rocpd_metadata" + u, {"tag", "value"}, 1};
    for (auto [tag, value] :
         {std::pair<std::string, std::string>{"schema_version", std::to_string(schema_version)},
          {"uuid", "_" + uuid_},
          {"guid", guid_}}) {
      meta.text(tag);
      meta.text(value);
      meta.end_row();
    }
  }
  {
    bulk_insert strings{db_, "rocpd_string" + u, {"id", "string"}, 128};
    for (size_t i = 0; i < sorted_strings_.size(); ++i) {
      strings.i64(static_cast<int64_t>(i + 1));
      strings.text(sorted_strings_[i]);
      strings.end_row();
    }
    strings.flush();
  }
  {
    bulk_insert node{db_,
                     "rocpd_info_node" + u,
                     {"id", "hash", "machine_id", "system_name", "hostname", "release", "version",
                      "hardware_name", "domain_name"},
                     1};
    node.i64(nid_);
    node.u64(d.node.hash);
    for (const auto* s :
         {&d.node.machine_id, &d.node.system_name, &d.node.hostname, &d.node.release,
          &d.node.version, &d.node.hardware_name, &d.node.domain_name})
      node.text(*s);
    node.end_row();
  }
  {
    const auto& p = d.process;
    std::string command;
    for (const auto& a : p.command)
      command += (command.empty() ? "" : " ") + a;
    ojson env = ojson::object();
    for (const auto& [k, v] : p.environment)
      if (v.find(';') == std::string::npos) env[k] = v;
    auto config = ojson::parse(p.config_json, nullptr, false);
    if (config.is_discarded() || !config.is_object()) config = ojson::object();
    bulk_insert proc{db_,
                     "rocpd_info_process" + u,
                     {"id", "nid", "ppid", "pid", "init", "fini", "start", "end", "command",
                      "environment", "extdata"},
                     1};
    proc.i64(p.pid);
    proc.i64(nid_);
    proc.i64(p.ppid);
    proc.i64(p.pid);
    proc.u64(p.start_ns ? p.start_ns : p.init_ns);  // rocprofv3: init and start = process start
    proc.u64(p.end_ns ? p.end_ns : p.fini_ns);
    proc.u64(p.start_ns ? p.start_ns : p.init_ns);
    proc.u64(p.end_ns ? p.end_ns : p.fini_ns);
    proc.text(command);
    proc.text(env.dump());
    proc.text(config.dump());
    proc.end_row();
  }
  {
    bulk_insert agents{db_, "rocpd_info_agent" + u, agent_columns(), 1};
    for (size_t i = 0; i < d.agents.size(); ++i)
      if (agent_rows_[i] >= 0) write_agent(agents, d.agents[i], agent_rows_[i]);
  }
  {
    bulk_insert pmc{db_,
                    "rocpd_info_pmc" + u,
                    {"id", "nid", "pid", "agent_id", "target_arch", "event_code", "instance_id",
                     "name", "symbol", "description", "long_description", "component", "units",
                     "value_type", "block", "expression", "is_constant", "is_derived", "extdata"},
                    1};
    std::set<uint64_t> done;
    for (const auto& c : d.counters) {
      if (!done.insert(c.id).second) continue;  // one row per counter id; first agent wins
      pmc.u64(c.id);
      pmc.i64(nid_);
      pmc.i64(pid_);
      pmc.i64(agent_row(c.agent_id));
      pmc.text("GPU");
      pmc.i64(0);
      pmc.i64(0);
      pmc.text(c.name);
      pmc.text(c.name);
      pmc.text(c.description);
      pmc.text("");
      pmc.text("rocm");
      pmc.text(c.units);
      pmc.text("ABS");
      pmc.text(c.block);
      pmc.text(c.expression);
      pmc.i64(c.is_constant);
      pmc.i64(c.is_derived);
      pmc.text("{}");
      pmc.end_row();
    }
  }
  {
    bulk_insert co{db_,
                   "rocpd_info_code_object" + u,
                   {"id", "nid", "pid", "agent_id", "uri", "load_base", "load_size", "load_delta",
                    "storage_type", "extdata"},
                   1};
    for (const auto& c : d.code_objects) {
      auto ext = ojson::parse(c.extdata_json, nullptr, false);
      if (ext.is_discarded() || !ext.is_object()) ext = ojson::object();
      ext["size"] = c.size;
      ext["storage_type"] = c.storage_is_file ? "FILE" : "MEMORY";
      ext["memory_base"] = c.memory_base;
      ext["memory_size"] = c.memory_size;
      co.u64(c.id);
      co.i64(nid_);
      co.i64(pid_);
      co.i64(agent_row(c.agent_id));
      co.text(c.uri);
      co.u64(c.load_base);
      co.u64(c.load_size);
      co.u64(c.load_delta);
      co.text(c.storage_is_file ? "FILE" : "MEMORY");
      co.text(ext.dump());
      co.end_row();
    }
  }
  {
    bulk_insert ks{
        db_,
        "rocpd_info_kernel_symbol" + u,
        {"id", "nid", "pid", "code_object_id", "kernel_name", "display_name", "kernel_object",
         "kernarg_segment_size", "kernarg_segment_alignment", "group_segment_size",
         "private_segment_size", "sgpr_count", "arch_vgpr_count", "accum_vgpr_count", "extdata"},
        1};
    for (const auto& k : d.kernel_symbols) {
      auto ext = ojson::parse(k.extdata_json, nullptr, false);
      if (ext.is_discarded() || !ext.is_object()) ext = ojson::object();
      ext["size"] = sizeof(kernel_symbol_info);
      ext["kernel_id"] = k.kernel_id;
      ext["kernel_code_entry_byte_offset"] = 0;
      ext["formatted_kernel_name"] = symbol_display_name(k);
      ext["demangled_kernel_name"] = k.demangled_name;
      ext["truncated_kernel_name"] = k.truncated_name;
      ext["kernel_address"] = {{"handle", k.kernel_object}};
      ks.u64(k.kernel_id);
      ks.i64(nid_);
      ks.i64(pid_);
      ks.u64(k.code_object_id);
      ks.text(k.mangled_name);
      ks.text(symbol_display_name(k));
      ks.u64(k.kernel_object);
      ks.i64(k.kernarg_segment_size);
      ks.i64(k.kernarg_segment_alignment);
      ks.i64(k.group_segment_size);
      ks.i64(k.private_segment_size);
      ks.i64(k.sgpr_count);
      ks.i64(k.arch_vgpr_count);
      ks.i64(k.accum_vgpr_count);
      ks.text(ext.dump());
      ks.end_row();
    }
  }
}

// Threads, queues and streams that records used but the definitions lacked get rows too, so
// the views' joins find them.
void rocpd_writer::write_late_definitions() {
  const auto& d = *defs_;
  const std::string u = "_" + uuid_;
  if (!late_agents_.empty()) {
    bulk_insert agents{db_, "rocpd_info_agent" + u, agent_columns(), 1};
    for (const auto& [handle, row] : late_agents_) {
      agent_info a;
      a.id = handle;
      write_agent(agents, a, row);
    }
  }
  {
    bulk_insert threads{db_,
                        "rocpd_info_thread" + u,
                        {"id", "nid", "ppid", "pid", "tid", "name", "start", "end", "extdata"},
                        1};
    std::set<int64_t> done;
    auto add = [&](int64_t tid, std::string_view name, uint64_t start, uint64_t end) {
      if (!done.insert(tid).second) return;
      threads.i64(tid);
      threads.i64(nid_);
      threads.i64(d.process.ppid);
      threads.i64(pid_);
      threads.i64(tid);
      threads.text(name);
      threads.u64(start);
      threads.u64(end);
      threads.text("{}");
      threads.end_row();
    };
    for (const auto& t : d.threads)
      add(t.tid, t.name, t.start_ns, t.end_ns);
    for (auto tid : seen_tids_)
      add(tid, "", 0, 0);
  }
  auto named = [&](const char* table, const auto& defined, const std::unordered_set<uint64_t>& seen,
                   const char* zero_name, const char* prefix) {
    bulk_insert rows{db_, table + u, {"id", "nid", "pid", "name", "extdata"}, 1};
    std::set<uint64_t> done;
    auto add = [&](uint64_t id, const std::string& name) {
      if (!done.insert(id).second) return;
      rows.u64(id);
      rows.i64(nid_);
      rows.i64(pid_);
      rows.text(name);
      rows.text("{}");
      rows.end_row();
    };
    for (const auto& q : defined)
      add(q.id, q.name);
    for (auto id : seen)
      add(id, id == 0 ? std::string{zero_name} : fmt::format("{} {}", prefix, id));
  };
  named("rocpd_info_queue", d.queues, seen_queues_, "Default Queue", "Queue");
  named("rocpd_info_stream", d.streams, seen_streams_, "Default Stream", "Stream");
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
  auto& e = extdata == "{}" ? *events_ : *events_ext_;
  e.i64(id);
  e.i64(category);
  e.u64(stack);
  e.u64(parent);
  e.u64(corr_external);
  if (&e == &*events_ext_) e.text(extdata);
  e.end_row();
  return id;
}

int64_t rocpd_writer::track_for(int64_t pid, int64_t tid, int64_t name_id) {
  auto [it, inserted] =
      tracks_.emplace(std::make_tuple(pid, tid, name_id), int64_t(tracks_.size() + 1));
  if (inserted) {
    tracks_insert_->i64(it->second);
    tracks_insert_->i64(nid_);
    tracks_insert_->i64(pid);
    tracks_insert_->i64(tid);
    tracks_insert_->i64(name_id);
    tracks_insert_->end_row();
  }
  return it->second;
}

void rocpd_writer::write(record_span<api_record> records) {
  if (!db_.handle() || !db_.ok()) return;
  for (const auto& r : records) {
    see_thread(r.tid);
    const auto dom = static_cast<size_t>(r.domain);
    std::string_view extdata = "{}";
    if (r.message != empty_string) {
      scratch_text_.assign("{\"message\":");
      json::append_string(scratch_text_, defs_->str(r.message));
      scratch_text_ += '}';
      extdata = scratch_text_;
    }
    const int64_t event =
        add_event(category_ids_[dom], r.corr.internal, r.corr.ancestor, r.corr.external, extdata);
    const int64_t pid = r.pid ? r.pid : pid_;
    if (r.start_ns == r.end_ns) {  // a mark: a sample on the thread's track for this category
      const int64_t track = track_for(pid, r.tid, category_ids_[dom]);
      samples_->u64(r.corr.internal ? r.corr.internal : ++uncorrelated_id_);
      samples_->i64(track);
      samples_->u64(r.start_ns);
      samples_->i64(event);
      samples_->end_row();
    } else {
      regions_->u64(r.corr.internal ? r.corr.internal : ++uncorrelated_id_);
      regions_->i64(nid_);
      regions_->i64(pid);
      regions_->i64(r.tid);
      regions_->u64(r.start_ns);
      regions_->u64(r.end_ns);
      regions_->i64(sid(r.operation));
      regions_->i64(event);
      regions_->end_row();
    }
  }
  count_rows(records.size * 2);
}

// CUDA graph membership and thread-block cluster shape have no column of their own in rocpd
// schema 3: they go to the dispatch's extdata, and only when present.
std::string_view rocpd_writer::kernel_extdata(const kernel_dispatch_record& r) {
  const bool cluster = r.cluster_size.x != 0 || r.cluster_size.y != 0 || r.cluster_size.z != 0;
  if (r.graph_id == 0 && r.graph_node_id == 0 && !cluster) return "{}";
  scratch_text_.clear();
  fmt::format_to(std::back_inserter(scratch_text_), "{{\"graph_id\":{},\"graph_node_id\":{}",
                 r.graph_id, r.graph_node_id);
  if (cluster)
    fmt::format_to(std::back_inserter(scratch_text_),
                   ",\"cluster_size\":{{\"x\":{},\"y\":{},\"z\":{}}}", r.cluster_size.x,
                   r.cluster_size.y, r.cluster_size.z);
  scratch_text_ += '}';
  return scratch_text_;
}

void rocpd_writer::write(record_span<kernel_dispatch_record> records) {
  if (!db_.handle() || !db_.ok()) return;
  for (const auto& r : records) {
    see_thread(r.tid);
    see_queue(r.queue_id);
    see_stream(r.stream_id);
    const int64_t event =
        add_event(kernel_category_, r.corr.internal, r.corr.internal, r.corr.external);
    if (keep_dispatch_events_) dispatch_events_.emplace(r.dispatch_id, event);
    auto& k = *kernels_insert_;
    k.u64(r.dispatch_id);
    k.i64(nid_);
    k.i64(pid_);
    k.i64(r.tid);
    k.i64(agent_row(r.agent_id));
    k.u64(r.kernel_id);
    k.u64(r.dispatch_id);
    k.u64(r.queue_id);
    k.u64(r.stream_id);
    k.u64(r.start_ns);
    k.u64(r.end_ns);
    k.i64(r.private_segment_size);
    k.i64(r.group_segment_size);
    k.i64(r.workgroup_size.x);
    k.i64(r.workgroup_size.y);
    k.i64(r.workgroup_size.z);
    k.i64(r.grid_size.x);
    k.i64(r.grid_size.y);
    k.i64(r.grid_size.z);
    k.i64(sid(r.region_name));
    k.i64(event);
    k.text(kernel_extdata(r));
    k.end_row();
  }
  count_rows(records.size * 2);
}

void rocpd_writer::write(record_span<memory_copy_record> records) {
  if (!db_.handle() || !db_.ok()) return;
  for (const auto& r : records) {
    see_thread(r.tid);
    see_stream(r.stream_id);
    const int64_t event =
        add_event(copy_category_, r.corr.internal, r.corr.internal, r.corr.external);
    auto& c = *copies_;
    c.i64(++next_copy_);
    c.i64(nid_);
    c.i64(pid_);
    c.i64(r.tid);
    c.u64(r.start_ns);
    c.u64(r.end_ns);
    c.i64(direction_ids_[std::min<size_t>(static_cast<size_t>(r.direction), 5)]);
    c.i64(agent_row(r.dst_agent_id));
    c.u64(r.dst_address);
    c.i64(agent_row(r.src_agent_id));
    c.u64(r.src_address);
    c.u64(r.bytes);
    c.null();  // rocprofv3 leaves queue_id NULL for copies
    c.u64(r.stream_id);
    c.i64(sid(r.region_name));
    c.i64(event);
    c.end_row();
  }
  count_rows(records.size * 2);
}

void rocpd_writer::write(record_span<memory_set_record> records) {
  if (!db_.handle() || !db_.ok()) return;
  for (const auto& r : records) {
    see_thread(r.tid);
    see_stream(r.stream_id);
    const int64_t event =
        add_event(set_category_, r.corr.internal, r.corr.internal, r.corr.external);
    auto& c = *sets_;
    c.i64(++next_copy_);
    c.i64(nid_);
    c.i64(pid_);
    c.i64(r.tid);
    c.u64(r.start_ns);
    c.u64(r.end_ns);
    c.i64(memory_set_name_);
    c.i64(agent_row(r.agent_id));
    c.u64(r.address);
    c.u64(r.bytes);
    c.u64(r.stream_id);
    c.i64(empty_id_);
    c.i64(event);
    c.text(fmt::format("{{\"value\":{}}}", r.value));
    c.end_row();
  }
  count_rows(records.size * 2);
}

void rocpd_writer::write(record_span<memory_allocation_record> records) {
  if (!db_.handle() || !db_.ok()) return;
  for (const auto& r : records) {
    see_thread(r.tid);
    see_stream(r.stream_id);
    const int64_t event =
        add_event(alloc_category_, r.corr.internal, r.corr.ancestor, r.corr.external);
    const bool alloc = r.operation == memory_allocation_operation::allocate ||
                       r.operation == memory_allocation_operation::vmem_allocate;
    const bool virt = r.operation == memory_allocation_operation::vmem_allocate ||
                      r.operation == memory_allocation_operation::vmem_free;
    auto& a = *allocations_;
    a.i64(nid_);
    a.i64(pid_);
    a.i64(r.tid);
    if (alloc)
      a.i64(agent_row(r.agent_id));
    else
      a.null();
    a.text(alloc ? "ALLOC" : "FREE");
    a.text(virt ? "VIRTUAL" : "REAL");
    a.u64(r.start_ns);
    a.u64(r.end_ns);
    a.u64(r.address);
    a.u64(r.size);
    a.null();
    a.u64(r.stream_id);
    a.i64(event);
    if (r.memory_kind != empty_string) {
      scratch_text_.assign("{\"memory_kind\":");
      json::append_string(scratch_text_, defs_->str(r.memory_kind));
      scratch_text_ += '}';
      a.text(scratch_text_);
    } else {
      a.text("{}");
    }
    a.end_row();
  }
  count_rows(records.size * 2);
}

void rocpd_writer::write(record_span<scratch_memory_record> records) {
  if (!db_.handle() || !db_.ok()) return;
  for (const auto& r : records) {
    see_thread(r.tid);
    see_queue(r.queue_id);
    const int64_t event =
        add_event(scratch_category_, r.corr.internal, r.corr.ancestor, r.corr.external);
    std::string_view type = "ALLOC";
    if (r.operation == scratch_memory_operation::free) type = "FREE";
    if (r.operation == scratch_memory_operation::async_reclaim) type = "RECLAIM";
    auto& a = *scratch_;
    a.i64(nid_);
    a.i64(pid_);
    a.i64(r.tid);
    if (r.operation == scratch_memory_operation::alloc)
      a.i64(agent_row(r.agent_id));
    else
      a.null();
    a.text(type);
    a.text("SCRATCH");
    a.u64(r.start_ns);
    a.u64(r.end_ns);
    a.i64(0);
    a.u64(r.allocation_size);
    a.u64(r.queue_id);
    a.i64(event);
    a.text(fmt::format("{{\"flags\":\"{}\"}}", r.flags));
    a.end_row();
  }
  count_rows(records.size * 2);
}

std::string rocpd_writer::finish() {
  if (!defs_) return "rocpd writer finished before begin()";
  if (db_.handle() && db_.ok()) {
    for (const auto& c : pending_counters_) {
      int64_t event = 0;
      auto it = dispatch_events_.find(c.dispatch_id);
      if (it != dispatch_events_.end())
        event = it->second;
      else
        event = add_event(counter_category_, 0, 0, 0);
      pmc_events_->i64(++next_pmc_event_);
      pmc_events_->i64(event);
      pmc_events_->u64(c.counter_id);
      pmc_events_->f64(c.value);
      pmc_events_->end_row();
    }
    for (auto* b : {&events_, &events_ext_, &regions_, &samples_, &tracks_insert_, &kernels_insert_,
                    &copies_, &sets_, &allocations_, &scratch_, &pmc_events_})
      (*b)->flush();
    write_late_definitions();
    ROCPD_EXEC(db_, expand_schema(rocpd_indexes_sql, uuid_, guid_));
    ROCPD_EXEC(db_, "COMMIT");
  }
  for (auto* b : {&events_, &events_ext_, &regions_, &samples_, &tracks_insert_, &kernels_insert_,
                  &copies_, &sets_, &allocations_, &scratch_, &pmc_events_})
    b->reset();
  db_.close();
  return db_.error();
}

}  // namespace

std::unique_ptr<writer> make_rocpd_writer(const output_options& options) {
  return std::make_unique<rocpd_writer>(options);
}

}  // namespace rocprof::formats::rocpd
