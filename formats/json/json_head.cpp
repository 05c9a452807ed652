// results.json writer: the members built at finish() from the definitions and from what the
// records taught (operation names, renamed regions, PC-sample strings, statistics): metadata,
// agents, counters, strings.buffer_records, correlation_id.external, code objects, kernel
// symbols and summary.
#include <algorithm>
#include <map>

#include "common/agent_json.hpp"
#include "json/json_writer_impl.hpp"

namespace rocprof::formats::json {

using namespace rocprof::trace;

namespace {

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

// The names of an enum's values first..last, as a JSON array.
template <typename NameOf>
ojson enum_names(int first, int last, NameOf name_of) {
  ojson ops = ojson::array();
  for (int v = first; v <= last; ++v)
    ops.push_back(name_of(v));
  return ops;
}

// The items by id, 0 .. the largest id (rocprofv3 writes these arrays indexed by id); an id
// without an item is null.
template <typename T, typename IdOf>
std::vector<const T*> index_by_id(const std::vector<T>& items, IdOf id_of) {
  uint64_t max_id = 0;
  for (const auto& item : items)
    max_id = std::max(max_id, id_of(item));
  std::vector<const T*> by_id(max_id + 1, nullptr);
  for (const auto& item : items)
    by_id[id_of(item)] = &item;
  return by_id;
}

}  // namespace

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
  // Records lost before they reached the trace; only when some were (rocprofv3 has no such key).
  if (d.dropped_records != 0) meta["dropped_records"] = d.dropped_records;

  ojson agents = ojson::array();
  for (const auto& a : d.agents)
    agents.push_back(formats::agent_json(a));

  ojson counters = ojson::array();
  for (const auto& c : d.counters) {
    // rocprofiler_counter_info_v1_t's dimensions and instances, as rocprofv3 serializes them.
    ojson dimensions = ojson::array();
    for (const auto& dim : c.dimensions)
      dimensions.push_back(
          {{"id", dim.id}, {"instance_size", dim.instance_size}, {"name", dim.name}});
    ojson instances = ojson::array();
    for (const auto& inst : c.instances) {
      ojson positions = ojson::array();
      for (size_t i = 0; i < inst.positions.size() && i < c.dimensions.size(); ++i)
        positions.push_back(
            {{"dimension_name", c.dimensions[i].name}, {"index", inst.positions[i]}});
      instances.push_back({{"instance_id", inst.instance_id},
                           {"counter_id", c.id},
                           {"dimensions", std::move(positions)}});
    }
    counters.push_back({{"agent_id", {{"handle", c.agent_id}}},
                        {"id", {{"handle", c.id}}},
                        {"is_constant", c.is_constant},
                        {"is_derived", c.is_derived},
                        {"name", c.name},
                        {"description", c.description},
                        {"block", c.block},
                        {"expression", c.expression},
                        {"dimensions", std::move(dimensions)},
                        {"instances", std::move(instances)}});
  }

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

  return head{std::move(meta),       std::move(agents),   std::move(counters),
              buffer_record_kinds(), std::move(external), std::move(instructions),
              std::move(comments),   code_objects_json(), kernel_symbols_json(),
              summary_json()};
}

// strings.buffer_records: one entry per record kind number (api domains, then activities), with
// the operation names that kind's `operation` numbers index.
ojson json_writer::buffer_record_kinds() const {
  ojson kinds = ojson::array();
  for (size_t k = 0; k < domain_table.size(); ++k) {
    ojson ops = ojson::array();
    for (auto id : operations_[k])
      ops.push_back(defs_->str(id));
    kinds.push_back({{"kind", domain_table[k].category}, {"operations", ops}});
  }
  kinds.push_back(
      {{"kind", kernel_dispatch_kind},
       {"operations",
        {"KERNEL_DISPATCH_NONE", "KERNEL_DISPATCH_ENQUEUE", "KERNEL_DISPATCH_COMPLETE"}}});
  kinds.push_back({{"kind", memory_copy_kind}, {"operations", enum_names(0, 4, [](int v) {
                                                  return copy_direction_name(
                                                      static_cast<memory_copy_direction>(v));
                                                })}});
  kinds.push_back({{"kind", memory_set_kind}, {"operations", {"MEMORY_SET"}}});
  kinds.push_back({{"kind", memory_allocation_kind},
                   {"operations", enum_names(0, 4, [](int v) {
                      return allocation_operation_name(static_cast<memory_allocation_operation>(v));
                    })}});
  kinds.push_back({{"kind", scratch_memory_kind}, {"operations", enum_names(0, 3, [](int v) {
                                                     return scratch_operation_name(
                                                         static_cast<scratch_memory_operation>(v));
                                                   })}});
  kinds.push_back({{"kind", "PC_SAMPLING_HOST_TRAP"}, {"operations", ojson::array()}});
  kinds.push_back({{"kind", "DEVICE_COUNTER_SAMPLE"}, {"operations", ojson::array()}});
  kinds.push_back({{"kind", "PC_SAMPLING_STOCHASTIC"}, {"operations", ojson::array()}});
  return kinds;
}

// Indexed by code object id: ids without a code object get a {"size": 0} placeholder.
ojson json_writer::code_objects_json() const {
  ojson code_objects = ojson::array();
  const auto by_id =
      index_by_id(defs_->code_objects, [](const code_object_info& c) { return c.id; });
  for (uint64_t i = 0; i < by_id.size(); ++i) {
    const auto* c = by_id[i];
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
  return code_objects;
}

// Indexed by kernel id, like the code objects.
ojson json_writer::kernel_symbols_json() const {
  ojson symbols = ojson::array();
  const auto by_id =
      index_by_id(defs_->kernel_symbols, [](const kernel_symbol_info& s) { return s.kernel_id; });
  for (uint64_t i = 0; i < by_id.size(); ++i) {
    const auto* s = by_id[i];
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
  return symbols;
}

// Per domain: its totals and per-operation statistics (empty unless stats were collected).
ojson json_writer::summary_json() const {
  ojson summary = ojson::array();
  if (!stats_) return summary;
  for (const auto& total : stats_->domain_totals()) {
    ojson st = stats_json(total.stats);
    ojson ops = ojson::array();
    for (const auto& r : stats_->rows(total.domain))
      ops.push_back({{"key", r.name}, {"value", stats_json(r.stats)}});
    st["operations"] = ops;
    summary.push_back({{"domain", total.name}, {"stats", st}});
  }
  return summary;
}

}  // namespace rocprof::formats::json
