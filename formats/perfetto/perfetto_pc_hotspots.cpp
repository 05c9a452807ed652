// Perfetto writer: the PC-sampling hot spots as slices. CUPTI (and the aggregated form of any
// vendor) gives no time per sample, so no sample is placed in time: per GPU agent with samples,
// a track "PC sampling hot spots (<agent>)" holds one slice per sampled kernel, spanning that
// kernel's traced dispatches on the agent (first start to last end), named by the kernel, with
// the hot-spot report's content (formats/hotspots: total samples, top stall reasons, source
// lines and instructions) as debug annotations. A kernel with samples but no traced dispatch
// (no --kernel-trace) gets no slice: there is no time to put it at.
#include <cinttypes>
#include <cstdio>

#include "perfetto/perfetto_writer_impl.hpp"
#include "rocprof/formats/pc_hotspots.hpp"

namespace rocprof::trace::perfetto_impl {
namespace {

constexpr size_t top_entries = 5;  // as the hot-spot CSV

// "long_scoreboard  90.00% (900)"
std::string ranked_text(const formats::hotspots::ranked& r) {
  char tail[64];
  std::snprintf(tail, sizeof(tail), "  %.2f%% (%" PRIu64 ")", r.percent, r.samples);
  return r.name + tail;
}

}  // namespace

void perfetto_writer::write(record_span<pc_sample_record> records) {
  if (!began_) return;
  pc_samples_.insert(pc_samples_.end(), records.begin(), records.end());
}

void perfetto_writer::note_kernel_span(const kernel_dispatch_record& r, uint64_t end) {
  auto [it, fresh] =
      kernel_spans_.try_emplace({r.agent_id, r.kernel_id}, dispatch_span{r.start_ns, end});
  if (fresh) return;
  it->second.start = std::min(it->second.start, r.start_ns);
  it->second.end = std::max(it->second.end, end);
}

void perfetto_writer::write_pc_hotspots() {
  if (pc_samples_.empty()) return;
  // The agent of a sample without one (AMD per-sample records): the first agent that ran its
  // kernel.
  std::map<uint64_t, uint64_t> agent_of_kernel;
  for (const auto& [key, span] : kernel_spans_)
    agent_of_kernel.emplace(key.second, key.first);
  std::map<uint64_t, std::vector<pc_sample_record>> by_agent;
  for (const auto& r : pc_samples_) {
    uint64_t agent_id = r.agent_id;
    if (agent_id == 0) {
      const auto it = agent_of_kernel.find(r.kernel_id);
      agent_id = it != agent_of_kernel.end() ? it->second : 0;
    }
    by_agent[agent_id].push_back(r);
  }
  pc_samples_.clear();
  for (const auto& [agent_id, samples] : by_agent) {
    const auto report =
        formats::hotspots::build_hotspots(*defs_, make_span(samples), options_, top_entries);
    lane_track track;
    track.name = "PC sampling hot spots (" +
                 perfetto::dashed_name(agent(agent_id), options_.agent_index) + ")";
    track.parent = process_uuid_;
    for (const auto& k : report) {
      const auto span = kernel_spans_.find({agent_id, k.kernel_id});
      if (span == kernel_spans_.end()) continue;  // no traced dispatch: no time to show it at
      const uint64_t start = span->second.start, end = span->second.end;
      lane_sequence& lane = place(track, start, end);
      slice(lane, start, end, k.kernel, category_iid("none"), 0, false, [&] {
        arg_uint(arg::kernel_id, k.kernel_id);
        named_uint("pc_samples", k.samples);
        const auto list = [&](const char* prefix, const std::vector<formats::hotspots::ranked>& l) {
          for (size_t i = 0; i < l.size(); ++i)
            named_string(prefix + std::to_string(i + 1), ranked_text(l[i]));
        };
        list("stall_reason_", k.reasons);
        list("source_line_", k.locations);
        list("instruction_", k.instructions);
      });
    }
  }
}

}  // namespace rocprof::trace::perfetto_impl
