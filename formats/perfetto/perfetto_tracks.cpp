// Perfetto writer: thread, GPU and counter tracks, and the placement of slices on lanes.
#include "perfetto/perfetto_writer_impl.hpp"

namespace rocprof::trace::perfetto_impl {

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
    // An overlapping slice: a new track with the same name, so the UI shows them together. It
    // is the process's child, as every track of ours: trace readers (AMD's test reader among
    // them) place a slice only on a thread's own track or on a process-scoped one, never on
    // a child of a thread track (rocprofv3 puts each thread's slices on such tracks too).
    auto sequence = std::make_unique<lane_sequence>();
    sequence->track_uuid = new_uuid();
    describe_track(sequence->track_uuid, track.parent, track.name);
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

}  // namespace rocprof::trace::perfetto_impl
