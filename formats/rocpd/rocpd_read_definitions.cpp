// rocpd reader: one process's definition tables (strings, node, process, threads, agents,
// queues, streams, counters, code objects, kernel symbols) back into trace_definitions. Every
// column is named by its declaration in rocpd_tables.hpp.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "common/json_object.hpp"
#include "rocpd/rocpd_reader_impl.hpp"
#include "rocpd/rocpd_tables.hpp"
#include "rocpd/table_select.hpp"

namespace rocprof::formats::rocpd {

using namespace rocprof::trace;

namespace {

using ojson = nlohmann::ordered_json;

uint64_t json_u64(const ojson& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<uint64_t>() : 0;
}
uint32_t json_u32(const ojson& j, const char* key) {
  return static_cast<uint32_t>(json_u64(j, key));
}

// The KFD words agent_json() splits into bit fields, packed again (same layouts).
uint64_t pack(const ojson& j, const char* key,
              std::initializer_list<std::pair<const char*, unsigned>> fields) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_object()) return 0;
  uint64_t word = 0;
  for (const auto& [name, offset] : fields)
    word |= json_u64(*it, name) << offset;
  return word;
}

void dim3_from(const ojson& j, const char* key, uint32_t (&v)[3]) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_object()) return;
  v[0] = json_u32(*it, "x");
  v[1] = json_u32(*it, "y");
  v[2] = json_u32(*it, "z");
}

