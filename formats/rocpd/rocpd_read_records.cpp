// rocpd reader: one process's record tables back into trace-model records, streamed to writers
// in batches. Each kind is read in the order its events were written (the event table's rowid
// order is the writer's arrival order), so a CSV converted from a database equals the one the
// run wrote.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <unordered_map>

#include "common/number_format.hpp"
#include "rocpd/read_batcher.hpp"
#include "rocpd/rocpd_reader_impl.hpp"
#include "rocpd/rocpd_tables.hpp"
#include "rocpd/table_select.hpp"

namespace rocprof::formats::rocpd {

using namespace rocprof::trace;

namespace {

using event_col = event_table::column;

// The event columns every record kind reads (correlation ids and the category).
struct event_slots {
  int id, category, stack, parent, external;
  explicit event_slots(table_select& q)
      : id{q.column<event_table>("E", event_col::id)},
        category{q.column<event_table>("E", event_col::category_id)},
        stack{q.column<event_table>("E", event_col::stack_id)},
        parent{q.column<event_table>("E", event_col::parent_stack_id)},
        external{q.column<event_table>("E", event_col::correlation_id)} {}
  trace::correlation read(const table_select& q, bool parent_is_ancestor) const {
    trace::correlation c;
    c.internal = q.u64(stack);
    c.ancestor = parent_is_ancestor ? q.u64(parent) : 0;
    c.external = q.u64(external);
    return c;
  }
};

}  // namespace

bool reader_impl::read_records(size_t process, const trace_definitions& defs,
                               const read_options& options, const std::vector<writer*>& out,
                               uint64_t* skipped, std::string* error) {
  const auto& o = options;
  const auto shift = [&o](uint64_t t) { return static_cast<uint64_t>(t + o.time_shift_ns); };
  const auto T = [&](std::string_view base) { return table(process, base); };
  const auto fail = [&](const table_select& q) {
    *error = path_ + ": " + q.error();
    return false;
  };
  const auto handle_of = [this](int64_t row) {
    const auto it = agent_handles_.find(row);
    return it != agent_handles_.end() ? it->second : static_cast<uint64_t>(row);
  };
  const auto string_of = [this](std::string_view s) {
    const auto it = string_ids_.find(std::string{s});
    return it != string_ids_.end() ? it->second : empty_string;
  };
  const auto id_of = [&defs](uint64_t rocpd_id) {
    return rocpd_id < defs.strings.size() ? static_cast<string_id>(rocpd_id) : empty_string;
  };

  // Category string id -> api domain; the other kinds' categories by name.
  std::vector<int> domain_of(defs.strings.size(), -1);
  std::string api_categories;
  for (size_t d = 0; d < domain_table.size(); ++d) {
    const auto it = string_ids_.find(std::string{domain_table[d].category});
    if (it == string_ids_.end()) continue;
    domain_of[it->second] = static_cast<int>(d);
    api_categories += (api_categories.empty() ? "" : ",") + std::to_string(it->second);
  }
  const auto category_id = [&](std::string_view name) -> int64_t {
    const auto it = string_ids_.find(std::string{name});
    return it != string_ids_.end() ? it->second : -1;
  };
  uint64_t total = 0;

  // --- API calls and markers: regions and samples, in event order.
  if (!api_categories.empty()) {
    using region_col = region_table::column;
    using sample_col = sample_table::column;
    using track_col = track_table::column;
    batcher<api_record> api{out, o, total};
    // Our region and sample ids are the record's correlation id (stack_id): joined by primary
    // key from the event, in event order. Rows whose id is not their event's stack id
    // (uncorrelated records, repaired conflicts) come from a second pass.
    for (const bool by_stack_id : {true, false}) {
      table_select q{db_};
      const event_slots e{q};
      const int message = q.expression(
          "CASE WHEN E.extdata = '{}' THEN NULL ELSE json_extract(E.extdata, '$.message') END");
      const int r_pid = q.column<region_table>("R", region_col::pid);
      const int r_tid = q.column<region_table>("R", region_col::tid);
      const int r_start = q.column<region_table>("R", region_col::start);
      const int r_end = q.column<region_table>("R", region_col::end);
      const int r_name = q.column<region_table>("R", region_col::name_id);
      const int s_time = q.column<sample_table>("S", sample_col::timestamp);
      const int s_operation = q.expression(
          "CASE WHEN S.extdata = '{}' THEN NULL ELSE json_extract(S.extdata, '$.operation') END");
      // The call's arguments (rocpd_arg, --cuda-api-args) back into the trace model's text:
      // the return value (extdata, 0 when absent), then type, name, value per argument. The
      // writer interned that text, so the lookup finds it in databases we wrote.
      const int args = q.expression(
          "(SELECT CAST(COALESCE(json_extract(E.extdata, '$.retval'), 0) AS TEXT) || "
          "group_concat(x, '') FROM (SELECT char(30) || A.type || char(31) || A.name || "
          "char(31) || COALESCE(A.value, '') AS x FROM " +
          T("rocpd_arg") + " A WHERE A.event_id = E.id ORDER BY A.position))");
      const int t_pid = q.column<track_table>("K", track_col::pid);
      const int t_tid = q.column<track_table>("K", track_col::tid);
      std::string sql;
      if (by_stack_id) {
        sql = "FROM " + T("rocpd_event") + " E LEFT JOIN " + T("rocpd_region") +
              " R ON R.id = E.stack_id AND R.event_id = E.id LEFT JOIN " + T("rocpd_sample") +
              " S ON R.id IS NULL AND S.id = E.stack_id AND S.event_id = E.id LEFT JOIN " +
              T("rocpd_track") + " K ON K.id = S.track_id WHERE E.category_id IN (" +
              api_categories + ")";
      } else {
        sql = "FROM " + T("rocpd_event") + " E LEFT JOIN " + T("rocpd_region") +
              " R ON R.event_id = E.id LEFT JOIN " + T("rocpd_sample") +
              " S ON R.id IS NULL AND S.event_id = E.id LEFT JOIN " + T("rocpd_track") +
              " K ON K.id = S.track_id WHERE E.category_id IN (" + api_categories +
              ") AND (R.id IS NOT NULL AND R.id <> E.stack_id OR S.id IS NOT NULL AND S.id <> "
              "E.stack_id)";
      }
      if (!q.prepare(sql)) return fail(q);
      uint64_t unmatched = 0;
      while (q.step()) {
        const bool region = !q.is_null(r_start), sample = !q.is_null(s_time);
        if (!region && !sample) {
          ++unmatched;
          continue;
        }
        const uint64_t start = shift(region ? q.u64(r_start) : q.u64(s_time));
        const uint64_t end = region ? shift(q.u64(r_end)) : start;
        if (!in_window(o.window, start, end)) continue;
        auto& r = api.add();
        r.domain = static_cast<api_domain>(domain_of[q.u64(e.category)]);
        r.corr = e.read(q, true);
        r.pid = region ? q.i64(r_pid) : q.i64(t_pid);
        r.tid = region ? q.i64(r_tid) : q.i64(t_tid);
        r.start_ns = start;
        r.end_ns = end;
        r.operation = region ? id_of(q.u64(r_name)) : string_of(q.text(s_operation));
        if (!q.is_null(message)) r.message = string_of(q.text(message));
        if (!q.is_null(args)) r.args = string_of(q.text(args));
        r.operation_id = r.operation;  // the database keeps names only
        api.commit();
      }
      if (!q.error().empty()) return fail(q);
      if (by_stack_id && unmatched == 0) break;
    }
  }

  // --- kernel dispatches, in event order (the event_id index when the database has it).
  {
    using col = kernel_dispatch_table::column;
    using K = kernel_dispatch_table;
    batcher<kernel_dispatch_record> kernels{out, o, total};
    std::unordered_map<uint64_t, const kernel_symbol_info*> symbols;
    for (const auto& k : defs.kernel_symbols)
      symbols.emplace(k.kernel_id, &k);
    table_select q{db_};
    const event_slots e{q};
    const int dispatch = q.column<K>("D", col::dispatch_id);
    const int kernel = q.column<K>("D", col::kernel_id);
    const int agent = q.column<K>("D", col::agent_id);
    const int queue = q.column<K>("D", col::queue_id);
    const int stream = q.column<K>("D", col::stream_id);
    const int tid = q.column<K>("D", col::tid);
    const int start = q.column<K>("D", col::start);
    const int end = q.column<K>("D", col::end);
    const int priv = q.column<K>("D", col::private_segment_size);
    const int group = q.column<K>("D", col::group_segment_size);
    const int wx = q.column<K>("D", col::workgroup_size_x);
    const int wy = q.column<K>("D", col::workgroup_size_y);
    const int wz = q.column<K>("D", col::workgroup_size_z);
    const int gx = q.column<K>("D", col::grid_size_x);
    const int gy = q.column<K>("D", col::grid_size_y);
    const int gz = q.column<K>("D", col::grid_size_z);
    const int region = q.column<K>("D", col::region_name_id);
    const auto ext = [&q](const char* key) {
      return q.expression("CASE WHEN D.extdata = '{}' THEN NULL ELSE json_extract(D.extdata, '$." +
                          std::string{key} + "') END");
    };
    const int graph = ext("graph_id"), graph_node = ext("graph_node_id");
    const int vgpr = ext("arch_vgpr_count"), accum = ext("accum_vgpr_count"),
              sgpr = ext("sgpr_count");
    const int cx = ext("cluster_size.x"), cy = ext("cluster_size.y"), cz = ext("cluster_size.z");
    if (!q.prepare("FROM " + T("rocpd_kernel_dispatch") + " D JOIN " + T("rocpd_event") +
                   " E ON E.id = D.event_id ORDER BY D.event_id"))
      return fail(q);
    while (q.step()) {
      const uint64_t s = shift(q.u64(start)), t = shift(q.u64(end));
      if (!in_window(o.window, s, t)) continue;
      auto& r = kernels.add();
      r.dispatch_id = q.u64(dispatch);
      r.kernel_id = q.u64(kernel);
      r.agent_id = handle_of(q.i64(agent));
      r.queue_id = q.u64(queue);
      r.stream_id = q.u64(stream);
      r.corr = e.read(q, false);
      r.tid = q.i64(tid);
      r.start_ns = s;
      r.end_ns = t;
      r.private_segment_size = static_cast<uint32_t>(q.u64(priv));
      r.group_segment_size = static_cast<uint32_t>(q.u64(group));
      r.workgroup_size = {static_cast<uint32_t>(q.u64(wx)), static_cast<uint32_t>(q.u64(wy)),
                          static_cast<uint32_t>(q.u64(wz))};
      r.grid_size = {static_cast<uint32_t>(q.u64(gx)), static_cast<uint32_t>(q.u64(gy)),
                     static_cast<uint32_t>(q.u64(gz))};
      r.region_name = id_of(q.u64(region));
      r.graph_id = q.u64(graph);
      r.graph_node_id = q.u64(graph_node);
      r.cluster_size = {static_cast<uint32_t>(q.u64(cx)), static_cast<uint32_t>(q.u64(cy)),
                        static_cast<uint32_t>(q.u64(cz))};
      if (!q.is_null(vgpr)) {
        r.arch_vgpr_count = static_cast<uint32_t>(q.u64(vgpr));
        r.accum_vgpr_count = static_cast<uint32_t>(q.u64(accum));
        r.sgpr_count = static_cast<uint32_t>(q.u64(sgpr));
      } else if (const auto it = symbols.find(r.kernel_id); it != symbols.end()) {
        r.arch_vgpr_count = it->second->arch_vgpr_count;
        r.accum_vgpr_count = it->second->accum_vgpr_count;
        r.sgpr_count = it->second->sgpr_count;
      }
      kernels.commit();
    }
    if (!q.error().empty()) return fail(q);
  }

  // --- memory copies and memsets (one table; the event's category tells them apart).
  {
    using col = memory_copy_table::column;
    using C = memory_copy_table;
    const int64_t set_category = category_id(memory_set_kind);
    std::array<int64_t, 6> direction_ids{};
    for (int v = 0; v <= 5; ++v)
      direction_ids[static_cast<size_t>(v)] =
          category_id(copy_direction_name(static_cast<memory_copy_direction>(v)));
    batcher<memory_copy_record> copies{out, o, total};
    batcher<memory_set_record> sets{out, o, total};
    table_select q{db_};
    const event_slots e{q};
    const int tid = q.column<C>("C", col::tid);
    const int start = q.column<C>("C", col::start);
    const int end = q.column<C>("C", col::end);
    const int name = q.column<C>("C", col::name_id);
    const int dst_agent = q.column<C>("C", col::dst_agent_id);
    const int dst = q.column<C>("C", col::dst_address);
    const int src_agent = q.column<C>("C", col::src_agent_id);
    const int src = q.column<C>("C", col::src_address);
    const int size = q.column<C>("C", col::size);
    const int queue = q.column<C>("C", col::queue_id);
    const int stream = q.column<C>("C", col::stream_id);
    const int region = q.column<C>("C", col::region_name_id);
    const int value = q.expression(
        "CASE WHEN C.extdata = '{}' THEN NULL ELSE json_extract(C.extdata, '$.value') END");
    if (!q.prepare("FROM " + T("rocpd_memory_copy") + " C JOIN " + T("rocpd_event") +
                   " E ON E.id = C.event_id ORDER BY C.rowid"))
      return fail(q);
    while (q.step()) {
      const uint64_t s = shift(q.u64(start)), t = shift(q.u64(end));
      if (!in_window(o.window, s, t)) continue;
      if (q.i64(e.category) == set_category) {
        auto& r = sets.add();
        r.corr = e.read(q, false);
        r.tid = q.i64(tid);
        r.start_ns = s;
        r.end_ns = t;
        r.agent_id = handle_of(q.i64(dst_agent));
        r.address = q.u64(dst);
        r.bytes = q.u64(size);
        r.value = static_cast<uint32_t>(q.u64(value));
        r.queue_id = q.u64(queue);
        r.stream_id = q.u64(stream);
        sets.commit();
        continue;
      }
      auto& r = copies.add();
      const auto dir = std::find(direction_ids.begin(), direction_ids.end(), q.i64(name));
      r.direction = dir != direction_ids.end()
                        ? static_cast<memory_copy_direction>(dir - direction_ids.begin())
                        : memory_copy_direction::none;
      r.corr = e.read(q, false);
      r.tid = q.i64(tid);
      r.start_ns = s;
      r.end_ns = t;
      r.src_agent_id = q.is_null(src_agent) ? 0 : handle_of(q.i64(src_agent));
      r.dst_agent_id = q.is_null(dst_agent) ? 0 : handle_of(q.i64(dst_agent));
      r.src_address = q.u64(src);
      r.dst_address = q.u64(dst);
      r.bytes = q.u64(size);
      r.queue_id = q.u64(queue);
      r.stream_id = q.u64(stream);
      r.region_name = id_of(q.u64(region));
      copies.commit();
    }
    if (!q.error().empty()) return fail(q);
  }

  // --- allocations and scratch memory (one table; level SCRATCH is scratch).
  {
    using col = memory_allocate_table::column;
    using A = memory_allocate_table;
    batcher<memory_allocation_record> allocations{out, o, total};
    batcher<scratch_memory_record> scratch{out, o, total};
    table_select q{db_};
    const event_slots e{q};
    const int tid = q.column<A>("A", col::tid);
    const int agent = q.column<A>("A", col::agent_id);
    const int type = q.column<A>("A", col::type);
    const int level = q.column<A>("A", col::level);
    const int start = q.column<A>("A", col::start);
    const int end = q.column<A>("A", col::end);
    const int address = q.column<A>("A", col::address);
    const int size = q.column<A>("A", col::size);
    const int queue = q.column<A>("A", col::queue_id);
    const int stream = q.column<A>("A", col::stream_id);
    const int kind = q.expression(
        "CASE WHEN A.extdata = '{}' THEN NULL ELSE json_extract(A.extdata, '$.memory_kind') END");
    const int flags = q.expression(
        "CASE WHEN A.extdata = '{}' THEN NULL ELSE json_extract(A.extdata, '$.flags') END");
    if (!q.prepare("FROM " + T("rocpd_memory_allocate") + " A JOIN " + T("rocpd_event") +
                   " E ON E.id = A.event_id ORDER BY A.rowid"))
      return fail(q);
    while (q.step()) {
      const uint64_t s = shift(q.u64(start)), t = shift(q.u64(end));
      if (!in_window(o.window, s, t)) continue;
      const auto ty = q.text(type);
      const auto agent_id = q.is_null(agent) ? 0 : handle_of(q.i64(agent));
      if (q.text(level) == "SCRATCH") {
        auto& r = scratch.add();
        r.operation = ty == "ALLOC"  ? scratch_memory_operation::alloc
                      : ty == "FREE" ? scratch_memory_operation::free
                                     : scratch_memory_operation::async_reclaim;
        r.corr = e.read(q, true);
        r.tid = q.i64(tid);
        r.start_ns = s;
        r.end_ns = t;
        r.agent_id = agent_id;
        r.queue_id = q.u64(queue);
        r.flags =
            static_cast<uint64_t>(std::strtoull(std::string{q.text(flags)}.c_str(), nullptr, 10));
        r.allocation_size = q.u64(size);
        scratch.commit();
        continue;
      }
      auto& r = allocations.add();
      const bool alloc = ty != "FREE";
      const bool virt = q.text(level) == "VIRTUAL";
      r.operation = alloc ? (virt ? memory_allocation_operation::vmem_allocate
                                  : memory_allocation_operation::allocate)
                          : (virt ? memory_allocation_operation::vmem_free
                                  : memory_allocation_operation::free);
      r.corr = e.read(q, true);
      r.tid = q.i64(tid);
      r.start_ns = s;
      r.end_ns = t;
      r.agent_id = agent_id;
      r.address = q.u64(address);
      r.size = q.u64(size);
      r.stream_id = q.u64(stream);
      if (!q.is_null(kind)) r.memory_kind = string_of(q.text(kind));
      allocations.commit();
    }
    if (!q.error().empty()) return fail(q);
  }

  // --- counter values: per pmc event, with the dispatch its event belongs to.
  if (!defs.counters.empty()) {
    using col = pmc_event_table::column;
    batcher<counter_value_record> values{out, o, total};
    table_select q{db_};
    const int pmc = q.column<pmc_event_table>("P", col::pmc_id);
    const int value = q.column<pmc_event_table>("P", col::value);
    const int dispatch =
        q.column<kernel_dispatch_table>("D", kernel_dispatch_table::column::dispatch_id);
    const int agent = q.column<kernel_dispatch_table>("D", kernel_dispatch_table::column::agent_id);
    const int start = q.column<kernel_dispatch_table>("D", kernel_dispatch_table::column::start);
    const int end = q.column<kernel_dispatch_table>("D", kernel_dispatch_table::column::end);
    // Device counter samples' values are pmc events too: read_device_samples reads those.
    const std::string device_samples = std::to_string(category_id(device_counter_sample_kind));
    if (!q.prepare("FROM " + T("rocpd_pmc_event") + " P LEFT JOIN " + T("rocpd_kernel_dispatch") +
                   " D ON D.event_id = P.event_id LEFT JOIN " + T("rocpd_event") +
                   " E ON E.id = P.event_id WHERE E.category_id IS NULL OR E.category_id <> " +
                   device_samples + " ORDER BY P.rowid"))
      return fail(q);
    while (q.step()) {
      if (!q.is_null(start) && !in_window(o.window, shift(q.u64(start)), shift(q.u64(end))))
        continue;
      auto& r = values.add();
      r.dispatch_id = q.u64(dispatch);
      r.counter_id = q.u64(pmc);
      r.agent_id = q.is_null(agent) ? 0 : handle_of(q.i64(agent));
      r.value = q.f64(value);
      values.commit();
    }
    if (!q.error().empty()) return fail(q);
  }
  if (!read_device_samples(process, options, out, total, error)) return false;
  if (!read_pc_samples(process, defs, options, out, total, error)) return false;
  if (skipped) *skipped = 0;
  return true;
}

}  // namespace rocprof::formats::rocpd
