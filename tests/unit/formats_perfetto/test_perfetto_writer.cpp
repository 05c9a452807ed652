// The Perfetto writer on the synthetic trace, read back with protoc: slice, track, flow and
// counter counts; lanes never cross; interning and sequence rules; concatenated files.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "perfetto/perfetto_writer.hpp"
#include "protoc_text.hpp"
#include "rocprof/test_support/synthetic_trace.hpp"
#include "rocprof/test_support/test_env.hpp"

namespace {

namespace ts = rocprof::test_support;
namespace tr = rocprof::trace;
using rocprof::test::decode_trace;
using rocprof::test::decoded_packet;

std::filesystem::path test_dir(const std::string& name) {
  return ts::scratch_dir("pftrace/" + name);
}

tr::output_options options_in(const std::filesystem::path& dir, const std::string& prefix) {
  tr::output_options o;
  o.output_directory = dir.string();
  o.file_prefix = prefix;
  return o;
}

std::vector<decoded_packet> write_and_decode(const ts::synthetic_trace& trace,
                                             const tr::output_options& options,
                                             const tr::perfetto_writer_options& popts = {}) {
  auto w = tr::make_perfetto_writer(options, popts);
  EXPECT_EQ(ts::write_synthetic_trace(*w, trace, 64), "");
  std::vector<decoded_packet> packets;
  std::string error;
  EXPECT_TRUE(decode_trace(options.path_for("results", "pftrace"), &packets, &error)) << error;
  return packets;
}

bool is_marker(const tr::api_record& r) {
  return r.domain == tr::api_domain::marker_core_range ||
         r.domain == tr::api_domain::marker_control || r.domain == tr::api_domain::marker_name;
}

size_t count_values(const std::vector<decoded_packet>& packets, const std::string& path,
                    const std::string& value) {
  size_t n = 0;
  for (const auto& p : packets) {
    const auto range = p.fields.equal_range(path);
    for (auto it = range.first; it != range.second; ++it)
      n += it->second == value ? 1 : 0;
  }
  return n;
}

class PerfettoWriter : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(rocprof::test::protoc_available()) << ts::missing_reader("protoc");
  }
};