// The agent's numeric fields from its extdata (agent_json()'s object, or AMD's equivalent).
void agent_fields(agent_info& a, const ojson& j) {
  a.cpu_cores_count = json_u32(j, "cpu_cores_count");
  a.simd_count = json_u32(j, "simd_count");
  a.cpu_core_id_base = json_u32(j, "cpu_core_id_base");
  a.simd_id_base = json_u32(j, "simd_id_base");
  a.max_waves_per_simd = json_u32(j, "max_waves_per_simd");
  a.lds_size_in_kb = json_u32(j, "lds_size_in_kb");
  a.gds_size_in_kb = json_u32(j, "gds_size_in_kb");
  a.num_gws = json_u32(j, "num_gws");
  a.wave_front_size = json_u32(j, "wave_front_size");
  a.num_xcc = json_u32(j, "num_xcc");
  a.cu_count = json_u32(j, "cu_count");
  a.array_count = json_u32(j, "array_count");
  a.num_shader_banks = json_u32(j, "num_shader_banks");
  a.simd_arrays_per_engine = json_u32(j, "simd_arrays_per_engine");
  a.cu_per_simd_array = json_u32(j, "cu_per_simd_array");
  a.simd_per_cu = json_u32(j, "simd_per_cu");
  a.max_slots_scratch_cu = json_u32(j, "max_slots_scratch_cu");
  a.gfx_target_version = json_u32(j, "gfx_target_version");
  a.vendor_id = json_u32(j, "vendor_id");
  a.device_id = json_u32(j, "device_id");
  a.location_id = json_u32(j, "location_id");
  a.domain = json_u32(j, "domain");
  a.drm_render_minor = json_u32(j, "drm_render_minor");
  a.num_sdma_engines = json_u32(j, "num_sdma_engines");
  a.num_sdma_xgmi_engines = json_u32(j, "num_sdma_xgmi_engines");
  a.num_sdma_queues_per_engine = json_u32(j, "num_sdma_queues_per_engine");
  a.num_cp_queues = json_u32(j, "num_cp_queues");
  a.max_engine_clk_ccompute = json_u32(j, "max_engine_clk_ccompute");
  a.max_engine_clk_fcompute = json_u32(j, "max_engine_clk_fcompute");
  a.sdma_fw_version = pack(j, "sdma_fw_version", {{"uCodeSDMA", 0}, {"uCodeRes", 10}});
  a.fw_version =
      pack(j, "fw_version", {{"uCode", 0}, {"Major", 10}, {"Minor", 16}, {"Stepping", 24}});
  a.capability = pack(j, "capability",
                      {{"HotPluggable", 0},
                       {"HSAMMUPresent", 1},
                       {"SharedWithGraphics", 2},
                       {"QueueSizePowerOfTwo", 3},
                       {"QueueSize32bit", 4},
                       {"QueueIdleEvent", 5},
                       {"VALimit", 6},
                       {"WatchPointsSupported", 7},
                       {"WatchPointsTotalBits", 8},
                       {"DoorbellType", 12},
                       {"AQLQueueDoubleMap", 14},
                       {"DebugTrapSupported", 15},
                       {"WaveLaunchTrapOverrideSupported", 16},
                       {"WaveLaunchModeSupported", 17},
                       {"PreciseMemoryOperationsSupported", 18},
                       {"DEPRECATED_SRAM_EDCSupport", 19},
                       {"Mem_EDCSupport", 20},
                       {"RASEventNotify", 21},
                       {"ASICRevision", 22},
                       {"SRAM_EDCSupport", 26},
                       {"SVMAPISupported", 27},
                       {"CoherentHostAccess", 28},
                       {"DebugSupportedFirmware", 29}});
  a.cu_per_engine = json_u32(j, "cu_per_engine");
  a.max_waves_per_cu = json_u32(j, "max_waves_per_cu");
  a.family_id = json_u32(j, "family_id");
  a.workgroup_max_size = json_u32(j, "workgroup_max_size");
  a.grid_max_size = json_u64(j, "grid_max_size");
  a.local_mem_size = json_u64(j, "local_mem_size");
  a.hive_id = json_u64(j, "hive_id");
  a.gpu_id = json_u64(j, "gpu_id");
  dim3_from(j, "workgroup_max_dim", a.workgroup_max_dim);
  dim3_from(j, "grid_max_dim", a.grid_max_dim);
  if (const auto it = j.find("device_uuid"); it != j.end() && it->is_string())
    a.uuid = it->get<std::string>();
  // The backend's own extras (agent_json() merged them into the object): what is left once
  // the keys it writes itself are removed.
  static const char* const own_keys[] = {"size",
                                         "id",
                                         "type",
                                         "mem_banks_count",
                                         "caches_count",
                                         "io_links_count",
                                         "node_id",
                                         "logical_node_id",
                                         "logical_node_type_id",
                                         "runtime_visibility",
                                         "uuid",
                                         "mem_banks",
                                         "caches",
                                         "io_links",
                                         "gpu_index",
                                         "handle",
                                         "device_uuid",
                                         "name",
                                         "vendor_name",
                                         "product_name",
                                         "model_name",
                                         "sdma_fw_version",
                                         "fw_version",
                                         "capability",
                                         "workgroup_max_dim",
                                         "grid_max_dim"};
  static const char* const model_keys[] = {"cpu_cores_count",
                                           "simd_count",
                                           "cpu_core_id_base",
                                           "simd_id_base",
                                           "max_waves_per_simd",
                                           "lds_size_in_kb",
                                           "gds_size_in_kb",
                                           "num_gws",
                                           "wave_front_size",
                                           "num_xcc",
                                           "cu_count",
                                           "array_count",
                                           "num_shader_banks",
                                           "simd_arrays_per_engine",
                                           "cu_per_simd_array",
                                           "simd_per_cu",
                                           "max_slots_scratch_cu",
                                           "gfx_target_version",
                                           "vendor_id",
                                           "device_id",
                                           "location_id",
                                           "domain",
                                           "drm_render_minor",
                                           "num_sdma_engines",
                                           "num_sdma_xgmi_engines",
                                           "num_sdma_queues_per_engine",
                                           "num_cp_queues",
                                           "max_engine_clk_ccompute",
                                           "max_engine_clk_fcompute",
                                           "cu_per_engine",
                                           "max_waves_per_cu",
                                           "family_id",
                                           "workgroup_max_size",
                                           "grid_max_size",
                                           "local_mem_size",
                                           "hive_id",
                                           "gpu_id"};
  ojson extras = j;
  for (const char* key : own_keys)
    extras.erase(key);
  for (const char* key : model_keys)
    extras.erase(key);
  a.extdata_json = extras.dump();
}

agent_type agent_type_of(std::string_view text) {
  if (text == "CPU") return agent_type::cpu;
  if (text == "GPU") return agent_type::gpu;
  return agent_type::unknown;
}

}  // namespace

