// The pftrace's PC-sampling hot-spot track, read back with protoc: per agent with samples, one
// slice per sampled kernel spanning its traced dispatches, annotated with the hot-spot report
// (samples, stall reasons, source lines, SASS instructions); kernels without a traced dispatch
// get none, and no sample is given a time of its own.
#include <gtest/gtest.h>

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

tr::string_id add(tr::trace_definitions& d, const std::string& s) {
  d.strings.push_back(s);
  return static_cast<tr::string_id>(d.strings.size() - 1);
}

// Kernel 1 (the chase) sampled and dispatched twice on GPU 0; kernel 2 sampled, never traced.
ts::synthetic_trace hotspot_trace() {
  ts::synthetic_options so;
  so.records_per_kind = 0;
  auto t = ts::make_synthetic_trace(so);
  auto& d = t.defs;
  const uint64_t gpu = ts::synthetic_gpu_agent_id(0);
  const uint64_t chase = d.kernel_symbols.at(0).kernel_id;
  const uint64_t fma = d.kernel_symbols.at(1).kernel_id;
  for (uint64_t i = 0; i < 2; ++i) {
    tr::kernel_dispatch_record k;
    k.dispatch_id = i + 1;
    k.kernel_id = chase;
    k.agent_id = gpu;
    k.corr.internal = i + 1;
    k.start_ns = 1'000'000 + i * 10'000;
    k.end_ns = k.start_ns + 5'000;
    t.kernels.push_back(k);
  }
  const auto ls = add(d, "long_scoreboard"), sel = add(d, "selected");
  const auto line30 = add(d, "/src/chase.cu:30");
  d.pc_instructions.push_back({1, chase, 0x1e0, add(d, "LDG.E R7, desc[UR4][R6.64]")});
  auto sample = [&](uint64_t kernel, tr::string_id state, uint64_t offset, uint64_t n) {
    auto r = ts::aggregated_pc_sample(gpu, kernel, offset, n, 0);
    r.warp_state = state;
    r.comment = line30;
    t.pc_samples.push_back(r);
  };
  sample(chase, ls, 0x1e0, 900);
  sample(chase, sel, 0x1f0, 100);
  sample(fma, sel, 0x200, 50);
  return t;
}

TEST(PerfettoPcHotspots, OneSlicePerSampledKernelOverItsDispatchesWithTheReport) {
  ASSERT_TRUE(rocprof::test::protoc_available()) << ts::missing_reader("protoc");
  const auto trace = hotspot_trace();
  tr::output_options o;
  o.output_directory = ts::scratch_dir("pftrace/pc_hotspots");
  o.file_prefix = "pc";
  auto w = tr::make_perfetto_writer(o);
  ASSERT_EQ(ts::write_synthetic_trace(*w, trace, 2), "");
  std::vector<decoded_packet> packets;
  std::string error;
  ASSERT_TRUE(decode_trace(o.path_for("results", "pftrace"), &packets, &error)) << error;

  std::string track_uuid;
  for (const auto& p : packets)
    if (p.get("track_descriptor.name").rfind("\"PC sampling hot spots", 0) == 0)
      track_uuid = p.get("track_descriptor.uuid");
  ASSERT_FALSE(track_uuid.empty()) << "no hot-spot track";
  // The hot-spot slice: the only one whose annotations carry pc_samples.
  std::vector<const decoded_packet*> hot;
  for (const auto& p : packets) {
    const auto names = p.fields.equal_range("track_event.debug_annotations.name");
    for (auto it = names.first; it != names.second; ++it)
      if (it->second == "\"pc_samples\"") hot.push_back(&p);
  }
  ASSERT_EQ(hot.size(), 1u);  // the fma kernel has no traced dispatch: no slice
  const decoded_packet& s = *hot[0];
  EXPECT_EQ(s.get("timestamp"), "1000000");  // the first dispatch's start
  EXPECT_EQ(s.get("track_event.type"), "TYPE_SLICE_BEGIN");
  std::vector<std::string> values;
  const auto range = s.fields.equal_range("track_event.debug_annotations.string_value");
  for (auto it = range.first; it != range.second; ++it)
    values.push_back(it->second);
  const auto has = [&](const std::string& text) {
    for (const auto& v : values)
      if (v.find(text) != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(has("long_scoreboard  90.00% (900)"));
  EXPECT_TRUE(has("/src/chase.cu:30  100.00% (1000)"));
  EXPECT_TRUE(has("0x01e0  LDG.E R7, desc[UR4][R6.64]  (/src/chase.cu:30)  90.00% (900)"));
  std::vector<std::string> numbers;  // kernel_id, then pc_samples
  const auto uints = s.fields.equal_range("track_event.debug_annotations.uint_value");
  for (auto it = uints.first; it != uints.second; ++it)
    numbers.push_back(it->second);
  EXPECT_EQ(numbers, (std::vector<std::string>{"1", "1000"}));
  // Its end: the last dispatch's end. Slice ends follow on the same sequence.
  const std::string sequence = s.get("trusted_packet_sequence_id");
  std::string last_end;
  for (const auto& p : packets)
    if (p.get("trusted_packet_sequence_id") == sequence &&
        p.get("track_event.type") == "TYPE_SLICE_END")
      last_end = p.get("timestamp");
  EXPECT_EQ(last_end, "1015000");
}

}  // namespace