TEST_F(PerfettoWriter, SlicesFlowsAndCountersMatchTheRecords) {
  ts::synthetic_options so;
  so.records_per_kind = 300;
  const auto trace = ts::make_synthetic_trace(so);
  const auto dir = test_dir("counts");
  const auto packets = write_and_decode(trace, options_in(dir, "proc"));
  ASSERT_FALSE(packets.empty());

  const size_t slices = trace.api.size() + trace.kernels.size() + trace.memory_copies.size() +
                        trace.memory_sets.size();
  EXPECT_EQ(count_values(packets, "track_event.type", "TYPE_SLICE_BEGIN"), slices);
  EXPECT_EQ(count_values(packets, "track_event.type", "TYPE_SLICE_END"), slices);

  // Flows: every non-marker API call starts one, every GPU activity terminates one, and a GPU
  // activity's flow id is its launcher's.
  std::set<uint64_t> api_corr;
  size_t api_flows = 0;
  for (const auto& r : trace.api)
    if (!is_marker(r)) {
      ++api_flows;
      api_corr.insert(r.corr.internal);
    }
  size_t linked = 0;
  for (const auto& k : trace.kernels)
    linked += api_corr.count(k.corr.internal);
  for (const auto& c : trace.memory_copies)
    linked += api_corr.count(c.corr.internal);
  for (const auto& m : trace.memory_sets)
    linked += api_corr.count(m.corr.internal);

  std::multiset<std::string> starts, ends;
  for (const auto& p : packets) {
    auto range = p.fields.equal_range("track_event.flow_ids");
    for (auto it = range.first; it != range.second; ++it)
      starts.insert(it->second);
    range = p.fields.equal_range("track_event.terminating_flow_ids");
    for (auto it = range.first; it != range.second; ++it)
      ends.insert(it->second);
  }
  EXPECT_EQ(starts.size(), api_flows);
  EXPECT_EQ(ends.size(),
            trace.kernels.size() + trace.memory_copies.size() + trace.memory_sets.size());
  size_t matched = 0;
  for (const auto& id : ends)
    matched += starts.count(id) != 0 ? 1 : 0;
  EXPECT_EQ(matched, linked);

  // Counter events: two per counter value (dispatch start, end) and per copy, one per
  // allocation, scratch record and device sample.
  const size_t counters = 2 * trace.counter_values.size() + 2 * trace.memory_copies.size() +
                          trace.memory_allocations.size() + trace.scratch_memory.size() +
                          trace.device_counter_samples.size();
  EXPECT_EQ(count_values(packets, "track_event.type", "TYPE_COUNTER"), counters);

  // Tracks: named threads with pid/tid, one process, counter tracks with PMC names.
  size_t processes = 0;
  std::map<std::string, std::string> thread_names;  // tid -> name
  std::set<std::string> counter_track_names, uuids;
  for (const auto& p : packets) {
    if (!p.has("track_descriptor.uuid")) continue;
    EXPECT_TRUE(uuids.insert(p.get("track_descriptor.uuid")).second) << "duplicate uuid";
    if (p.has("track_descriptor.process.pid")) {
      ++processes;
      EXPECT_EQ(p.get("track_descriptor.process.pid"), std::to_string(so.pid));
      EXPECT_EQ(p.get("track_descriptor.process.process_name"), "\"synthetic_app\"");
    }
    if (p.has("track_descriptor.thread.tid") &&
        !thread_names.count(p.get("track_descriptor.thread.tid")))
      thread_names[p.get("track_descriptor.thread.tid")] =
          p.get("track_descriptor.thread.thread_name");
    if (p.has("track_descriptor.counter.unit") || p.has("track_descriptor.counter"))
      counter_track_names.insert(p.get("track_descriptor.name"));
  }
  EXPECT_EQ(processes, 1u);
  for (const auto& t : trace.defs.threads)
    EXPECT_EQ(thread_names[std::to_string(t.tid)], '"' + t.name + '"') << t.tid;
  for (const auto& c : trace.defs.counters) {
    const auto* agent = &trace.defs.agents.front();
    for (const auto& a : trace.defs.agents)
      if (a.id == c.agent_id) agent = &a;
    const std::string expected =
        "\"Agent [" + std::to_string(agent->logical_node_id) + "] PMC " + c.name + "\"";
    EXPECT_EQ(counter_track_names.count(expected), 1u) << expected;
  }

  // Every slice's track is described, and one sequence defines each slice's track by default.
  std::map<std::string, std::string> sequence_track;  // sequence id -> default track uuid
  for (const auto& p : packets)
    if (p.has("trace_packet_defaults.track_event_defaults.track_uuid")) {
      EXPECT_EQ(p.get("sequence_flags"), "3");
      sequence_track[p.get("trusted_packet_sequence_id")] =
          p.get("trace_packet_defaults.track_event_defaults.track_uuid");
    }
  for (const auto& p : packets) {
    if (!p.has("track_event.type") || p.get("track_event.type") == "TYPE_COUNTER") continue;
    const auto seq = sequence_track.find(p.get("trusted_packet_sequence_id"));
    ASSERT_NE(seq, sequence_track.end());
    EXPECT_EQ(uuids.count(seq->second), 1u);
  }
}

TEST_F(PerfettoWriter, SlicesOnOneTrackNestOrAreDisjoint) {
  ts::synthetic_options so;
  so.records_per_kind = 400;
  auto trace = ts::make_synthetic_trace(so);
  // Force overlaps: every kernel on one stream, each twice as long as the spacing.
  for (auto& k : trace.kernels) {
    k.stream_id = 1;
    k.end_ns = k.start_ns + 5000;
  }
  const auto packets = write_and_decode(trace, options_in(test_dir("lanes"), "proc"));
  struct interval {
    uint64_t start, end;
  };
  std::map<std::string, std::vector<interval>> by_sequence;
  std::map<std::string, uint64_t> open;  // a BEGIN is always followed by its END on the sequence
  for (const auto& p : packets) {
    const std::string type = p.get("track_event.type");
    const std::string seq = p.get("trusted_packet_sequence_id");
    if (type == "TYPE_SLICE_BEGIN") open[seq] = std::stoull(p.get("timestamp"));
    if (type == "TYPE_SLICE_END")
      by_sequence[seq].push_back({open[seq], std::stoull(p.get("timestamp"))});
  }
  size_t checked = 0;
  for (const auto& [seq, list] : by_sequence)
    for (size_t i = 0; i < list.size(); ++i)
      for (size_t j = i + 1; j < list.size(); ++j) {
        const auto& a = list[i];
        const auto& b = list[j];
        const bool disjoint = a.end <= b.start || b.end <= a.start;
        const bool nested =
            (a.start <= b.start && b.end <= a.end) || (b.start <= a.start && a.end <= b.end);
        ASSERT_TRUE(disjoint || nested) << "sequence " << seq;
        ++checked;
      }
  EXPECT_GT(checked, 0u);
  // The overlapping kernels needed more than one lane named STREAM [1].
  EXPECT_GT(count_values(packets, "track_descriptor.name", "\"STREAM [1]\""), 1u);
}

