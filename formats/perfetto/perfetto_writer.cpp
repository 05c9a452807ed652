#include "perfetto/perfetto_writer.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "perfetto/perfetto_fields.hpp"
#include "perfetto/perfetto_names.hpp"
#include "perfetto/proto_encoder.hpp"
#include "perfetto/track_lanes.hpp"
#include "rocprof/formats/number_format.hpp"

namespace rocprof::trace {
namespace {

namespace pf = perfetto::fields;
using perfetto::proto_encoder;
using perfetto::track_lanes;

// Debug annotation names (rocprofv3-facts.md §6), interned once per sequence: iid = index + 1.
enum class arg : uint32_t {
  begin_ns = 1,
  end_ns,
  delta_ns,
  tid,
  kind,
  operation,
  corr_id,
  ancestor_id,
  stream_id,
  src_agent,
  dst_agent,
  copy_bytes,
  agent,
  agent_type,
  queue,
  kernel_id,
  scratch_size,
  lds_block_size,
  vgpr_count,
  accum_vgpr_count,
  sgpr_count,
  workgroup_size,
  grid_size,
  message,
  end_of_list
};
constexpr std::array<std::string_view, static_cast<size_t>(arg::end_of_list) - 1> arg_names{
    {"begin_ns",   "end_ns",         "delta_ns",       "tid",        "kind",
     "operation",  "corr_id",        "ancestor_id",    "stream_ID",  "src_agent",
     "dst_agent",  "copy_bytes",     "agent",          "agent_type", "queue",
     "kernel_id",  "Scratch_Size",   "LDS_Block_Size", "VGPR_Count", "Accum_VGPR_Count",
     "SGPR_Count", "workgroup_size", "grid_size",      "message"}};

// Track-event categories of rocprofv3 (§6) plus cuda_api for the CUDA domains; iid = index + 1.
constexpr std::array<std::string_view, 15> category_names{
    {"hsa_api", "hip_api", "marker_api", "rccl_api", "openmp", "kernel_dispatch", "memory_copy",
     "memory_allocation", "rocdecode_api", "rocjpeg_api", "counter_collection", "kfd_events",
     "scratch_memory", "none", "cuda_api"}};

uint32_t category_iid(std::string_view name) {
  for (size_t i = 0; i < category_names.size(); ++i)
    if (category_names[i] == name) return static_cast<uint32_t>(i + 1);
  return 14;  // "none"
}

uint64_t fnv1a(std::string_view text, uint64_t hash = 1469598103934665603ull) {
  for (const char c : text) {
    hash ^= static_cast<uint8_t>(c);
    hash *= 1099511628211ull;
  }
  return hash;
}

uint64_t mix(uint64_t x) {  // splitmix64 finaliser: spreads pid bits over the whole word
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

// One packet sequence per slice track (lane). Its TracePacketDefaults name the track, so slice
// packets carry no track uuid (7 bytes saved twice per slice), and its interned names are its
// own (iids are scoped to a sequence). Names are keyed by their characters' address: every name
// we write lives in the definitions or in static storage until finish(), and a name met under
// two addresses is merely interned twice.
struct lane_sequence {
  uint64_t track_uuid = 0;
  uint32_t id = 0;
  std::unordered_map<const char*, uint32_t> name_iids;
  std::vector<std::pair<uint32_t, std::string_view>> pending_names;  // defined with next slice
};

enum class gpu_track_kind : uint8_t { stream, compute_queue, copy };
enum class counter_kind : uint8_t {
  copy_bytes,
  allocated_bytes,
  free_bytes,
  scratch,
  pmc,
  device_sample
};

struct lane_track {
  track_lanes lanes;
  std::vector<std::unique_ptr<lane_sequence>> sequences;  // one per lane; lane 0 is the track
  std::string name;
  uint64_t parent = 0;
  bool lanes_under_first = false;  // thread tracks: extra lanes are children of the thread
};

class perfetto_writer final : public writer {
 public:
  perfetto_writer(const output_options& options, const perfetto_writer_options& popts)
      : options_(options), popts_(popts), out_(popts.chunk_size) {}

  using writer::write;  // pc samples have no Perfetto form and keep the base no-op
  void begin(const trace_definitions& defs) override;
  void write(record_span<api_record> records) override;
  void write(record_span<kernel_dispatch_record> records) override;
  void write(record_span<memory_copy_record> records) override;
  void write(record_span<memory_set_record> records) override;
  void write(record_span<memory_allocation_record> records) override;
  void write(record_span<scratch_memory_record> records) override;
  void write(record_span<counter_value_record> records) override;
  void write(record_span<device_counter_sample_record> records) override;
  std::string finish() override;

 private:
  // --- identity -------------------------------------------------------------------------------
  // Uuids are (process hash: 28 bits, local id: 20 bits), 48 bits in all, so that a uuid costs
  // 7 bytes on the wire instead of 10 while processes still get disjoint ranges.
  uint64_t new_uuid() { return ((process_hash_ & 0xfffffffull) << 20) | (++last_local_id_); }
  uint64_t flow_id(uint64_t correlation) const {
    const uint64_t id = process_hash_ ^ correlation;
    return id != 0 ? id : 1;
  }

  // --- packets --------------------------------------------------------------------------------
  proto_encoder::message_token start_packet(uint64_t timestamp, uint64_t flags) {
    return start_packet_on(sequence_id_, timestamp, flags);
  }
  proto_encoder::message_token start_packet_on(uint32_t sequence, uint64_t timestamp,
                                               uint64_t flags) {
    const auto packet = out_.begin_packet();
    if (timestamp != 0) out_.add_varint(pf::trace_packet::timestamp, timestamp);
    out_.add_varint(pf::trace_packet::trusted_packet_sequence_id, sequence);
    if (flags != 0) out_.add_varint(pf::trace_packet::sequence_flags, flags);
    return packet;
  }
  void describe_track(uint64_t uuid, uint64_t parent, std::string_view name);
  void describe_thread(uint64_t uuid, int64_t tid, std::string_view name);
  void describe_counter(uint64_t uuid, std::string_view name, bool bytes);
  void start_sequence(lane_sequence& sequence);
  void write_interned_tables();

  template <typename Args>
  void slice(lane_sequence& lane, uint64_t start, uint64_t end, std::string_view name,
             uint32_t category, uint64_t flow, bool terminating, Args&& args);
  void counter(uint64_t timestamp, uint64_t track, double value);
  void counter(uint64_t timestamp, uint64_t track, int64_t value);

  void arg_uint(arg id, uint64_t value);
  void arg_int(arg id, int64_t value);
  void arg_string(arg id, std::string_view value);

  // --- tracks ---------------------------------------------------------------------------------
  lane_track& thread_track(int64_t tid);
  std::string default_thread_name(int64_t tid);
  lane_sequence& place(lane_track& track, uint64_t start, uint64_t end);
  void add_thread_lane(lane_track& track, int64_t tid);
  lane_track& gpu_track(gpu_track_kind kind, uint64_t a, uint64_t b, const agent_info* agent);
  uint64_t counter_track(counter_kind kind, uint64_t agent_id, uint64_t counter_id);
  const agent_info* agent(uint64_t id) const {
    const auto it = agents_.find(id);
    return it != agents_.end() ? it->second : nullptr;
  }

  void emit_pmc(const counter_value_record& value, uint64_t start, uint64_t end);

  output_options options_;
  perfetto_writer_options popts_;
  proto_encoder out_;
  const trace_definitions* defs_ = nullptr;
  uint64_t process_hash_ = 0;
  uint32_t sequence_id_ = 1;
  uint64_t last_local_id_ = 0;
  uint64_t process_uuid_ = 0;
  bool stream_mode_ = true;

  uint32_t last_sequence_id_ = 0;
  std::unordered_map<uint64_t, const kernel_symbol_info*> kernels_;
  std::unordered_map<uint64_t, const agent_info*> agents_;
  std::unordered_map<uint64_t, std::string_view> counter_names_;

  std::unordered_map<int64_t, lane_track> threads_;
  size_t thread_counter_ = 0;
  std::string process_name_;
  std::map<std::tuple<gpu_track_kind, uint64_t, uint64_t>, lane_track> gpu_tracks_;
  std::map<std::tuple<counter_kind, uint64_t, uint64_t>, uint64_t> counter_tracks_;
  std::unordered_map<uint64_t, size_t> queues_per_agent_;
  std::unordered_map<int64_t, size_t> copy_thread_index_;

  // Allocation accounting: live allocations by address, running totals by agent.
  std::unordered_map<uint64_t, std::pair<uint64_t, uint64_t>> live_allocations_;
  std::unordered_map<uint64_t, int64_t> allocated_bytes_;

  // Counter values need their dispatch's time span; kept only when counters were collected.
  struct dispatch_span {
    uint64_t start, end;
  };
  std::unordered_map<uint64_t, dispatch_span> dispatch_spans_;
  std::vector<counter_value_record> pending_counter_values_;
  bool keep_dispatch_spans_ = false;
  bool began_ = false;
};

// --------------------------------------------------------------------------------------------

void perfetto_writer::describe_track(uint64_t uuid, uint64_t parent, std::string_view name) {
  const auto packet = start_packet(0, 0);
  const auto td = out_.begin_message(pf::trace_packet::track_descriptor);
  out_.add_varint(pf::track_descriptor::uuid, uuid);
  if (parent != 0) out_.add_varint(pf::track_descriptor::parent_uuid, parent);
  out_.add_bytes(pf::track_descriptor::name, name);
  out_.end_message(td);
  out_.end_packet(packet);
}

void perfetto_writer::describe_thread(uint64_t uuid, int64_t tid, std::string_view name) {
  const auto packet = start_packet(0, 0);
  const auto td = out_.begin_message(pf::trace_packet::track_descriptor);
  out_.add_varint(pf::track_descriptor::uuid, uuid);
  out_.add_varint(pf::track_descriptor::parent_uuid, process_uuid_);
  const auto thread = out_.begin_message(pf::track_descriptor::thread);
  out_.add_int64(pf::thread_descriptor::pid, defs_->process.pid);
  out_.add_int64(pf::thread_descriptor::tid, tid);
  out_.add_bytes(pf::thread_descriptor::thread_name, name);
  out_.end_message(thread);
  out_.end_message(td);
  out_.end_packet(packet);
}

void perfetto_writer::describe_counter(uint64_t uuid, std::string_view name, bool bytes) {
  const auto packet = start_packet(0, 0);
  const auto td = out_.begin_message(pf::trace_packet::track_descriptor);
  out_.add_varint(pf::track_descriptor::uuid, uuid);
  out_.add_varint(pf::track_descriptor::parent_uuid, process_uuid_);
  out_.add_bytes(pf::track_descriptor::name, name);
  const auto cd = out_.begin_message(pf::track_descriptor::counter);
  out_.add_varint(pf::counter_descriptor::unit, bytes ? pf::counter_descriptor::unit_size_bytes
                                                      : pf::counter_descriptor::unit_count);
  out_.end_message(cd);
  out_.end_message(td);
  out_.end_packet(packet);
}

void perfetto_writer::write_interned_tables() {
  const auto interned = out_.begin_message(pf::trace_packet::interned_data);
  for (size_t i = 0; i < category_names.size(); ++i) {
    const auto e = out_.begin_message(pf::interned_data::event_categories);
    out_.add_varint(pf::interned_data::entry_iid, i + 1);
    out_.add_bytes(pf::interned_data::entry_name, category_names[i]);
    out_.end_message(e);
  }
  if (popts_.debug_annotations) {
    for (size_t i = 0; i < arg_names.size(); ++i) {
      const auto e = out_.begin_message(pf::interned_data::debug_annotation_names);
      out_.add_varint(pf::interned_data::entry_iid, i + 1);
      out_.add_bytes(pf::interned_data::entry_name, arg_names[i]);
      out_.end_message(e);
    }
  }
  out_.end_message(interned);
}

// First packet of a lane's sequence: clears incremental state, sets the lane's track as the
// default and interns the fixed tables (categories, annotation names).
void perfetto_writer::start_sequence(lane_sequence& sequence) {
  // Sequence ids: the process's base id, then one per lane, wrapping below 2^28 so an id takes
  // at most 4 varint bytes in every packet; never 0.
  sequence.id = 1 + (sequence_id_ + ++last_sequence_id_) % ((1u << 28) - 2);
  const auto packet = start_packet_on(
      sequence.id, 0,
      pf::sequence_flags::incremental_state_cleared | pf::sequence_flags::needs_incremental_state);
  out_.add_bool(pf::trace_packet::first_packet_on_sequence, true);
  const auto defaults = out_.begin_message(pf::trace_packet::trace_packet_defaults);
  const auto te_defaults = out_.begin_message(pf::trace_packet_defaults::track_event_defaults);
  out_.add_varint(pf::track_event_defaults::track_uuid, sequence.track_uuid);
  out_.end_message(te_defaults);
  out_.end_message(defaults);
  write_interned_tables();
  out_.end_packet(packet);
}

template <typename Args>
void perfetto_writer::slice(lane_sequence& lane, uint64_t start, uint64_t end,
                            std::string_view name, uint32_t category, uint64_t flow,
                            bool terminating, Args&& args) {
  const auto [iid, inserted] =
      lane.name_iids.emplace(name.data(), static_cast<uint32_t>(lane.name_iids.size() + 1));
  if (inserted) lane.pending_names.emplace_back(iid->second, name);

  const auto packet = start_packet_on(lane.id, start, pf::sequence_flags::needs_incremental_state);
  if (!lane.pending_names.empty()) {
    // New names travel in the packet that first uses them, so no lookup ever runs ahead.
    const auto interned = out_.begin_message(pf::trace_packet::interned_data);
    for (const auto& [name_iid, text] : lane.pending_names) {
      const auto entry = out_.begin_message(pf::interned_data::event_names);
      out_.add_varint(pf::interned_data::entry_iid, name_iid);
      out_.add_bytes(pf::interned_data::entry_name, text);
      out_.end_message(entry);
    }
    out_.end_message(interned);
    lane.pending_names.clear();
  }
  const auto te = out_.begin_message(pf::trace_packet::track_event);
  out_.add_varint(pf::track_event::type, pf::track_event::type_slice_begin);
  out_.add_varint(pf::track_event::name_iid, iid->second);
  out_.add_varint(pf::track_event::category_iids, category);
  if (flow != 0)
    out_.add_fixed64(
        terminating ? pf::track_event::terminating_flow_ids : pf::track_event::flow_ids, flow);
  if (popts_.debug_annotations) args();
  out_.end_message(te);
  out_.end_packet(packet);

  const auto end_packet = start_packet_on(lane.id, end, 0);
  const auto end_te = out_.begin_message(pf::trace_packet::track_event);
  out_.add_varint(pf::track_event::type, pf::track_event::type_slice_end);
  out_.end_message(end_te);
  out_.end_packet(end_packet);
}

void perfetto_writer::counter(uint64_t timestamp, uint64_t track, double value) {
  const auto packet = start_packet(timestamp, 0);
  const auto te = out_.begin_message(pf::trace_packet::track_event);
  out_.add_varint(pf::track_event::type, pf::track_event::type_counter);
  out_.add_varint(pf::track_event::track_uuid, track);
  out_.add_double(pf::track_event::double_counter_value, value);
  out_.end_message(te);
  out_.end_packet(packet);
}

void perfetto_writer::counter(uint64_t timestamp, uint64_t track, int64_t value) {
  const auto packet = start_packet(timestamp, 0);
  const auto te = out_.begin_message(pf::trace_packet::track_event);
  out_.add_varint(pf::track_event::type, pf::track_event::type_counter);
  out_.add_varint(pf::track_event::track_uuid, track);
  out_.add_int64(pf::track_event::counter_value, value);
  out_.end_message(te);
  out_.end_packet(packet);
}

void perfetto_writer::arg_uint(arg id, uint64_t value) {
  const auto a = out_.begin_message(pf::track_event::debug_annotations);
  out_.add_varint(pf::debug_annotation::name_iid, static_cast<uint64_t>(id));
  out_.add_varint(pf::debug_annotation::uint_value, value);
  out_.end_message(a);
}

void perfetto_writer::arg_int(arg id, int64_t value) {
  const auto a = out_.begin_message(pf::track_event::debug_annotations);
  out_.add_varint(pf::debug_annotation::name_iid, static_cast<uint64_t>(id));
  out_.add_int64(pf::debug_annotation::int_value, value);
  out_.end_message(a);
}

void perfetto_writer::arg_string(arg id, std::string_view value) {
  const auto a = out_.begin_message(pf::track_event::debug_annotations);
  out_.add_varint(pf::debug_annotation::name_iid, static_cast<uint64_t>(id));
  out_.add_bytes(pf::debug_annotation::string_value, value);
  out_.end_message(a);
}

// rocprofv3 shows the main thread under its own (process) name and numbers the others
// THREAD 1, 2, ... in ascending tid order, which is the order threads are first described here.
std::string perfetto_writer::default_thread_name(int64_t tid) {
  if (tid == defs_->process.pid) return process_name_;
  return "THREAD " + std::to_string(++thread_counter_) + " (" + std::to_string(tid) + ")";
}

lane_track& perfetto_writer::thread_track(int64_t tid) {
  const auto it = threads_.find(tid);
  if (it != threads_.end()) return it->second;
  // A thread seen only in records: numbered after the known ones, as rocprofv3 numbers them.
  lane_track& t = threads_[tid];
  t.name = default_thread_name(tid);
  t.parent = process_uuid_;
  t.lanes_under_first = true;
  add_thread_lane(t, tid);
  return t;
}

void perfetto_writer::add_thread_lane(lane_track& track, int64_t tid) {
  auto sequence = std::make_unique<lane_sequence>();
  sequence->track_uuid = new_uuid();
  describe_thread(sequence->track_uuid, tid, track.name);
  start_sequence(*sequence);
  track.sequences.push_back(std::move(sequence));
}

lane_sequence& perfetto_writer::place(lane_track& track, uint64_t start, uint64_t end) {
  const size_t lane = track.lanes.place(start, end);
  if (lane == track.sequences.size()) {
    // An overlapping slice: a new track with the same name, so the UI shows them together.
    auto sequence = std::make_unique<lane_sequence>();
    sequence->track_uuid = new_uuid();
    const bool first = track.sequences.empty();
    describe_track(
        sequence->track_uuid,
        !first && track.lanes_under_first ? track.sequences[0]->track_uuid : track.parent,
        track.name);
    start_sequence(*sequence);
    track.sequences.push_back(std::move(sequence));
  }
  return *track.sequences[lane];
}

// stream: a = stream id; compute_queue: a = agent, b = queue; copy: a = dst agent, b = thread.
lane_track& perfetto_writer::gpu_track(gpu_track_kind kind, uint64_t a, uint64_t b,
                                       const agent_info* ag) {
  const auto key = std::make_tuple(kind, a, b);
  const auto it = gpu_tracks_.find(key);
  if (it != gpu_tracks_.end()) return it->second;
  lane_track& t = gpu_tracks_[key];
  t.parent = process_uuid_;
  if (kind == gpu_track_kind::stream) {
    t.name = perfetto::stream_track_name(a);
  } else if (kind == gpu_track_kind::compute_queue) {
    t.name = perfetto::compute_track_name(ag, options_.agent_index, queues_per_agent_[a]++);
  } else {
    const auto tid = static_cast<int64_t>(b);
    const auto [index, inserted] = copy_thread_index_.emplace(tid, copy_thread_index_.size());
    (void)inserted;
    t.name = perfetto::copy_track_name(ag, index->second);
  }
  return t;
}

uint64_t perfetto_writer::counter_track(counter_kind kind, uint64_t agent_id, uint64_t counter_id) {
  const auto key = std::make_tuple(kind, agent_id, counter_id);
  const auto it = counter_tracks_.find(key);
  if (it != counter_tracks_.end()) return it->second;
  const uint64_t uuid = new_uuid();
  counter_tracks_.emplace(key, uuid);
  const agent_info* ag = agent(agent_id);
  const auto mode = options_.agent_index;
  std::string name;
  bool bytes = true;
  switch (kind) {
    case counter_kind::copy_bytes:
      name = perfetto::copy_bytes_track_name(ag, mode);
      break;
    case counter_kind::allocated_bytes:
      name = perfetto::allocate_bytes_track_name(ag, mode);
      break;
    case counter_kind::free_bytes:
      name = "FREE BYTES";
      break;
    case counter_kind::scratch:
      name = perfetto::scratch_track_name(ag, mode);
      break;
    case counter_kind::pmc:
    case counter_kind::device_sample: {
      const auto c = counter_names_.find(counter_id);
      name = perfetto::pmc_track_name(
          ag, mode, c != counter_names_.end() ? c->second : std::to_string(counter_id));
      bytes = false;
    }
  }
  describe_counter(uuid, name, bytes);
  return uuid;
}

// --------------------------------------------------------------------------------------------

void perfetto_writer::begin(const trace_definitions& defs) {
  defs_ = &defs;
  began_ = true;
  process_hash_ = mix(fnv1a(defs.node.hostname) ^ static_cast<uint64_t>(defs.process.pid));
  // Below 2^28 so the id takes at most 4 varint bytes in every packet; never 0.
  sequence_id_ = static_cast<uint32_t>(1 + (process_hash_ >> 32) % ((1u << 28) - 2));
  stream_mode_ = !options_.group_by_queue && !defs.streams.empty();
  keep_dispatch_spans_ = !defs.counters.empty();

  for (const auto& a : defs.agents)
    agents_.emplace(a.id, &a);
  for (const auto& k : defs.kernel_symbols)
    kernels_.emplace(k.kernel_id, &k);
  for (const auto& c : defs.counters)
    counter_names_.emplace(c.id, c.name);

  const std::string path = options_.path_for("results", "pftrace");
  std::error_code ec;
  const auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  if (!out_.open(path)) return;

  // The main sequence carries descriptors and counters; it interns nothing but is marked
  // cleared so readers treat it as complete from its first packet.
  {
    const auto packet = start_packet(0, pf::sequence_flags::incremental_state_cleared);
    out_.add_bool(pf::trace_packet::first_packet_on_sequence, true);
    out_.end_packet(packet);
  }

  // The process track.
  process_uuid_ = new_uuid();
  {
    const auto& command = defs.process.command;
    process_name_ = command.empty() ? std::string("process")
                                    : std::filesystem::path(command.front()).filename().string();
    const auto packet = start_packet(0, 0);
    const auto td = out_.begin_message(pf::trace_packet::track_descriptor);
    out_.add_varint(pf::track_descriptor::uuid, process_uuid_);
    const auto pd = out_.begin_message(pf::track_descriptor::process);
    out_.add_int64(pf::process_descriptor::pid, defs.process.pid);
    for (const auto& a : command)
      out_.add_bytes(pf::process_descriptor::cmdline, a);
    out_.add_bytes(pf::process_descriptor::process_name, process_name_);
    out_.end_message(pd);
    out_.end_message(td);
    out_.end_packet(packet);
  }

  // Known threads, described in ascending tid order so that unnamed ones are numbered in it.
  std::vector<const thread_info*> threads;
  for (const auto& t : defs.threads)
    threads.push_back(&t);
  std::sort(threads.begin(), threads.end(),
            [](const thread_info* x, const thread_info* y) { return x->tid < y->tid; });
  for (const thread_info* t : threads) {
    if (threads_.count(t->tid) != 0) continue;
    lane_track& track = threads_[t->tid];
    track.name = t->name.empty() ? default_thread_name(t->tid) : t->name;
    track.parent = process_uuid_;
    track.lanes_under_first = true;
    add_thread_lane(track, t->tid);
  }
}

void perfetto_writer::write(record_span<api_record> records) {
  if (!began_) return;
  for (const api_record& r : records) {
    const auto& domain = info(r.domain);
    const bool marker = r.domain == api_domain::marker_core_range ||
                        r.domain == api_domain::marker_control ||
                        r.domain == api_domain::marker_name;
    const string_id name_id = marker && r.message != empty_string ? r.message : r.operation;
    const std::string_view name = defs_->str(name_id);
    const uint64_t end = std::max(r.end_ns, r.start_ns);
    lane_track& thread = thread_track(r.tid);
    lane_sequence& lane = place(thread, r.start_ns, end);
    // Markers launch nothing, so a flow would only dangle.
    const uint64_t flow = marker ? 0 : flow_id(r.corr.internal);
    slice(lane, r.start_ns, end, name, category_iid(domain.perfetto_category), flow, false, [&] {
      arg_uint(arg::begin_ns, r.start_ns);
      arg_uint(arg::end_ns, end);
      arg_uint(arg::delta_ns, end - r.start_ns);
      arg_int(arg::tid, r.tid);
      arg_string(arg::kind, domain.category);
      arg_string(arg::operation, defs_->str(r.operation));
      arg_uint(arg::corr_id, r.corr.internal);
      arg_uint(arg::ancestor_id, r.corr.ancestor);
      if (r.stream_id != 0) arg_uint(arg::stream_id, r.stream_id);
    });
  }
}

void perfetto_writer::write(record_span<kernel_dispatch_record> records) {
  if (!began_) return;
  const auto mode = options_.agent_index;
  for (const kernel_dispatch_record& r : records) {
    const auto sym = kernels_.find(r.kernel_id);
    const kernel_symbol_info* k = sym != kernels_.end() ? sym->second : nullptr;
    // rocprofv3 names kernel slices by the demangled symbol, ignoring renames (§6).
    std::string_view name = "<unknown kernel>";
    if (k != nullptr) name = !k->demangled_name.empty() ? k->demangled_name : k->mangled_name;
    const agent_info* ag = agent(r.agent_id);
    lane_track& gpu = stream_mode_
                          ? gpu_track(gpu_track_kind::stream, r.stream_id, 0, ag)
                          : gpu_track(gpu_track_kind::compute_queue, r.agent_id, r.queue_id, ag);
    const uint64_t end = std::max(r.end_ns, r.start_ns);
    lane_sequence& lane = place(gpu, r.start_ns, end);
    if (keep_dispatch_spans_) dispatch_spans_[r.dispatch_id] = {r.start_ns, end};
    slice(lane, r.start_ns, end, name, category_iid("kernel_dispatch"), flow_id(r.corr.internal),
          true, [&] {
            arg_uint(arg::begin_ns, r.start_ns);
            arg_uint(arg::end_ns, end);
            arg_uint(arg::delta_ns, end - r.start_ns);
            arg_string(arg::kind, "KERNEL_DISPATCH");
            arg_string(arg::agent, perfetto::dashed_name(ag, mode));
            arg_string(arg::agent_type, perfetto::type_name(ag));
            arg_uint(arg::corr_id, r.corr.internal);
            arg_uint(arg::queue, r.queue_id);
            arg_int(arg::tid, r.tid);
            arg_uint(arg::kernel_id, r.kernel_id);
            arg_uint(arg::scratch_size, r.private_segment_size);
            arg_uint(arg::lds_block_size, r.group_segment_size);
            arg_uint(arg::vgpr_count, r.arch_vgpr_count);
            arg_uint(arg::accum_vgpr_count, r.accum_vgpr_count);
            arg_uint(arg::sgpr_count, r.sgpr_count);
            arg_uint(arg::workgroup_size,
                     uint64_t{r.workgroup_size.x} * r.workgroup_size.y * r.workgroup_size.z);
            arg_uint(arg::grid_size, uint64_t{r.grid_size.x} * r.grid_size.y * r.grid_size.z);
            arg_uint(arg::stream_id, r.stream_id);
          });
  }
}

void perfetto_writer::write(record_span<memory_copy_record> records) {
  if (!began_) return;
  const auto mode = options_.agent_index;
  for (const memory_copy_record& r : records) {
    const std::string_view direction = formats::copy_direction_name(r.direction);
    const agent_info* dst = agent(r.dst_agent_id);
    lane_track& gpu = stream_mode_ ? gpu_track(gpu_track_kind::stream, r.stream_id, 0, dst)
                                   : gpu_track(gpu_track_kind::copy, r.dst_agent_id,
                                               static_cast<uint64_t>(r.tid), dst);
    const uint64_t end = std::max(r.end_ns, r.start_ns);
    lane_sequence& lane = place(gpu, r.start_ns, end);
    slice(lane, r.start_ns, end, direction, category_iid("memory_copy"), flow_id(r.corr.internal),
          true, [&] {
            arg_uint(arg::begin_ns, r.start_ns);
            arg_uint(arg::end_ns, end);
            arg_uint(arg::delta_ns, end - r.start_ns);
            arg_string(arg::kind, "MEMORY_COPY");
            arg_string(arg::operation, direction);
            arg_string(arg::src_agent, perfetto::dashed_name(agent(r.src_agent_id), mode));
            arg_string(arg::dst_agent, perfetto::dashed_name(dst, mode));
            arg_uint(arg::copy_bytes, r.bytes);
            arg_uint(arg::corr_id, r.corr.internal);
            arg_int(arg::tid, r.tid);
            arg_uint(arg::stream_id, r.stream_id);
          });
    // Bytes on the destination while the copy runs. rocprofv3 plots the in-flight sum, which
    // needs records sorted by time; a streaming writer shows each copy's own size instead.
    const uint64_t bytes_track = counter_track(counter_kind::copy_bytes, r.dst_agent_id, 0);
    counter(r.start_ns, bytes_track, static_cast<int64_t>(r.bytes));
    counter(end, bytes_track, int64_t{0});
  }
}

void perfetto_writer::write(record_span<memory_set_record> records) {
  if (!began_) return;
  const auto mode = options_.agent_index;
  for (const memory_set_record& r : records) {
    const agent_info* ag = agent(r.agent_id);
    lane_track& gpu = stream_mode_
                          ? gpu_track(gpu_track_kind::stream, r.stream_id, 0, ag)
                          : gpu_track(gpu_track_kind::compute_queue, r.agent_id, r.queue_id, ag);
    const uint64_t end = std::max(r.end_ns, r.start_ns);
    lane_sequence& lane = place(gpu, r.start_ns, end);
    slice(lane, r.start_ns, end, "MEMORY_SET", category_iid("memory_copy"),
          flow_id(r.corr.internal), true, [&] {
            arg_uint(arg::begin_ns, r.start_ns);
            arg_uint(arg::end_ns, end);
            arg_uint(arg::delta_ns, end - r.start_ns);
            arg_string(arg::kind, "MEMORY_SET");
            arg_string(arg::agent, perfetto::dashed_name(ag, mode));
            arg_uint(arg::copy_bytes, r.bytes);
            arg_uint(arg::corr_id, r.corr.internal);
            arg_int(arg::tid, r.tid);
            arg_uint(arg::stream_id, r.stream_id);
          });
  }
}

void perfetto_writer::write(record_span<memory_allocation_record> records) {
  if (!began_) return;
  // Allocations produce no slices in rocprofv3, only the running total per agent (§6).
  for (const memory_allocation_record& r : records) {
    const bool is_free = r.operation == memory_allocation_operation::free ||
                         r.operation == memory_allocation_operation::vmem_free;
    if (!is_free) {
      live_allocations_[r.address] = {r.agent_id, r.size};
      int64_t& total = allocated_bytes_[r.agent_id];
      total += static_cast<int64_t>(r.size);
      counter(r.start_ns, counter_track(counter_kind::allocated_bytes, r.agent_id, 0), total);
      continue;
    }
    const auto live = live_allocations_.find(r.address);
    if (live == live_allocations_.end()) {
      counter(r.start_ns, counter_track(counter_kind::free_bytes, 0, 0), int64_t{0});
      continue;
    }
    const auto [agent_id, size] = live->second;
    live_allocations_.erase(live);
    int64_t& total = allocated_bytes_[agent_id];
    total -= static_cast<int64_t>(size);
    counter(r.start_ns, counter_track(counter_kind::allocated_bytes, agent_id, 0), total);
  }
}

void perfetto_writer::write(record_span<scratch_memory_record> records) {
  if (!began_) return;
  for (const scratch_memory_record& r : records) {
    const uint64_t track = counter_track(counter_kind::scratch, r.agent_id, 0);
    const bool alloc = r.operation == scratch_memory_operation::alloc;
    counter(r.start_ns, track, alloc ? static_cast<int64_t>(r.allocation_size) : int64_t{0});
  }
}

void perfetto_writer::emit_pmc(const counter_value_record& v, uint64_t start, uint64_t end) {
  const uint64_t track = counter_track(counter_kind::pmc, v.agent_id, v.counter_id);
  counter(start, track, v.value);
  counter(end, track, 0.0);
}

void perfetto_writer::write(record_span<counter_value_record> records) {
  if (!began_) return;
  for (const counter_value_record& v : records) {
    const auto span = dispatch_spans_.find(v.dispatch_id);
    if (span == dispatch_spans_.end()) {
      pending_counter_values_.push_back(v);  // its dispatch has not arrived yet
      continue;
    }
    emit_pmc(v, span->second.start, span->second.end);
  }
}

void perfetto_writer::write(record_span<device_counter_sample_record> records) {
  if (!began_) return;
  for (const device_counter_sample_record& s : records)
    counter(s.timestamp_ns, counter_track(counter_kind::device_sample, s.agent_id, s.counter_id),
            s.value);
}

std::string perfetto_writer::finish() {
  if (!began_) return "perfetto writer: finish() without begin()";
  for (const counter_value_record& v : pending_counter_values_) {
    const auto span = dispatch_spans_.find(v.dispatch_id);
    if (span != dispatch_spans_.end()) emit_pmc(v, span->second.start, span->second.end);
  }
  pending_counter_values_.clear();
  if (!out_.close()) return "perfetto writer: " + out_.error();
  return {};
}

}  // namespace

std::unique_ptr<writer> make_perfetto_writer(const output_options& options) {
  return make_perfetto_writer(options, perfetto_writer_options{});
}

std::unique_ptr<writer> make_perfetto_writer(const output_options& options,
                                             const perfetto_writer_options& perfetto_options) {
  return std::make_unique<perfetto_writer>(options, perfetto_options);
}

}  // namespace rocprof::trace
