// The OTF2 writer on the synthetic trace, read back with otf2-print: the archive validates,
// event counts match the records, locations are time-ordered, definitions carry §7's names.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "otf2/otf2_writer.hpp"
#include "rocprof/test_support/synthetic_trace.hpp"
#include "rocprof/test_support/test_env.hpp"

namespace {

namespace ts = rocprof::test_support;
namespace tr = rocprof::trace;

using ts::run;

bool otf2_print_available() {
  return ts::have_program(ROCPROF_OTF2_PRINT);
}

std::filesystem::path test_dir(const std::string& name) {
  return ts::scratch_dir("otf2/" + name);
}

struct otf2_event {
  std::string kind;
  uint64_t location = 0;
  uint64_t timestamp = 0;
  std::string rest;
};

// otf2-print prints one event per line: KIND  LOCATION  TIMESTAMP  details.
std::vector<otf2_event> parse_events(const std::string& text) {
  std::vector<otf2_event> events;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    // An event's attributes follow on their own line.
    if (line.find("ADDITIONAL ATTRIBUTES:") != std::string::npos && !events.empty()) {
      events.back().rest += line;
      continue;
    }
    std::istringstream fields(line);
    otf2_event e;
    std::string location, timestamp;
    if (!(fields >> e.kind >> location >> timestamp)) continue;
    if (e.kind != "ENTER" && e.kind != "LEAVE" && e.kind != "METRIC") continue;
    e.location = std::stoull(location);
    e.timestamp = std::stoull(timestamp);
    std::getline(fields, e.rest);
    events.push_back(e);
  }
  return events;
}

class Otf2Writer : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(otf2_print_available()) << ts::missing_reader("otf2-print"); }
};

TEST_F(Otf2Writer, ArchiveValidatesAndCountsMatchRecords) {
  ts::synthetic_options so;
  so.records_per_kind = 300;
  const auto trace = ts::make_synthetic_trace(so);
  const auto dir = test_dir("counts");
  tr::output_options options;
  options.output_directory = dir.string();
  options.file_prefix = "host/4242";  // a prefix with a directory part, as %hostname%/%pid%
  auto w = tr::make_otf2_writer(options);
  ASSERT_EQ(ts::write_synthetic_trace(*w, trace, 64), "");

  const auto anchor = dir / "host" / "4242_results.otf2";
  ASSERT_TRUE(std::filesystem::exists(anchor));
  EXPECT_TRUE(std::filesystem::exists(dir / "host" / "4242_results.def"));
  EXPECT_TRUE(std::filesystem::is_directory(dir / "host" / "4242_results"));

  const std::string print = ROCPROF_OTF2_PRINT;
  const auto [silent_status, silent_out] =
      run(print + " --silent -Werror '" + anchor.string() + "' 2>&1");
  EXPECT_EQ(silent_status, 0) << silent_out;

  const auto [status, out] = run(print + " '" + anchor.string() + "' 2>&1");
  ASSERT_EQ(status, 0) << out.substr(0, 2000);
  const auto events = parse_events(out);

  size_t expected_slices = trace.kernels.size() + trace.memory_copies.size() +
                           trace.memory_sets.size() + trace.memory_allocations.size();
  for (const auto& r : trace.api)
    if (!(r.domain == tr::api_domain::marker_core_range && r.start_ns == r.end_ns))
      ++expected_slices;
  const size_t expected_metrics = trace.counter_values.size() + trace.device_counter_samples.size();

  std::map<std::string, size_t> counts;
  std::map<uint64_t, uint64_t> last_time;
  std::map<uint64_t, int> depth;
  for (const auto& e : events) {
    ++counts[e.kind];
    EXPECT_GE(e.timestamp, last_time[e.location]) << "location " << e.location;
    last_time[e.location] = e.timestamp;
    if (e.kind == "ENTER") {
      ++depth[e.location];
      EXPECT_NE(e.rest.find("(\"category\" <0>; STRING; \""), std::string::npos) << e.rest;
    } else if (e.kind == "LEAVE") {
      EXPECT_GE(--depth[e.location], 0);
    }
  }
  EXPECT_EQ(counts["ENTER"], expected_slices);
  EXPECT_EQ(counts["LEAVE"], expected_slices);
  EXPECT_EQ(counts["METRIC"], expected_metrics);
  for (const auto& [location, d] : depth)
    EXPECT_EQ(d, 0) << "location " << location;

  // Definitions: §7's location names, groups, the category attribute, region roles.
  const auto [def_status, defs] = run(print + " -G '" + anchor.string() + "' 2>&1");
  ASSERT_EQ(def_status, 0);
  for (const auto& t : trace.defs.threads)
    EXPECT_NE(defs.find("\"Thread " + std::to_string(t.tid) + "\""), std::string::npos) << t.tid;
  EXPECT_NE(defs.find(", Compute on GPU Agent-1, Queue 0\""), std::string::npos);
  EXPECT_NE(defs.find(", Copy to GPU Agent-"), std::string::npos);
  EXPECT_NE(defs.find(", Memory Operation at "), std::string::npos);
  EXPECT_NE(defs.find("\"category\""), std::string::npos);
  EXPECT_NE(defs.find("DATA_TRANSFER"), std::string::npos);
  EXPECT_NE(defs.find("ACCELERATOR_STREAM"), std::string::npos);
  EXPECT_NE(defs.find("\"SQ_WAVES\""), std::string::npos);
}