TEST_F(PerfettoWriter, InternedNamesAreDefinedBeforeUse) {
  ts::synthetic_options so;
  so.records_per_kind = 100;
  const auto trace = ts::make_synthetic_trace(so);
  const auto packets = write_and_decode(trace, options_in(test_dir("intern"), "proc"));
  std::map<std::string, std::set<std::string>> defined;  // sequence -> iids
  std::set<std::string> kernel_names;
  for (const auto& p : packets) {
    const std::string seq = p.get("trusted_packet_sequence_id");
    EXPECT_NE(seq, "0");
    const auto iids = p.fields.equal_range("interned_data.event_names.iid");
    for (auto it = iids.first; it != iids.second; ++it)
      defined[seq].insert(it->second);
    const auto names = p.fields.equal_range("interned_data.event_names.name");
    for (auto it = names.first; it != names.second; ++it)
      kernel_names.insert(it->second);
    if (p.get("track_event.type") == "TYPE_SLICE_BEGIN") {
      EXPECT_EQ(p.get("sequence_flags"), "2");
      EXPECT_EQ(defined[seq].count(p.get("track_event.name_iid")), 1u);
      EXPECT_TRUE(p.has("track_event.debug_annotations.name_iid"));
    }
  }
  for (const auto& k : trace.defs.kernel_symbols)
    EXPECT_EQ(kernel_names.count('"' + k.demangled_name + '"'), 1u) << k.demangled_name;
}

TEST_F(PerfettoWriter, AnnotationsCanBeLeftOut) {
  ts::synthetic_options so;
  so.records_per_kind = 50;
  const auto trace = ts::make_synthetic_trace(so);
  tr::perfetto_writer_options popts;
  popts.debug_annotations = false;
  const auto packets = write_and_decode(trace, options_in(test_dir("noargs"), "proc"), popts);
  size_t annotations = 0, begins = 0;
  for (const auto& p : packets) {
    annotations += p.count("track_event.debug_annotations.name_iid");
    begins += p.get("track_event.type") == "TYPE_SLICE_BEGIN" ? 1 : 0;
  }
  EXPECT_EQ(annotations, 0u);
  EXPECT_GT(begins, 0u);
}

TEST_F(PerfettoWriter, ProcessFilesConcatenateIntoOneTrace) {
  const auto dir = test_dir("concat");
  std::vector<std::filesystem::path> files;
  for (const int64_t pid : {1111, 2222}) {
    ts::synthetic_options so;
    so.records_per_kind = 80;
    so.pid = pid;
    const auto trace = ts::make_synthetic_trace(so);
    const auto options = options_in(dir, std::to_string(pid));
    auto w = tr::make_perfetto_writer(options);
    ASSERT_EQ(ts::write_synthetic_trace(*w, trace), "");
    files.emplace_back(options.path_for("results", "pftrace"));
  }
  const auto merged = dir / "merged.pftrace";
  const auto [status, out] = ts::run("cat '" + files[0].string() + "' '" + files[1].string() +
                                     "' > '" + merged.string() + "'");
  ASSERT_EQ(status, 0) << out;
  std::vector<decoded_packet> packets;
  std::string error;
  ASSERT_TRUE(decode_trace(merged.string(), &packets, &error)) << error;
  std::set<std::string> uuids, pids, first_sequences;
  size_t descriptors = 0;
  for (const auto& p : packets) {
    if (p.has("track_descriptor.uuid")) {
      ++descriptors;
      uuids.insert(p.get("track_descriptor.uuid"));
    }
    if (p.has("track_descriptor.process.pid")) pids.insert(p.get("track_descriptor.process.pid"));
    if (p.has("first_packet_on_sequence")) {
      EXPECT_TRUE(first_sequences.insert(p.get("trusted_packet_sequence_id")).second)
          << "sequence id reused across processes";
    }
  }
  EXPECT_EQ(uuids.size(), descriptors);  // no track uuid collides across the two processes
  EXPECT_EQ(pids, (std::set<std::string>{"1111", "2222"}));

  // Both processes use the same correlation ids; their flow ids must still differ. Packets of
  // the first file come first in the concatenation.
  std::vector<decoded_packet> first;
  ASSERT_TRUE(decode_trace(files[0].string(), &first, &error)) << error;
  std::set<std::string> flows_a, flows_b;
  for (size_t i = 0; i < packets.size(); ++i) {
    const auto range = packets[i].fields.equal_range("track_event.flow_ids");
    for (auto it = range.first; it != range.second; ++it)
      (i < first.size() ? flows_a : flows_b).insert(it->second);
  }
  ASSERT_FALSE(flows_a.empty());
  EXPECT_EQ(flows_a.size(), flows_b.size());
  for (const auto& id : flows_a)
    EXPECT_EQ(flows_b.count(id), 0u) << "flow id " << id;
}

