// rocpd writer: the definition tables. Metadata, strings, node, process, agents, counters, code
// objects and kernel symbols at begin(); agents, threads, queues and streams that only the
// records named, at finish().
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "common/agent_json.hpp"
#include "common/agent_names.hpp"
#include "common/json_object.hpp"
#include "rocpd/rocpd_schema.hpp"
#include "rocpd/rocpd_writer_impl.hpp"

namespace rocprof::formats::rocpd {

using namespace rocprof::trace;

namespace {

using ojson = nlohmann::ordered_json;

std::vector<agent_col> agent_columns() {
  return {agent_col::id,
          agent_col::nid,
          agent_col::pid,
          agent_col::type,
          agent_col::absolute_index,
          agent_col::logical_index,
          agent_col::type_index,
          agent_col::uuid,
          agent_col::name,
          agent_col::model_name,
          agent_col::vendor_name,
          agent_col::product_name,
          agent_col::user_name,
          agent_col::extdata};
}

// rocpd_info_queue and rocpd_info_stream have the same columns: the rows of either, for the ids
// the definitions name and those only the records used ("Default Queue" for id 0, else
// "Queue <id>").
template <typename Table, typename Defined>
void write_named_rows(database& db, const std::string& uuid_suffix, int64_t nid, int64_t pid,
                      const Defined& defined, const std::unordered_set<uint64_t>& seen,
                      const char* zero_name, const char* prefix) {
  using col = typename Table::column;
  table_insert<Table> rows{
      db, uuid_suffix, {col::id, col::nid, col::pid, col::name, col::extdata}, 1};
  std::set<uint64_t> done;
  auto add = [&](uint64_t id, const std::string& name) {
    if (!done.insert(id).second) return;
    rows.u64(col::id, id)
        .i64(col::nid, nid)
        .i64(col::pid, pid)
        .text(col::name, name)
        .text(col::extdata, "{}")
        .end_row();
  };
  for (const auto& q : defined)
    add(q.id, q.name);
  for (auto id : seen)
    add(id, id == 0 ? std::string{zero_name} : fmt::format("{} {}", prefix, id));
}

}  // namespace

int64_t rocpd_writer::agent_row(uint64_t handle) {
  auto it = agent_node_.find(handle);
  if (it != agent_node_.end()) return it->second;
  if (handle == 0) return 0;
  const int64_t row = next_agent_row_++;
  agent_node_.emplace(handle, row);
  late_agents_.emplace_back(handle, row);
  return row;
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

void rocpd_writer::write_agent(table_insert<info_agent_table>& rows, const agent_info& agent,
                               int64_t row) {
  agent_info a = agent;
  a.node_id = static_cast<uint32_t>(row);
  if (a.type == agent_type::unknown)
    rows.null(agent_col::type);
  else
    rows.text(agent_col::type, agent_type_name(a.type));
  rows.i64(agent_col::id, row)
      .i64(agent_col::nid, nid_)
      .i64(agent_col::pid, pid_)
      .i64(agent_col::absolute_index, row)
      .i64(agent_col::logical_index, a.logical_node_id)
      .i64(agent_col::type_index, a.logical_node_type_id)
      .i64(agent_col::uuid, a.device_id)  // rocprofv3 stores device_id in "uuid" (sic)
      .text(agent_col::name, a.name)
      .text(agent_col::model_name, a.model_name)
      .text(agent_col::vendor_name, a.vendor_name)
      .text(agent_col::product_name, a.product_name)
      .text(agent_col::user_name, a.product_name)
      .text(agent_col::extdata, formats::agent_json(a).dump())
      .end_row();
}

void rocpd_writer::write_definitions() {
  const auto& d = *defs_;
  const auto& u = uuid_suffix_;
  {
    table_insert<metadata_table> meta{db_, u, {metadata_col::tag, metadata_col::value}, 1};
    std::vector<std::pair<std::string, std::string>> tags{
        {"schema_version", std::to_string(schema_version)},
        {"uuid", uuid_suffix_},
        {"guid", guid_}};
    // Ours, beside AMD's three (formats/rocpd/README.md, "Metadata of ours"): every string the
    // records use is in rocpd_string (the reader needs no pre-pass over event extdata), and the
    // clock offsets and MPI rank `rocpd merge` aligns and names processes with.
    tags.emplace_back("strings_complete", "1");
    const auto& p = d.process;
    if (p.realtime_offset_start_ns != 0) {
      tags.emplace_back("realtime_offset_start_ns", std::to_string(p.realtime_offset_start_ns));
      tags.emplace_back("realtime_offset_end_ns", std::to_string(p.realtime_offset_end_ns));
    }
    if (p.mpi_rank >= 0) {
      tags.emplace_back("mpi_rank", std::to_string(p.mpi_rank));
      tags.emplace_back("mpi_size", std::to_string(p.mpi_size));
    }
    for (const auto& [tag, value] : tags)
      meta.text(metadata_col::tag, tag).text(metadata_col::value, value).end_row();
    // Records lost before they reached the trace (DISCARD policy, backend drops); only a row
    // when some were, so that complete runs keep rocprofv3's metadata exactly.
    if (d.dropped_records != 0)
      meta.text(metadata_col::tag, "dropped_records")
          .text(metadata_col::value, std::to_string(d.dropped_records))
          .end_row();
  }
  {
    table_insert<string_table> strings{db_, u, {string_col::id, string_col::string}, 128};
    for (size_t i = 0; i < sorted_strings_.size(); ++i)
      strings.i64(string_col::id, static_cast<int64_t>(i + 1))
          .text(string_col::string, sorted_strings_[i])
          .end_row();
    strings.flush();
  }
  {
    table_insert<info_node_table> node{
        db_,
        u,
        {node_col::id, node_col::hash, node_col::machine_id, node_col::system_name,
         node_col::hostname, node_col::release, node_col::version, node_col::hardware_name,
         node_col::domain_name},
        1};
    node.i64(node_col::id, nid_)
        .u64(node_col::hash, d.node.hash)
        .text(node_col::machine_id, d.node.machine_id)
        .text(node_col::system_name, d.node.system_name)
        .text(node_col::hostname, d.node.hostname)
        .text(node_col::release, d.node.release)
        .text(node_col::version, d.node.version)
        .text(node_col::hardware_name, d.node.hardware_name)
        .text(node_col::domain_name, d.node.domain_name)
        .end_row();
  }
  write_process();
  {
    table_insert<info_agent_table> agents{db_, u, agent_columns(), 1};
    for (size_t i = 0; i < d.agents.size(); ++i)
      if (agent_rows_[i] >= 0) write_agent(agents, d.agents[i], agent_rows_[i]);
  }
  write_counters_and_code();
}

void rocpd_writer::write_process() {
  const auto& p = defs_->process;
  std::string command;
  for (const auto& a : p.command)
    command += (command.empty() ? "" : " ") + a;
  ojson env = ojson::object();
  for (const auto& [k, v] : p.environment)
    if (v.find(';') == std::string::npos) env[k] = v;
  table_insert<info_process_table> proc{
      db_,
      uuid_suffix_,
      {process_col::id, process_col::nid, process_col::ppid, process_col::pid, process_col::init,
       process_col::fini, process_col::start, process_col::end, process_col::command,
       process_col::environment, process_col::extdata},
      1};
  // rocprofv3: init and start are both the process start, fini and end its end.
  const uint64_t start = p.start_ns ? p.start_ns : p.init_ns;
  const uint64_t end = p.end_ns ? p.end_ns : p.fini_ns;
  proc.i64(process_col::id, p.pid)
      .i64(process_col::nid, nid_)
      .i64(process_col::ppid, p.ppid)
      .i64(process_col::pid, p.pid)
      .u64(process_col::init, start)
      .u64(process_col::fini, end)
      .u64(process_col::start, start)
      .u64(process_col::end, end)
      .text(process_col::command, command)
      .text(process_col::environment, env.dump())
      .text(process_col::extdata, parse_json_object(p.config_json).dump())
      .end_row();
}

void rocpd_writer::write_counters_and_code() {
  const auto& d = *defs_;
  const auto& u = uuid_suffix_;
  {
    table_insert<info_pmc_table> pmc{
        db_,
        u,
        {pmc_col::id, pmc_col::nid, pmc_col::pid, pmc_col::agent_id, pmc_col::target_arch,
         pmc_col::event_code, pmc_col::instance_id, pmc_col::name, pmc_col::symbol,
         pmc_col::description, pmc_col::long_description, pmc_col::component, pmc_col::units,
         pmc_col::value_type, pmc_col::block, pmc_col::expression, pmc_col::is_constant,
         pmc_col::is_derived, pmc_col::extdata},
        1};
    std::set<uint64_t> done;
    for (const auto& c : d.counters) {
      if (!done.insert(c.id).second) continue;  // one row per counter id; first agent wins
      pmc.u64(pmc_col::id, c.id)
          .i64(pmc_col::nid, nid_)
          .i64(pmc_col::pid, pid_)
          .i64(pmc_col::agent_id, agent_row(c.agent_id))
          .text(pmc_col::target_arch, "GPU")
          .i64(pmc_col::event_code, 0)
          .i64(pmc_col::instance_id, 0)
          .text(pmc_col::name, c.name)
          .text(pmc_col::symbol, c.name)
          .text(pmc_col::description, c.description)
          .text(pmc_col::long_description, "")
          .text(pmc_col::component, "rocm")
          .text(pmc_col::units, c.units)
          .text(pmc_col::value_type, "ABS")
          .text(pmc_col::block, c.block)
          .text(pmc_col::expression, c.expression)
          .i64(pmc_col::is_constant, c.is_constant)
          .i64(pmc_col::is_derived, c.is_derived)
          .text(pmc_col::extdata, "{}")
          .end_row();
    }
  }
  {
    table_insert<info_code_object_table> co{
        db_,
        u,
        {code_object_col::id, code_object_col::nid, code_object_col::pid, code_object_col::agent_id,
         code_object_col::uri, code_object_col::load_base, code_object_col::load_size,
         code_object_col::load_delta, code_object_col::storage_type, code_object_col::extdata},
        1};
    for (const auto& c : d.code_objects) {
      auto ext = parse_json_object(c.extdata_json);
      ext["size"] = c.size;
      ext["storage_type"] = c.storage_is_file ? "FILE" : "MEMORY";
      ext["memory_base"] = c.memory_base;
      ext["memory_size"] = c.memory_size;
      co.u64(code_object_col::id, c.id)
          .i64(code_object_col::nid, nid_)
          .i64(code_object_col::pid, pid_)
          .i64(code_object_col::agent_id, agent_row(c.agent_id))
          .text(code_object_col::uri, c.uri)
          .u64(code_object_col::load_base, c.load_base)
          .u64(code_object_col::load_size, c.load_size)
          .u64(code_object_col::load_delta, c.load_delta)
          .text(code_object_col::storage_type, c.storage_is_file ? "FILE" : "MEMORY")
          .text(code_object_col::extdata, ext.dump())
          .end_row();
    }
  }
  {
    table_insert<info_kernel_symbol_table> ks{
        db_,
        u,
        {symbol_col::id, symbol_col::nid, symbol_col::pid, symbol_col::code_object_id,
         symbol_col::kernel_name, symbol_col::display_name, symbol_col::kernel_object,
         symbol_col::kernarg_segment_size, symbol_col::kernarg_segment_alignment,
         symbol_col::group_segment_size, symbol_col::private_segment_size, symbol_col::sgpr_count,
         symbol_col::arch_vgpr_count, symbol_col::accum_vgpr_count, symbol_col::extdata},
        1};
    for (const auto& k : d.kernel_symbols) {
      auto ext = parse_json_object(k.extdata_json);
      ext["size"] = sizeof(kernel_symbol_info);
      ext["kernel_id"] = k.kernel_id;
      ext["kernel_code_entry_byte_offset"] = 0;
      ext["formatted_kernel_name"] = symbol_display_name(k);
      ext["demangled_kernel_name"] = k.demangled_name;
      ext["truncated_kernel_name"] = k.truncated_name;
      ext["kernel_address"] = {{"handle", k.kernel_object}};
      ks.u64(symbol_col::id, k.kernel_id)
          .i64(symbol_col::nid, nid_)
          .i64(symbol_col::pid, pid_)
          .u64(symbol_col::code_object_id, k.code_object_id)
          .text(symbol_col::kernel_name, k.mangled_name)
          .text(symbol_col::display_name, symbol_display_name(k))
          .u64(symbol_col::kernel_object, k.kernel_object)
          .i64(symbol_col::kernarg_segment_size, k.kernarg_segment_size)
          .i64(symbol_col::kernarg_segment_alignment, k.kernarg_segment_alignment)
          .i64(symbol_col::group_segment_size, k.group_segment_size)
          .i64(symbol_col::private_segment_size, k.private_segment_size)
          .i64(symbol_col::sgpr_count, k.sgpr_count)
          .i64(symbol_col::arch_vgpr_count, k.arch_vgpr_count)
          .i64(symbol_col::accum_vgpr_count, k.accum_vgpr_count)
          .text(symbol_col::extdata, ext.dump())
          .end_row();
    }
  }
}

// Agents, threads, queues and streams that records used but the definitions lacked get rows
// too, so the views' joins find them.
void rocpd_writer::write_late_definitions() {
  if (!late_agents_.empty()) {
    table_insert<info_agent_table> agents{db_, uuid_suffix_, agent_columns(), 1};
    for (const auto& [handle, row] : late_agents_) {
      agent_info a;
      a.id = handle;
      write_agent(agents, a, row);
    }
  }
  write_threads();
  write_named_rows<info_queue_table>(db_, uuid_suffix_, nid_, pid_, defs_->queues, seen_queues_,
                                     "Default Queue", "Queue");
  write_named_rows<info_stream_table>(db_, uuid_suffix_, nid_, pid_, defs_->streams, seen_streams_,
                                      "Default Stream", "Stream");
}

void rocpd_writer::write_threads() {
  const auto& d = *defs_;
  table_insert<info_thread_table> threads{
      db_,
      uuid_suffix_,
      {thread_col::id, thread_col::nid, thread_col::ppid, thread_col::pid, thread_col::tid,
       thread_col::name, thread_col::start, thread_col::end, thread_col::extdata},
      1};
  std::set<int64_t> done;
  auto add = [&](int64_t tid, std::string_view name, uint64_t start, uint64_t end) {
    if (!done.insert(tid).second) return;
    threads.i64(thread_col::id, tid)
        .i64(thread_col::nid, nid_)
        .i64(thread_col::ppid, d.process.ppid)
        .i64(thread_col::pid, pid_)
        .i64(thread_col::tid, tid)
        .text(thread_col::name, name)
        .u64(thread_col::start, start)
        .u64(thread_col::end, end)
        .text(thread_col::extdata, "{}")
        .end_row();
  };
  for (const auto& t : d.threads)
    add(t.tid, t.name, t.start_ns, t.end_ns);
  for (auto tid : seen_tids_)
    add(tid, "", 0, 0);
}

}  // namespace rocprof::formats::rocpd