TEST_F(Otf2Writer, OverlappingKernelsGetTheirOwnLocations) {
  ts::synthetic_options so;
  so.records_per_kind = 100;
  auto trace = ts::make_synthetic_trace(so);
  for (auto& k : trace.kernels) {  // every kernel on one queue, overlapping its successors
    k.tid = so.pid;
    k.agent_id = ts::synthetic_gpu_agent_id(0);
    k.queue_id = 1;
    k.end_ns = k.start_ns + 10'000;
  }
  const auto dir = test_dir("overlap");
  tr::output_options options;
  options.output_directory = dir.string();
  options.file_prefix = "run";
  auto w = tr::make_otf2_writer(options);
  ASSERT_EQ(ts::write_synthetic_trace(*w, trace), "");
  const std::string anchor = (dir / "run_results.otf2").string();
  const auto [status, out] =
      run(std::string(ROCPROF_OTF2_PRINT) + " --silent -Werror '" + anchor + "' 2>&1");
  EXPECT_EQ(status, 0) << out;
  const auto [def_status, defs] = run(std::string(ROCPROF_OTF2_PRINT) + " -G '" + anchor + "'");
  ASSERT_EQ(def_status, 0);
  EXPECT_NE(defs.find("Queue 0 [lane 1]"), std::string::npos);
}

TEST_F(Otf2Writer, SpillingGivesTheSameEvents) {
  ts::synthetic_options so;
  so.records_per_kind = 400;
  const auto trace = ts::make_synthetic_trace(so);
  const auto dir = test_dir("spill");
  std::vector<std::string> outputs;
  for (const size_t budget : {size_t{64} << 20, size_t{2048}}) {
    tr::output_options options;
    options.output_directory = dir.string();
    options.file_prefix = "budget_" + std::to_string(budget);
    tr::otf2_writer_options otf2_options;
    otf2_options.memory_budget = budget;  // 2 KiB: a spill every 85 records
    auto w = tr::make_otf2_writer(options, otf2_options);
    ASSERT_EQ(ts::write_synthetic_trace(*w, trace, 50), "");
    const std::string anchor = options.path_for("results", "otf2");
    const auto [check, check_out] =
        run(std::string(ROCPROF_OTF2_PRINT) + " --silent -Werror '" + anchor + "' 2>&1");
    EXPECT_EQ(check, 0) << check_out;
    const auto [status, out] = run(std::string(ROCPROF_OTF2_PRINT) + " '" + anchor + "'");
    ASSERT_EQ(status, 0);
    std::vector<std::string> lines;
    for (const auto& e : parse_events(out))
      lines.push_back(e.kind + " " + std::to_string(e.location) + " " +
                      std::to_string(e.timestamp) + e.rest);
    std::sort(lines.begin(), lines.end());
    std::string joined;
    for (const auto& l : lines)
      joined += l + "\n";
    outputs.push_back(joined);
  }
  EXPECT_FALSE(outputs[0].empty());
  EXPECT_EQ(outputs[0], outputs[1]);
  // No spill file is left behind.
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(entry.path().filename().string().rfind(".rocprof-otf2-spill", 0), std::string::npos);
}

