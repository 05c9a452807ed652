#include "otf2/otf2_writer.hpp"

#include <otf2/otf2.h>
#include <time.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "otf2/interval_store.hpp"
#include "otf2/otf2_check.hpp"
#include "perfetto/perfetto_names.hpp"
#include "rocprof/formats/kernel_names.hpp"
#include "rocprof/formats/number_format.hpp"

// Streaming constraint. OTF2 wants every location's events in time order with Enter/Leave
// properly nested, but records reach a writer in the order they were recorded: API calls and
// ranges when they end (inner calls before the range around them), GPU activity per buffer.
// So write() keeps one 24-byte interval per record and location in an interval_store (bounded
// memory; sorted runs spill to a temporary file past the budget), and finish() reads each
// location back in time order and streams it through OTF2's chunked event writers (OTF2 holds
// one chunk per open location and flushes the rest to disk). Activities that overlap without
// nesting on one location (concurrent kernels of one queue) are split into extra "lane"
// locations at finish(), as Perfetto needs tracks.

namespace rocprof::trace {
namespace {

using otf2::interval;

enum class location_kind : uint8_t { thread, copy, allocation, compute, memory_set };

struct location_key {
  location_kind kind = location_kind::thread;
  int64_t tid = 0;
  uint64_t agent = 0;
  uint64_t queue = 0;
  bool operator<(const location_key& o) const {
    return std::tie(kind, tid, agent, queue) < std::tie(o.kind, o.tid, o.agent, o.queue);
  }
};

struct region_def {
  uint32_t name = 0;
  OTF2_RegionRole role = OTF2_REGION_ROLE_FUNCTION;
  OTF2_Paradigm paradigm = OTF2_PARADIGM_HIP;
};

struct location_def {
  uint64_t id = 0;
  uint32_t name = 0;
  OTF2_LocationType type = OTF2_LOCATION_TYPE_CPU_THREAD;
  uint32_t group = 0;
  uint64_t events = 0;
};

struct metric_sample {
  uint64_t timestamp = 0;
  uint32_t metric = 0;
  double value = 0.0;
};

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) {
  return OTF2_FLUSH;
}
// No post-flush callback: with one, OTF2 writes a BufferFlush event after every intermediate
// flush, which would change the archive's events (and their counts) with the chunk policy.
OTF2_FlushCallbacks flush_callbacks{pre_flush, nullptr};

// OTF2's default chunk pool keeps every chunk of an event writer in memory until the writer is
// closed (up to 128 MiB per writer), so the event data of the location being written (the
// largest is a constant fraction of all records) was held in memory at finish(). This pool gives
// each event writer at most event_chunks_per_writer chunks; when they are full, allocate returns
// nullptr, OTF2 flushes them to the file and calls free_all, and the same chunks are reused.
// Definition buffers (bounded by the number of distinct names) get plain heap chunks.
constexpr size_t event_chunks_per_writer = 2;
constexpr uint64_t event_chunk_size = 2 * 1024 * 1024;
constexpr uint64_t definition_chunk_size = 8 * 1024 * 1024;

struct chunk_pool {
  std::vector<void*> chunks;  // owned, each of the chunk size
  size_t used = 0;
};

void* allocate_chunk(void*, OTF2_FileType type, OTF2_LocationRef, void** per_buffer,
                     uint64_t chunk_size) {
  auto* pool = static_cast<chunk_pool*>(*per_buffer);
  if (pool == nullptr) {
    pool = new (std::nothrow) chunk_pool;
    if (pool == nullptr) return nullptr;
    *per_buffer = pool;
  }
  if (type == OTF2_FILETYPE_EVENTS && pool->used == event_chunks_per_writer)
    return nullptr;  // full: OTF2 flushes this writer's chunks and starts over
  if (pool->used < pool->chunks.size()) return pool->chunks[pool->used++];
  void* chunk = std::malloc(static_cast<size_t>(chunk_size));
  if (chunk == nullptr) return nullptr;
  pool->chunks.push_back(chunk);
  ++pool->used;
  return chunk;
}

void free_all_chunks(void*, OTF2_FileType type, OTF2_LocationRef, void** per_buffer, bool final) {
  auto* pool = static_cast<chunk_pool*>(*per_buffer);
  if (pool == nullptr) return;
  pool->used = 0;
  if (final || type != OTF2_FILETYPE_EVENTS) {
    // Definition chunks are not reused (they are written once); a closed writer's go back.
    for (void* chunk : pool->chunks)
      std::free(chunk);
    pool->chunks.clear();
  }
  if (final) {
    delete pool;
    *per_buffer = nullptr;
  }
}
OTF2_MemoryCallbacks memory_callbacks{allocate_chunk, free_all_chunks};

uint64_t clock_ns(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return static_cast<uint64_t>(t.tv_sec) * 1'000'000'000ull + static_cast<uint64_t>(t.tv_nsec);
}

class otf2_writer final : public writer {
 public:
  otf2_writer(const output_options& options, const otf2_writer_options& otf2_options)
      : options_(options),
        store_(otf2_options.memory_budget,
               std::filesystem::path(options.path_for("results", "otf2")).parent_path().string()) {}