bool reader_impl::read_strings(size_t process, trace_definitions& defs, std::string* error) {
  using col = string_table::column;
  table_select q{db_};
  const int id = q.column<string_table>("S", col::id);
  const int text = q.column<string_table>("S", col::string);
  if (!q.prepare("FROM " + table(process, "rocpd_string") + " S ORDER BY S.id")) {
    *error = path_ + ": " + q.error();
    return false;
  }
  defs.strings.assign(1, std::string{});
  string_ids_.clear();
  while (q.step()) {
    const auto i = static_cast<size_t>(q.i64(id));
    if (i == 0 || i > (size_t{1} << 31)) continue;
    if (defs.strings.size() <= i) defs.strings.resize(i + 1);
    defs.strings[i] = std::string{q.text(text)};
    string_ids_.emplace(defs.strings[i], static_cast<string_id>(i));
  }
  string_ids_.emplace(std::string{}, empty_string);
  if (processes_[process].strings_complete) return true;
  // A database of AMD's keeps marker messages only in event extdata: intern them now, before
  // the writers see the definitions.
  table_select m{db_};
  const int message = m.expression("DISTINCT json_extract(E.extdata, '$.message')");
  if (!m.prepare("FROM " + table(process, "rocpd_event") +
                 " E WHERE E.extdata <> '{}' AND json_valid(E.extdata) AND "
                 "json_type(E.extdata, '$.message') = 'text'")) {
    *error = path_ + ": " + m.error();
    return false;
  }
  while (m.step()) {
    std::string s{m.text(message)};
    if (string_ids_.count(s) != 0) continue;
    defs.strings.push_back(s);
    string_ids_.emplace(std::move(s), static_cast<string_id>(defs.strings.size() - 1));
  }
  return true;
}