TEST_F(Otf2Writer, RewritesAnExistingArchive) {
  ts::synthetic_options so;
  so.records_per_kind = 20;
  const auto trace = ts::make_synthetic_trace(so);
  const auto dir = test_dir("rewrite");
  tr::output_options options;
  options.output_directory = dir.string();
  options.file_prefix = "again";
  for (int i = 0; i < 2; ++i) {
    auto w = tr::make_otf2_writer(options);
    ASSERT_EQ(ts::write_synthetic_trace(*w, trace), "") << "pass " << i;
  }
  const auto [status, out] = run(std::string(ROCPROF_OTF2_PRINT) + " --silent -Werror '" +
                                 (dir / "again_results.otf2").string() + "' 2>&1");
  EXPECT_EQ(status, 0) << out;
}

// A trace of marks alone (instants, which OTF2 has no event for): the archive still defines the
// thread's location, so that OTF2's own reader opens it.
TEST_F(Otf2Writer, MarksAloneStillMakeAReadableArchive) {
  ts::synthetic_options so;
  so.records_per_kind = 10;
  auto trace = ts::make_synthetic_trace(so);
  std::vector<tr::api_record> marks;
  for (auto r : trace.api) {
    if (r.domain != tr::api_domain::marker_core_range) continue;
    r.end_ns = r.start_ns;
    marks.push_back(r);
  }
  ASSERT_FALSE(marks.empty());
  const auto dir = test_dir("marks-only");
  tr::output_options options;
  options.output_directory = dir.string();
  options.file_prefix = "marks";
  auto w = tr::make_otf2_writer(options);
  w->begin(trace.defs);
  w->write(tr::make_span(marks));
  ASSERT_EQ(w->finish(), "");
  const auto [status, out] = run(std::string(ROCPROF_OTF2_PRINT) + " -G '" +
                                 (dir / "marks_results.otf2").string() + "' 2>&1");
  EXPECT_EQ(status, 0) << out;
  EXPECT_EQ(out.find("ERROR"), std::string::npos) << out;
  EXPECT_NE(out.find("\"Thread " + std::to_string(marks.front().tid) + "\""), std::string::npos)
      << out;
  EXPECT_TRUE(parse_events(out).empty()) << out;
}

}  // namespace

TEST_F(Otf2Writer, LongLocationsAreFlushedChunkByChunk) {
  // One thread with 300 000 API calls: its event file (~9 MB) is larger than the two 2 MiB chunks
  // an event writer holds in memory, so OTF2 flushes it mid-location. The archive must still
  // validate and hold every call, with no BufferFlush record added by the flushes.
  ts::synthetic_options so;
  so.threads = 1;
  so.counters = 0;
  const auto defs = ts::make_synthetic_definitions(so);
  const auto dir = test_dir("chunks");
  tr::output_options options;
  options.output_directory = dir.string();
  options.file_prefix = "long";
  auto w = tr::make_otf2_writer(options);
  w->begin(defs);
  std::vector<tr::api_record> api;
  size_t expected = 0;
  constexpr size_t total = 300'000, batch = 4096;
  for (size_t first = 0; first < total; first += batch) {
    api.clear();
    ts::generate_api(so, defs, first, std::min(batch, total - first), api);
    for (const auto& r : api)  // marks (start = end markers) are not written (§7)
      if (!(r.domain == tr::api_domain::marker_core_range && r.start_ns == r.end_ns)) ++expected;
    w->write(tr::make_span(api));
  }
  ASSERT_EQ(w->finish(), "");

  uint64_t largest = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir / "long_results"))
    if (entry.path().extension() == ".evt")
      largest = std::max<uint64_t>(largest, std::filesystem::file_size(entry.path()));
  EXPECT_GT(largest, uint64_t{4} << 20) << "the flush path was not exercised";

  const std::string anchor = options.path_for("results", "otf2");
  const auto [check, check_out] =
      run(std::string(ROCPROF_OTF2_PRINT) + " --silent -Werror '" + anchor + "' 2>&1");
  EXPECT_EQ(check, 0) << check_out;
  const auto [status, out] = run(std::string(ROCPROF_OTF2_PRINT) + " '" + anchor + "'");
  ASSERT_EQ(status, 0);
  size_t enters = 0, leaves = 0, flushes = 0;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("ENTER ", 0) == 0) ++enters;
    if (line.rfind("LEAVE ", 0) == 0) ++leaves;
    if (line.rfind("BUFFER_FLUSH", 0) == 0) ++flushes;
  }
  EXPECT_EQ(enters, expected);
  EXPECT_EQ(leaves, expected);
  EXPECT_EQ(flushes, 0u);
}