  using writer::write;
  void begin(const trace_definitions& defs) override;
  void write(record_span<api_record> records) override;
  void write(record_span<kernel_dispatch_record> records) override;
  void write(record_span<memory_copy_record> records) override;
  void write(record_span<memory_set_record> records) override;
  void write(record_span<memory_allocation_record> records) override;
  void write(record_span<counter_value_record> records) override;
  void write(record_span<device_counter_sample_record> records) override;
  // Counter-less kinds (scratch memory, PC samples) are not written, as §7 says.
  void write(record_span<scratch_memory_record> r) override { ignore_records(r); }
  void write(record_span<pc_sample_record> r) override { ignore_records(r); }
  std::string finish() override;

 private:
  uint32_t string_ref(std::string_view text);
  uint32_t region(std::string_view name, OTF2_RegionRole role, OTF2_Paradigm paradigm);
  void add(const location_key& key, uint64_t start, uint64_t end, uint32_t region,
           uint32_t category);
  uint32_t metric_of(uint64_t counter_id);
  const agent_info* agent(uint64_t id) const {
    const auto it = agents_.find(id);
    return it != agents_.end() ? it->second : nullptr;
  }
  uint32_t group_of(uint64_t agent_id) const {
    const auto it = agent_groups_.find(agent_id);
    return it != agent_groups_.end() ? it->second : 0;
  }
  std::string location_name(const location_key& key);
  std::string agent_text(uint64_t agent_id) const;

  bool write_archive();
  bool write_events(OTF2_Archive* archive);
  bool write_definitions(OTF2_Archive* archive);

  output_options options_;
  const trace_definitions* defs_ = nullptr;
  std::optional<formats::kernel_names> kernel_names_;
  std::array<uint32_t, static_cast<size_t>(api_domain::count)> domain_category_{};
  std::string error_;

  std::vector<std::string> strings_{std::string{}};  // ref 0 is ""
  std::unordered_map<std::string, uint32_t> string_refs_{{std::string{}, 0}};
  std::vector<region_def> regions_;
  std::map<std::pair<std::string_view, int>, uint32_t> region_refs_;

  std::map<location_key, size_t> location_index_;
  std::vector<location_key> locations_;  // in order of creation; index = interval_store location
  otf2::interval_store store_;
  std::vector<location_def> location_defs_;

  std::unordered_map<uint64_t, const agent_info*> agents_;
  std::unordered_map<uint64_t, uint32_t> agent_groups_;  // agent id -> location group (1..)
  std::unordered_map<uint64_t, uint32_t> metrics_;       // counter id -> metric ref
  std::vector<uint64_t> metric_counters_;                // metric ref -> counter id
  std::map<uint64_t, std::vector<metric_sample>> samples_by_agent_;
  std::vector<counter_value_record> counter_values_;
  std::unordered_map<uint64_t, std::pair<uint64_t, uint64_t>> dispatch_ends_;  // -> (end, agent)