TEST_F(PerfettoWriter, GroupByQueueNamesComputeAndCopyTracks) {
  ts::synthetic_options so;
  so.records_per_kind = 40;
  const auto trace = ts::make_synthetic_trace(so);
  auto options = options_in(test_dir("queues"), "proc");
  options.group_by_queue = true;
  const auto packets = write_and_decode(trace, options);
  size_t compute = 0, copy = 0;
  for (const auto& p : packets) {
    const std::string name = p.get("track_descriptor.name");
    compute += name.rfind("\"COMPUTE Agent [", 0) == 0 ? 1 : 0;
    copy += name.rfind("\"COPY to AGENT [", 0) == 0 ? 1 : 0;
  }
  EXPECT_GT(compute, 0u);
  EXPECT_GT(copy, 0u);
}

TEST_F(PerfettoWriter, UnnamedThreadsAreNumberedAsRocprofv3Does) {
  ts::synthetic_options so;
  so.records_per_kind = 30;
  auto trace = ts::make_synthetic_trace(so);
  for (auto& t : trace.defs.threads)
    t.name.clear();
  // A thread that appears only in records, after the known ones.
  trace.api.front().tid = so.pid + 100;
  const auto packets = write_and_decode(trace, options_in(test_dir("names"), "proc"));
  std::map<std::string, std::string> names;  // tid -> first thread_name
  for (const auto& p : packets)
    if (p.has("track_descriptor.thread.tid"))
      names.emplace(p.get("track_descriptor.thread.tid"),
                    p.get("track_descriptor.thread.thread_name"));
  EXPECT_EQ(names[std::to_string(so.pid)], "\"synthetic_app\"");  // the main thread
  size_t n = 0;
  for (const auto& t : trace.defs.threads) {
    if (t.tid == so.pid) continue;
    EXPECT_EQ(names[std::to_string(t.tid)],
              "\"THREAD " + std::to_string(++n) + " (" + std::to_string(t.tid) + ")\"");
  }
  const std::string late = std::to_string(so.pid + 100);
  EXPECT_EQ(names[late], "\"THREAD " + std::to_string(n + 1) + " (" + late + ")\"");
}

// AMD's Perfetto test reader (and trace processor's thread mapping) places a slice only on a
// thread's own track (a ThreadDescriptor track under the process) or on a process-scoped track;
// a child of a thread track is rejected. Overlapping marker ranges of one thread need extra
// lanes: those must be process-scoped tracks too.
TEST_F(PerfettoWriter, EverySliceTrackIsTheThreadsOwnOrProcessScoped) {
  ts::synthetic_options so;
  so.records_per_kind = 60;
  auto trace = ts::make_synthetic_trace(so);
  // Every marker of the first thread partially overlaps the one before it: they need lanes.
  const int64_t tid = trace.defs.threads.front().tid;
  uint64_t start = 1'000'000;
  size_t overlapping = 0;
  for (auto& r : trace.api) {
    if (!is_marker(r)) continue;
    r.tid = tid;
    r.start_ns = start;
    r.end_ns = start + 1000;
    start += 600;
    ++overlapping;
  }
  ASSERT_GT(overlapping, 2u);
  const auto packets = write_and_decode(trace, options_in(test_dir("thread-lanes"), "proc"));
  std::string process_uuid;
  std::map<std::string, std::string> parent_of;  // track uuid -> parent uuid
  std::set<std::string> thread_tracks;
  for (const auto& p : packets) {
    if (!p.has("track_descriptor.uuid")) continue;
    const std::string uuid = p.get("track_descriptor.uuid");
    if (p.has("track_descriptor.process.pid")) process_uuid = uuid;
    if (p.has("track_descriptor.thread.tid")) thread_tracks.insert(uuid);
    parent_of[uuid] = p.get("track_descriptor.parent_uuid");
  }
  ASSERT_FALSE(process_uuid.empty());
  size_t lanes_of_thread = 0;
  for (const auto& p : packets) {
    if (!p.has("trace_packet_defaults.track_event_defaults.track_uuid")) continue;
    const std::string track = p.get("trace_packet_defaults.track_event_defaults.track_uuid");
    ASSERT_EQ(parent_of.count(track), 1u) << track;
    EXPECT_EQ(parent_of[track], process_uuid)
        << "slice track " << track << " is not a child of the process track";
    EXPECT_EQ(thread_tracks.count(parent_of[track]), 0u) << "a child of a thread track";
  }
  for (const auto& p : packets)
    if (p.has("track_descriptor.name") && !p.has("track_descriptor.thread.tid") &&
        p.get("track_descriptor.name") == '"' + trace.defs.threads.front().name + '"')
      ++lanes_of_thread;
  EXPECT_GT(lanes_of_thread, 0u) << "the overlapping markers needed extra lanes";
}

}  // namespace
