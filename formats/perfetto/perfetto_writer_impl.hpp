// The Perfetto writer's class, shared by its source files (not part of the formats API):
// perfetto_writer.cpp (packets, sequences, interned tables, begin/finish),
// perfetto_tracks.cpp (thread, GPU and counter tracks, lane placement) and
// perfetto_records.cpp (one write() per record kind).
#pragma once

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

#include "common/number_format.hpp"
#include "perfetto/perfetto_fields.hpp"
#include "perfetto/perfetto_names.hpp"
#include "perfetto/proto_encoder.hpp"
#include "perfetto/track_lanes.hpp"
#include "rocprof/common/fnv1a.hpp"

namespace rocprof::trace::perfetto_impl {

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
inline constexpr std::array<std::string_view, static_cast<size_t>(arg::end_of_list) - 1> arg_names{
    {"begin_ns",   "end_ns",         "delta_ns",       "tid",        "kind",
     "operation",  "corr_id",        "ancestor_id",    "stream_ID",  "src_agent",
     "dst_agent",  "copy_bytes",     "agent",          "agent_type", "queue",
     "kernel_id",  "Scratch_Size",   "LDS_Block_Size", "VGPR_Count", "Accum_VGPR_Count",
     "SGPR_Count", "workgroup_size", "grid_size",      "message"}};

// Track-event categories of rocprofv3 (§6) plus cuda_api for the CUDA domains; iid = index + 1.
inline constexpr std::array<std::string_view, 15> category_names{
    {"hsa_api", "hip_api", "marker_api", "rccl_api", "openmp", "kernel_dispatch", "memory_copy",
     "memory_allocation", "rocdecode_api", "rocjpeg_api", "counter_collection", "kfd_events",
     "scratch_memory", "none", "cuda_api"}};

inline uint32_t category_iid(std::string_view name) {
  for (size_t i = 0; i < category_names.size(); ++i)
    if (category_names[i] == name) return static_cast<uint32_t>(i + 1);
  return 14;  // "none"
}

using common::fnv1a;

inline uint64_t mix(uint64_t x) {  // splitmix64 finaliser: spreads pid bits over the whole word
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
  uint64_t parent = 0;  // the process track: extra lanes are its children too
};

class perfetto_writer final : public writer {
 public:
  perfetto_writer(const output_options& options, const perfetto_writer_options& popts)
      : options_(options), popts_(popts), out_(popts.chunk_size) {}

  using writer::write;
  void begin(const trace_definitions& defs) override;
  void write(record_span<api_record> records) override;
  void write(record_span<kernel_dispatch_record> records) override;
  void write(record_span<memory_copy_record> records) override;
  void write(record_span<memory_set_record> records) override;
  void write(record_span<memory_allocation_record> records) override;
  void write(record_span<scratch_memory_record> records) override;
  void write(record_span<counter_value_record> records) override;
  void write(record_span<counter_dispatch_record> records) override;
  void write(record_span<device_counter_sample_record> records) override;
  void write(record_span<pc_sample_record> records) override;  // perfetto_pc_hotspots.cpp
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
  // Annotations whose name is not interned (API arguments, the hot-spot slices' entries).
  void named_string(std::string_view name, std::string_view value);
  void named_uint(std::string_view name, uint64_t value);
  // One annotation per argument of an API call (trace/api_args.hpp), named as the argument.
  void api_args(std::string_view text);

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

  // --- PC-sampling hot spots (perfetto_pc_hotspots.cpp) ---------------------------------------
  void note_kernel_span(const kernel_dispatch_record& r, uint64_t end);
  void write_pc_hotspots();  // at finish(): one slice per sampled kernel with a traced dispatch

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
  // Per (agent, kernel): its dispatches' first start and last end; the PC samples.
  std::map<std::pair<uint64_t, uint64_t>, dispatch_span> kernel_spans_;
  std::vector<pc_sample_record> pc_samples_;
  bool began_ = false;
};

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

}  // namespace rocprof::trace::perfetto_impl