  uint64_t min_ts_ = ~0ull, max_ts_ = 0;
  bool began_ = false;
};

uint32_t otf2_writer::string_ref(std::string_view text) {
  const auto it = string_refs_.find(std::string(text));
  if (it != string_refs_.end()) return it->second;
  const auto ref = static_cast<uint32_t>(strings_.size());
  strings_.emplace_back(text);
  string_refs_.emplace(strings_.back(), ref);
  return ref;
}

uint32_t otf2_writer::region(std::string_view name, OTF2_RegionRole role, OTF2_Paradigm paradigm) {
  const auto key = std::make_pair(name, static_cast<int>(role));
  const auto it = region_refs_.find(key);
  if (it != region_refs_.end()) return it->second;
  const auto ref = static_cast<uint32_t>(regions_.size());
  regions_.push_back({string_ref(name), role, paradigm});
  region_refs_.emplace(key, ref);
  return ref;
}

void otf2_writer::add(const location_key& key, uint64_t start, uint64_t end, uint32_t reg,
                      uint32_t category) {
  end = std::max(start, end);
  min_ts_ = std::min(min_ts_, start);
  max_ts_ = std::max(max_ts_, end);
  const auto [it, inserted] = location_index_.emplace(key, locations_.size());
  if (inserted) locations_.push_back(key);
  store_.add(it->second, {start, end, reg, category});
}

uint32_t otf2_writer::metric_of(uint64_t counter_id) {
  const auto [it, inserted] =
      metrics_.emplace(counter_id, static_cast<uint32_t>(metric_counters_.size()));
  if (inserted) metric_counters_.push_back(counter_id);
  return it->second;
}

std::string otf2_writer::agent_text(uint64_t agent_id) const {
  const agent_info* a = agent(agent_id);
  if (a == nullptr) return "UNK 0";
  return std::string(perfetto::type_name(a)) + " " + perfetto::dashed_name(a, options_.agent_index);
}

void otf2_writer::begin(const trace_definitions& defs) {
  defs_ = &defs;
  began_ = true;
  kernel_names_.emplace(defs, options_);
  // The spill file (if the trace outgrows the memory budget) lives next to the archive.
  std::error_code ec;
  const auto parent = std::filesystem::path(options_.path_for("results", "otf2")).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  for (const auto& d : domain_table)
    domain_category_[static_cast<size_t>(d.domain)] = string_ref(d.perfetto_category);
  for (size_t i = 0; i < defs.agents.size(); ++i) {
    agents_.emplace(defs.agents[i].id, &defs.agents[i]);
    agent_groups_.emplace(defs.agents[i].id, static_cast<uint32_t>(i + 1));
  }
}

void otf2_writer::write(record_span<api_record> records) {
  if (!began_) return;
  for (const api_record& r : records) {
    const bool marker = r.domain == api_domain::marker_core_range ||
                        r.domain == api_domain::marker_control ||
                        r.domain == api_domain::marker_name;
    // Marks (instants) have no Enter/Leave form; rocprofv3 skips them too (§7).
    if (r.domain == api_domain::marker_core_range && r.start_ns == r.end_ns) continue;
    const bool cuda = r.domain == api_domain::cuda_runtime || r.domain == api_domain::cuda_driver;
    const OTF2_Paradigm paradigm = marker || r.domain == api_domain::rocdecode
                                       ? OTF2_PARADIGM_USER
                                       : (cuda ? OTF2_PARADIGM_CUDA : OTF2_PARADIGM_HIP);
    const string_id name = marker && r.message != empty_string ? r.message : r.operation;
    const uint32_t reg = region(defs_->str(name), OTF2_REGION_ROLE_FUNCTION, paradigm);
    add({location_kind::thread, r.tid, 0, 0}, r.start_ns, r.end_ns, reg,
        domain_category_[static_cast<size_t>(r.domain)]);
  }
}

void otf2_writer::write(record_span<kernel_dispatch_record> records) {
  if (!began_) return;
  const uint32_t category = string_ref("kernel_dispatch");
  for (const kernel_dispatch_record& r : records) {
    // Kernel regions are rename-aware in OTF2 (§7): the enclosing range's message with
    // --kernel-rename, else the display name the -M/-T options produced.
    std::string_view name = kernel_names_->name(r);
    if (name.empty()) name = "<unknown kernel>";
    const uint32_t reg = region(name, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_HIP);
    add({location_kind::compute, r.tid, r.agent_id, r.queue_id}, r.start_ns, r.end_ns, reg,
        category);
    if (!defs_->counters.empty())
      dispatch_ends_[r.dispatch_id] = {std::max(r.start_ns, r.end_ns), r.agent_id};
  }
}

void otf2_writer::write(record_span<memory_copy_record> records) {
  if (!began_) return;
  const uint32_t category = string_ref("memory_copy");
  for (const memory_copy_record& r : records) {
    const uint32_t reg = region(formats::copy_direction_name(r.direction),
                                OTF2_REGION_ROLE_DATA_TRANSFER, OTF2_PARADIGM_HIP);
    add({location_kind::copy, r.tid, r.dst_agent_id, 0}, r.start_ns, r.end_ns, reg, category);
  }
}

void otf2_writer::write(record_span<memory_set_record> records) {
  if (!began_) return;
  const uint32_t category = string_ref("memory_copy");
  for (const memory_set_record& r : records) {
    const uint32_t reg = region("MEMORY_SET", OTF2_REGION_ROLE_DATA_TRANSFER, OTF2_PARADIGM_HIP);
    add({location_kind::memory_set, r.tid, r.agent_id, 0}, r.start_ns, r.end_ns, reg, category);
  }
}

void otf2_writer::write(record_span<memory_allocation_record> records) {
  if (!began_) return;
  const uint32_t category = string_ref("memory_allocation");
  for (const memory_allocation_record& r : records) {
    std::string_view name = "MEMORY_ALLOCATION_NONE";
    OTF2_RegionRole role = OTF2_REGION_ROLE_ALLOCATE;
    switch (r.operation) {
      case memory_allocation_operation::allocate:
        name = "MEMORY_ALLOCATION_ALLOCATE";
        break;
      case memory_allocation_operation::vmem_allocate:
        name = "MEMORY_ALLOCATION_VMEM_ALLOCATE";
        break;
      case memory_allocation_operation::free:
        name = "MEMORY_ALLOCATION_FREE";
        role = OTF2_REGION_ROLE_DEALLOCATE;
        break;
      case memory_allocation_operation::vmem_free:
        name = "MEMORY_ALLOCATION_VMEM_FREE";
        role = OTF2_REGION_ROLE_DEALLOCATE;
        break;
      case memory_allocation_operation::none:
        break;
    }
    const uint32_t reg = region(name, role, OTF2_PARADIGM_HIP);
    add({location_kind::allocation, r.tid, r.agent_id, 0}, r.start_ns, r.end_ns, reg, category);
  }
}

void otf2_writer::write(record_span<counter_value_record> records) {
  if (!began_) return;
  // Resolved in finish(): a value may arrive before its dispatch.
  counter_values_.insert(counter_values_.end(), records.begin(), records.end());
}

void otf2_writer::write(record_span<device_counter_sample_record> records) {
  if (!began_) return;
  for (const device_counter_sample_record& s : records) {
    samples_by_agent_[s.agent_id].push_back({s.timestamp_ns, metric_of(s.counter_id), s.value});
    min_ts_ = std::min(min_ts_, s.timestamp_ns);
    max_ts_ = std::max(max_ts_, s.timestamp_ns);
  }
}

std::string otf2_writer::location_name(const location_key& key) {
  const std::string thread = "Thread " + std::to_string(key.tid);
  switch (key.kind) {
    case location_kind::thread:
      return thread;
    case location_kind::copy:
      return thread + ", Copy to " + agent_text(key.agent);
    case location_kind::allocation:
      return thread + ", Memory Operation at " + agent_text(key.agent);
    case location_kind::memory_set:
      return thread + ", Memory Set on " + agent_text(key.agent);
    case location_kind::compute:
      break;
  }
  // Queues are numbered 0.. per agent in sorted handle order (§7).
  size_t n = 0;
  std::vector<uint64_t> queues;
  for (const auto& [k, index] : location_index_)
    if (k.kind == location_kind::compute && k.agent == key.agent) queues.push_back(k.queue);
  std::sort(queues.begin(), queues.end());
  queues.erase(std::unique(queues.begin(), queues.end()), queues.end());
  n = static_cast<size_t>(std::lower_bound(queues.begin(), queues.end(), key.queue) -
                          queues.begin());
  return thread + ", Compute on " + agent_text(key.agent) + ", Queue " + std::to_string(n);
}

bool otf2_writer::write_events(OTF2_Archive* archive) {
  OTF2_AttributeList* attributes = OTF2_AttributeList_New();
  if (attributes == nullptr) {
    error_ = "OTF2_AttributeList_New failed";
    return false;
  }
  struct attribute_list_deleter {
    OTF2_AttributeList* list;
    ~attribute_list_deleter() { OTF2_AttributeList_Delete(list); }
  } delete_attributes{attributes};

  struct open_slice {
    uint64_t end;
    uint32_t region;
  };
  struct lane {
    OTF2_EvtWriter* writer;
    size_t def;
    std::vector<open_slice> stack;
  };
  uint64_t next_location = 1;  // location ids start at 1, in order of creation (§7)

  for (size_t index = 0; index < locations_.size(); ++index) {
    const location_key& key = locations_[index];
    const std::string base_name = location_name(key);
    const bool on_agent = key.kind != location_kind::thread;
    std::vector<lane> lanes;
    const auto write_interval = [&](const interval& iv) {
      lane* chosen = nullptr;
      for (lane& l : lanes) {
        while (!l.stack.empty() && l.stack.back().end <= iv.start) {
          ROCPROF_OTF2_CHECK(error_, OTF2_EvtWriter_Leave(l.writer, nullptr, l.stack.back().end,
                                                          l.stack.back().region));
          l.stack.pop_back();
        }
        if (l.stack.empty() || l.stack.back().end >= iv.end) {
          chosen = &l;
          break;
        }
      }
      if (chosen == nullptr) {
        // Overlaps everything open: a new location for this lane.
        const uint64_t id = next_location++;
        OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(archive, id);
        if (w == nullptr) {
          error_ = "OTF2_Archive_GetEvtWriter failed for location " + std::to_string(id);
          return false;
        }
        const std::string name =
            lanes.empty() ? base_name : base_name + " [lane " + std::to_string(lanes.size()) + "]";
        location_defs_.push_back(
            {id, string_ref(name),
             on_agent ? OTF2_LOCATION_TYPE_ACCELERATOR_STREAM : OTF2_LOCATION_TYPE_CPU_THREAD,
             on_agent ? group_of(key.agent) : 0, 0});
        lanes.push_back({w, location_defs_.size() - 1, {}});
        chosen = &lanes.back();
      }
      ROCPROF_OTF2_CHECK(error_, OTF2_AttributeList_AddStringRef(attributes, 0, iv.category));
      ROCPROF_OTF2_CHECK(error_,
                         OTF2_EvtWriter_Enter(chosen->writer, attributes, iv.start, iv.region));
      chosen->stack.push_back({iv.end, iv.region});
      return true;
    };
    if (!store_.drain_sorted(index, write_interval)) {
      if (error_.empty()) error_ = store_.error();
      return false;
    }
    for (lane& l : lanes) {
      while (!l.stack.empty()) {
        ROCPROF_OTF2_CHECK(error_, OTF2_EvtWriter_Leave(l.writer, nullptr, l.stack.back().end,
                                                        l.stack.back().region));
        l.stack.pop_back();
      }
      uint64_t events = 0;
      ROCPROF_OTF2_CHECK(error_, OTF2_EvtWriter_GetNumberOfEvents(l.writer, &events));
      location_defs_[l.def].events = events;
      ROCPROF_OTF2_CHECK(error_, OTF2_Archive_CloseEvtWriter(archive, l.writer));
    }
  }

  // Counter values: one metric location per agent, values at their dispatch's end.
  for (const counter_value_record& v : counter_values_) {
    const auto it = dispatch_ends_.find(v.dispatch_id);
    if (it == dispatch_ends_.end()) continue;  // no such dispatch: nothing to place it at
    samples_by_agent_[it->second.second].push_back(
        {it->second.first, metric_of(v.counter_id), v.value});
  }
  for (auto& [agent_id, samples] : samples_by_agent_) {
    std::stable_sort(
        samples.begin(), samples.end(),
        [](const metric_sample& a, const metric_sample& b) { return a.timestamp < b.timestamp; });
    const uint64_t id = next_location++;
    OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(archive, id);
    if (w == nullptr) {
      error_ = "OTF2_Archive_GetEvtWriter failed for metric location " + std::to_string(id);
      return false;
    }
    for (const metric_sample& s : samples) {
      const OTF2_Type type = OTF2_TYPE_DOUBLE;
      OTF2_MetricValue value;
      value.floating_point = s.value;
      ROCPROF_OTF2_CHECK(
          error_, OTF2_EvtWriter_Metric(w, nullptr, s.timestamp, s.metric, 1, &type, &value));
    }
    uint64_t events = 0;
    ROCPROF_OTF2_CHECK(error_, OTF2_EvtWriter_GetNumberOfEvents(w, &events));
    location_defs_.push_back({id, string_ref("Counters on " + agent_text(agent_id)),
                              OTF2_LOCATION_TYPE_METRIC, group_of(agent_id), events});
    ROCPROF_OTF2_CHECK(error_, OTF2_Archive_CloseEvtWriter(archive, w));
  }
  return true;
}

bool otf2_writer::write_definitions(OTF2_Archive* archive) {
  // Every location needs its (empty) local definition file.
  ROCPROF_OTF2_CHECK(error_, OTF2_Archive_OpenDefFiles(archive));
  for (const location_def& l : location_defs_) {
    OTF2_DefWriter* w = OTF2_Archive_GetDefWriter(archive, l.id);
    if (w == nullptr) {
      error_ = "OTF2_Archive_GetDefWriter failed for location " + std::to_string(l.id);
      return false;
    }
    ROCPROF_OTF2_CHECK(error_, OTF2_Archive_CloseDefWriter(archive, w));
  }
  ROCPROF_OTF2_CHECK(error_, OTF2_Archive_CloseDefFiles(archive));

  OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(archive);
  if (g == nullptr) {
    error_ = "OTF2_Archive_GetGlobalDefWriter failed";
    return false;
  }

  // The offset must not exceed any timestamp; the process start is used when it does not.
  uint64_t offset = min_ts_ == ~0ull ? 0 : min_ts_;
  if (defs_->process.start_ns != 0) offset = std::min(offset, defs_->process.start_ns);
  const uint64_t last = std::max(max_ts_, defs_->process.end_ns);
  const uint64_t length = last > offset ? last - offset : 0;
  const uint64_t boot_now = clock_ns(CLOCK_BOOTTIME);
  const uint64_t real_now = clock_ns(CLOCK_REALTIME);
  const uint64_t realtime = boot_now >= offset && real_now >= boot_now - offset
                                ? real_now - (boot_now - offset)
                                : OTF2_UNDEFINED_TIMESTAMP;

  // Every string a later definition names is made before the strings are written.
  const auto& command = defs_->process.command;
  const std::string exe = command.empty() ? std::string("process") : command.front();
  const uint32_t exe_ref = string_ref(exe);
  const uint32_t host_ref = string_ref(defs_->node.hostname);
  const uint32_t category_ref = string_ref("category");
  const uint32_t category_desc_ref = string_ref("tracing category");
  std::vector<uint32_t> agent_name_refs;
  for (const auto& a : defs_->agents)
    agent_name_refs.push_back(string_ref(a.name));
  struct metric_strings {
    uint32_t name, description, unit;
  };
  std::vector<metric_strings> metric_refs;
  for (const uint64_t counter_id : metric_counters_) {
    std::string name = "counter " + std::to_string(counter_id), description, unit;
    for (const auto& c : defs_->counters)
      if (c.id == counter_id) {
        name = c.name;
        description = c.description;
        unit = c.units;
      }
    metric_refs.push_back({string_ref(name), string_ref(description), string_ref(unit)});
  }

  ROCPROF_OTF2_CHECK(error_, OTF2_GlobalDefWriter_WriteClockProperties(g, 1'000'000'000ull, offset,
                                                                       length, realtime));
  for (size_t i = 0; i < strings_.size(); ++i)
    ROCPROF_OTF2_CHECK(
        error_, OTF2_GlobalDefWriter_WriteString(g, static_cast<uint32_t>(i), strings_[i].c_str()));
  ROCPROF_OTF2_CHECK(error_, OTF2_GlobalDefWriter_WriteAttribute(
                                 g, 0, category_ref, category_desc_ref, OTF2_TYPE_STRING));
  for (size_t i = 0; i < regions_.size(); ++i) {
    const region_def& r = regions_[i];
    ROCPROF_OTF2_CHECK(error_, OTF2_GlobalDefWriter_WriteRegion(g, static_cast<uint32_t>(i), r.name,
                                                                r.name, 0, r.role, r.paradigm,
                                                                OTF2_REGION_FLAG_NONE, 0, 0, 0));
  }
  ROCPROF_OTF2_CHECK(error_, OTF2_GlobalDefWriter_WriteSystemTreeNode(
                                 g, 0, exe_ref, host_ref, OTF2_UNDEFINED_SYSTEM_TREE_NODE));
  ROCPROF_OTF2_CHECK(error_, OTF2_GlobalDefWriter_WriteLocationGroup(
                                 g, 0, exe_ref, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                 OTF2_UNDEFINED_LOCATION_GROUP));
  for (size_t i = 0; i < defs_->agents.size(); ++i)
    ROCPROF_OTF2_CHECK(error_,
                       OTF2_GlobalDefWriter_WriteLocationGroup(
                           g, static_cast<uint32_t>(i + 1), agent_name_refs[i],
                           OTF2_LOCATION_GROUP_TYPE_ACCELERATOR, 0, OTF2_UNDEFINED_LOCATION_GROUP));
  for (const location_def& l : location_defs_)
    ROCPROF_OTF2_CHECK(
        error_, OTF2_GlobalDefWriter_WriteLocation(g, l.id, l.name, l.type, l.events, l.group));
  for (size_t i = 0; i < metric_refs.size(); ++i) {
    const auto ref = static_cast<uint32_t>(i);
    ROCPROF_OTF2_CHECK(error_, OTF2_GlobalDefWriter_WriteMetricMember(
                                   g, ref, metric_refs[i].name, metric_refs[i].description,
                                   OTF2_METRIC_TYPE_OTHER, OTF2_METRIC_ABSOLUTE_POINT,
                                   OTF2_TYPE_DOUBLE, OTF2_BASE_DECIMAL, 0, metric_refs[i].unit));
  }
  for (size_t i = 0; i < metric_refs.size(); ++i) {
    const auto ref = static_cast<uint32_t>(i);
    ROCPROF_OTF2_CHECK(
        error_, OTF2_GlobalDefWriter_WriteMetricClass(g, ref, 1, &ref, OTF2_METRIC_ASYNCHRONOUS,
                                                      OTF2_RECORDER_KIND_ABSTRACT));
  }
  return true;
}

bool otf2_writer::write_archive() {
  namespace fs = std::filesystem;
  const fs::path anchor = options_.path_for("results", "otf2");
  const fs::path dir = anchor.parent_path().empty() ? fs::path(".") : anchor.parent_path();
  const std::string name = anchor.stem().string();
  std::error_code ec;
  fs::create_directories(dir, ec);
  // OTF2 refuses to write over an archive: remove the previous run's, as rocprofv3 does.
  fs::remove(anchor, ec);
  fs::remove(dir / (name + ".def"), ec);
  fs::remove_all(dir / name, ec);

  OTF2_Archive* archive =
      OTF2_Archive_Open(dir.c_str(), name.c_str(), OTF2_FILEMODE_WRITE, event_chunk_size,
                        definition_chunk_size, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (archive == nullptr) {
    error_ = "OTF2_Archive_Open failed for " + (dir / name).string();
    return false;
  }
  const bool ok = [&] {
    ROCPROF_OTF2_CHECK(error_, OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, nullptr));
    ROCPROF_OTF2_CHECK(error_,
                       OTF2_Archive_SetMemoryCallbacks(archive, &memory_callbacks, nullptr));
    ROCPROF_OTF2_CHECK(error_, OTF2_Archive_SetSerialCollectiveCallbacks(archive));
    ROCPROF_OTF2_CHECK(error_, OTF2_Archive_SetCreator(archive, "rocprofv3-compatible profiler"));
    if (!defs_->node.hostname.empty())
      ROCPROF_OTF2_CHECK(error_,
                         OTF2_Archive_SetMachineName(archive, defs_->node.hostname.c_str()));
    ROCPROF_OTF2_CHECK(error_, OTF2_Archive_OpenEvtFiles(archive));
    if (!write_events(archive)) return false;
    ROCPROF_OTF2_CHECK(error_, OTF2_Archive_CloseEvtFiles(archive));
    return write_definitions(archive);
  }();
  const OTF2_ErrorCode closed = OTF2_Archive_Close(archive);
  if (ok && closed != OTF2_SUCCESS) {
    error_ = otf2::describe_failure("OTF2_Archive_Close(archive)", __FILE__, __LINE__, closed);
    return false;
  }
  return ok;
}

std::string otf2_writer::finish() {
  if (!began_) return "otf2 writer: finish() without begin()";
  if (!write_archive()) return "otf2 writer: " + error_;
  return {};
}

}  // namespace

std::unique_ptr<writer> make_otf2_writer(const output_options& options) {
  return make_otf2_writer(options, otf2_writer_options{});
}

std::unique_ptr<writer> make_otf2_writer(const output_options& options,
                                         const otf2_writer_options& otf2_options) {
  return std::make_unique<otf2_writer>(options, otf2_options);
}

}  // namespace rocprof::trace