bool reader_impl::read_definitions(size_t process, trace_definitions& defs, std::string* error) {
  defs = trace_definitions{};
  if (!read_strings(process, defs, error)) return false;
  const auto from = [&](std::string_view base, const char* alias) {
    return "FROM " + table(process, base) + " " + alias;
  };
  const auto fail = [&](const table_select& q) {
    *error = path_ + ": " + q.error();
    return false;
  };
  {
    using col = info_node_table::column;
    table_select q{db_};
    const int id = q.column<info_node_table>("N", col::id);
    const int hash = q.column<info_node_table>("N", col::hash);
    const int machine = q.column<info_node_table>("N", col::machine_id);
    const int system = q.column<info_node_table>("N", col::system_name);
    const int host = q.column<info_node_table>("N", col::hostname);
    const int release = q.column<info_node_table>("N", col::release);
    const int version = q.column<info_node_table>("N", col::version);
    const int hardware = q.column<info_node_table>("N", col::hardware_name);
    const int domain = q.column<info_node_table>("N", col::domain_name);
    if (!q.prepare(from("rocpd_info_node", "N") + " LIMIT 1")) return fail(q);
    if (q.step()) {
      auto& n = defs.node;
      n.id = q.u64(id);
      n.hash = q.u64(hash);
      n.machine_id = q.text(machine);
      n.system_name = q.text(system);
      n.hostname = q.text(host);
      n.release = q.text(release);
      n.version = q.text(version);
      n.hardware_name = q.text(hardware);
      n.domain_name = q.text(domain);
    }
  }
  {
    using col = info_process_table::column;
    table_select q{db_};
    const int pid = q.column<info_process_table>("P", col::pid);
    const int ppid = q.column<info_process_table>("P", col::ppid);
    const int init = q.column<info_process_table>("P", col::init);
    const int fini = q.column<info_process_table>("P", col::fini);
    const int start = q.column<info_process_table>("P", col::start);
    const int end = q.column<info_process_table>("P", col::end);
    const int command = q.column<info_process_table>("P", col::command);
    const int environment = q.column<info_process_table>("P", col::environment);
    const int extdata = q.column<info_process_table>("P", col::extdata);
    if (!q.prepare(from("rocpd_info_process", "P") + " LIMIT 1")) return fail(q);
    if (q.step()) {
      auto& p = defs.process;
      p.pid = q.i64(pid);
      p.ppid = q.i64(ppid);
      p.init_ns = q.u64(init);
      p.fini_ns = q.u64(fini);
      p.start_ns = q.u64(start);
      p.end_ns = q.u64(end);
      const std::string cmd{q.text(command)};
      for (size_t b = 0; b < cmd.size();) {
        size_t e = cmd.find(' ', b);
        if (e == std::string::npos) e = cmd.size();
        if (e > b) p.command.push_back(cmd.substr(b, e - b));
        b = e + 1;
      }
      const auto env = parse_json_object(q.text(environment));
      for (const auto& [k, v] : env.items())
        p.environment[k] = v.is_string() ? v.get<std::string>() : v.dump();
      const auto config = parse_json_object(q.text(extdata));
      p.config_json = config.empty() ? std::string{} : config.dump();
    }
    const auto& src = processes_[process];
    defs.process.mpi_rank = src.mpi_rank;
    defs.process.mpi_size = src.mpi_size;
    defs.process.realtime_offset_start_ns = src.realtime_offset_start_ns;
    defs.process.realtime_offset_end_ns = src.realtime_offset_end_ns;
  }
  {
    using col = info_thread_table::column;
    table_select q{db_};
    const int tid = q.column<info_thread_table>("T", col::tid);
    const int name = q.column<info_thread_table>("T", col::name);
    const int start = q.column<info_thread_table>("T", col::start);
    const int end = q.column<info_thread_table>("T", col::end);
    if (!q.prepare(from("rocpd_info_thread", "T") + " ORDER BY T.rowid")) return fail(q);
    while (q.step())
      defs.threads.push_back({q.i64(tid), std::string{q.text(name)}, q.u64(start), q.u64(end)});
  }
  {
    using col = info_agent_table::column;
    table_select q{db_};
    const int id = q.column<info_agent_table>("A", col::id);
    const int type = q.column<info_agent_table>("A", col::type);
    const int absolute = q.column<info_agent_table>("A", col::absolute_index);
    const int logical = q.column<info_agent_table>("A", col::logical_index);
    const int type_index = q.column<info_agent_table>("A", col::type_index);
    const int name = q.column<info_agent_table>("A", col::name);
    const int model = q.column<info_agent_table>("A", col::model_name);
    const int vendor = q.column<info_agent_table>("A", col::vendor_name);
    const int product = q.column<info_agent_table>("A", col::product_name);
    const int extdata = q.column<info_agent_table>("A", col::extdata);
    if (!q.prepare(from("rocpd_info_agent", "A") + " ORDER BY A.rowid")) return fail(q);
    agent_handles_.clear();
    while (q.step()) {
      agent_info a;
      const auto j = parse_json_object(q.text(extdata));
      agent_fields(a, j);
      // Records hold agent rows; the agent keeps the handle of its run (ours and AMD's
      // extdata carry it as id.handle), so every format shows what the live run showed.
      a.id = q.u64(id);
      if (const auto h = j.find("id"); h != j.end() && h->is_object())
        a.id = json_u64(*h, "handle");
      agent_handles_.emplace(q.i64(id), a.id);
      a.type = agent_type_of(q.text(type));
      a.node_id = static_cast<uint32_t>(q.u64(absolute));
      a.logical_node_id = static_cast<uint32_t>(q.u64(logical));
      a.logical_node_type_id = static_cast<uint32_t>(q.u64(type_index));
      a.name = q.text(name);
      a.model_name = q.text(model);
      a.vendor_name = q.text(vendor);
      a.product_name = q.text(product);
      defs.agents.push_back(std::move(a));
    }
  }
  const auto handle_of = [this](int64_t row) {
    const auto it = agent_handles_.find(row);
    return it != agent_handles_.end() ? it->second : static_cast<uint64_t>(row);
  };
  const auto named_rows = [&](std::string_view base, auto& out) {
    using col = info_queue_table::column;  // rocpd_info_stream has the same columns
    table_select q{db_};
    const int id = q.column<info_queue_table>("Q", col::id);
    const int name = q.column<info_queue_table>("Q", col::name);
    if (!q.prepare(from(base, "Q") + " ORDER BY Q.rowid")) return fail(q);
    while (q.step())
      out.push_back({q.u64(id), std::string{q.text(name)}});
    return true;
  };
  if (!named_rows("rocpd_info_queue", defs.queues) ||
      !named_rows("rocpd_info_stream", defs.streams))
    return false;
  {
    using col = info_pmc_table::column;
    table_select q{db_};
    const int id = q.column<info_pmc_table>("C", col::id);
    const int agent = q.column<info_pmc_table>("C", col::agent_id);
    const int name = q.column<info_pmc_table>("C", col::name);
    const int description = q.column<info_pmc_table>("C", col::description);
    const int block = q.column<info_pmc_table>("C", col::block);
    const int expression = q.column<info_pmc_table>("C", col::expression);
    const int units = q.column<info_pmc_table>("C", col::units);
    const int constant = q.column<info_pmc_table>("C", col::is_constant);
    const int derived = q.column<info_pmc_table>("C", col::is_derived);
    if (!q.prepare(from("rocpd_info_pmc", "C") + " ORDER BY C.rowid")) return fail(q);
    while (q.step()) {
      counter_info c;
      c.id = q.u64(id);
      c.agent_id = handle_of(q.i64(agent));
      c.name = q.text(name);
      c.description = q.text(description);
      c.block = q.text(block);
      c.expression = q.text(expression);
      c.units = q.text(units);
      c.is_constant = q.i64(constant) != 0;
      c.is_derived = q.i64(derived) != 0;
      defs.counters.push_back(std::move(c));
    }
  }
  {
    using col = info_code_object_table::column;
    table_select q{db_};
    const int id = q.column<info_code_object_table>("O", col::id);
    const int agent = q.column<info_code_object_table>("O", col::agent_id);
    const int uri = q.column<info_code_object_table>("O", col::uri);
    const int base = q.column<info_code_object_table>("O", col::load_base);
    const int size = q.column<info_code_object_table>("O", col::load_size);
    const int delta = q.column<info_code_object_table>("O", col::load_delta);
    const int storage = q.column<info_code_object_table>("O", col::storage_type);
    const int extdata = q.column<info_code_object_table>("O", col::extdata);
    if (!q.prepare(from("rocpd_info_code_object", "O") + " ORDER BY O.rowid")) return fail(q);
    while (q.step()) {
      code_object_info c;
      c.id = q.u64(id);
      c.agent_id = handle_of(q.i64(agent));
      c.uri = q.text(uri);
      c.load_base = q.u64(base);
      c.load_size = q.u64(size);
      c.load_delta = q.u64(delta);
      c.storage_is_file = q.text(storage) == "FILE";
      auto j = parse_json_object(q.text(extdata));
      c.size = json_u64(j, "size");
      c.memory_base = json_u64(j, "memory_base");
      c.memory_size = json_u64(j, "memory_size");
      for (const char* key : {"size", "storage_type", "memory_base", "memory_size"})
        j.erase(key);
      c.extdata_json = j.dump();
      defs.code_objects.push_back(std::move(c));
    }
  }
  {
    using col = info_kernel_symbol_table::column;
    using T = info_kernel_symbol_table;
    table_select q{db_};
    const int id = q.column<T>("K", col::id);
    const int code_object = q.column<T>("K", col::code_object_id);
    const int kernel_name = q.column<T>("K", col::kernel_name);
    const int display = q.column<T>("K", col::display_name);
    const int object = q.column<T>("K", col::kernel_object);
    const int kernarg_size = q.column<T>("K", col::kernarg_segment_size);
    const int kernarg_alignment = q.column<T>("K", col::kernarg_segment_alignment);
    const int group = q.column<T>("K", col::group_segment_size);
    const int priv = q.column<T>("K", col::private_segment_size);
    const int sgpr = q.column<T>("K", col::sgpr_count);
    const int vgpr = q.column<T>("K", col::arch_vgpr_count);
    const int accum = q.column<T>("K", col::accum_vgpr_count);
    const int extdata = q.column<T>("K", col::extdata);
    if (!q.prepare(from("rocpd_info_kernel_symbol", "K") + " ORDER BY K.rowid")) return fail(q);
    while (q.step()) {
      kernel_symbol_info k;
      k.kernel_id = q.u64(id);
      k.code_object_id = q.u64(code_object);
      k.mangled_name = q.text(kernel_name);
      k.display_name = q.text(display);
      k.kernel_object = q.u64(object);
      k.kernarg_segment_size = static_cast<uint32_t>(q.u64(kernarg_size));
      k.kernarg_segment_alignment = static_cast<uint32_t>(q.u64(kernarg_alignment));
      k.group_segment_size = static_cast<uint32_t>(q.u64(group));
      k.private_segment_size = static_cast<uint32_t>(q.u64(priv));
      k.sgpr_count = static_cast<uint32_t>(q.u64(sgpr));
      k.arch_vgpr_count = static_cast<uint32_t>(q.u64(vgpr));
      k.accum_vgpr_count = static_cast<uint32_t>(q.u64(accum));
      auto j = parse_json_object(q.text(extdata));
      if (const auto it = j.find("demangled_kernel_name"); it != j.end() && it->is_string())
        k.demangled_name = it->get<std::string>();
      if (const auto it = j.find("truncated_kernel_name"); it != j.end() && it->is_string())
        k.truncated_name = it->get<std::string>();
      for (const char* key :
           {"size", "kernel_id", "kernel_code_entry_byte_offset", "formatted_kernel_name",
            "demangled_kernel_name", "truncated_kernel_name", "kernel_address"})
        j.erase(key);
      k.extdata_json = j.dump();
      defs.kernel_symbols.push_back(std::move(k));
    }
  }
  return true;
}

}  // namespace rocprof::formats::rocpd
