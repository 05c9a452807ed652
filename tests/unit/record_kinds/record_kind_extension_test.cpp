// A test build in which the trace model's list holds one more kind, test_fake_record
// (fake_record_kind.hpp, appended through ROCPROF_TRACE_EXTRA_RECORD_KINDS_HEADER), with no
// other edit anywhere: every writer of the registry, the synthetic trace, the tool's record
// batch and the spool are compiled again from the same sources (CMakeLists.txt here) and take
// the new kind. The writers have not decided about it, and the probe says so: in a real build
// that is what makes the kind-handling test fail until each writer does.
#ifndef ROCPROF_TRACE_EXTRA_RECORD_KINDS_HEADER
#error "build this test with the fake record kind appended to the list"
#endif

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "record_batch.hpp"
#include "record_spool.hpp"
#include "rocprof/test_support/record_collector.hpp"
#include "rocprof/test_support/synthetic_trace.hpp"
#include "rocprof/test_support/test_env.hpp"
#include "rocprof/trace/writer_registry.hpp"

namespace {

namespace tr = rocprof::trace;
namespace ts = rocprof::test_support;
namespace fs = std::filesystem;
using tr::test_fake_record;

constexpr auto fake_kind = tr::record_traits<test_fake_record>::kind;

std::vector<test_fake_record> fake_records(size_t count, uint64_t first_ns) {
  std::vector<test_fake_record> out(count);
  for (size_t i = 0; i < count; ++i) {
    out[i].start_ns = first_ns + i;
    out[i].end_ns = first_ns + i + 1;
    out[i].value = 1000 + i;
  }
  return out;
}

TEST(record_kind_extension, the_list_has_the_new_kind_last) {
  EXPECT_EQ(static_cast<size_t>(fake_kind), tr::record_kind_count - 1);
  EXPECT_EQ(tr::record_kind_name(fake_kind), "test_fake");
  EXPECT_EQ(tr::record_size(fake_kind), sizeof(test_fake_record));
  EXPECT_TRUE(tr::has_record_time<test_fake_record>);
}

// Runs writer `name` on the synthetic trace into `dir`, with fake records before, between and
// after the real batches when `with_fake`; returns the probe of the kinds.
std::array<tr::kind_handling, tr::record_kind_count> run_writer(const std::string& name,
                                                                const std::string& dir,
                                                                const ts::synthetic_trace& trace,
                                                                bool with_fake) {
  tr::output_options options;
  options.output_directory = dir;
  options.file_prefix = "ext";
  options.stats = true;
  options.summary = true;
  options.summary_per_domain = true;
  options.summary_output = "summary.txt";
  std::string error;
  auto w = tr::make_writer(name, options, &error);
  EXPECT_TRUE(w != nullptr) << name << ": " << error;
  if (!w) return {};
  const auto fake = fake_records(50, trace.defs.process.start_ns + 10);
  w->begin(trace.defs);
  const auto handling = tr::probe_kind_handling(*w);
  if (with_fake) w->write(tr::make_span(fake));
  std::apply([&](const auto&... tables) { (w->write(tr::make_span(tables)), ...); },
             ts::record_tables(trace));
  if (with_fake) w->write(tr::make_span(fake));
  EXPECT_EQ(w->finish(), "") << name;
  return handling;
}

// Every file under a and b, byte for byte, except OTF2's anchor file (creation time, random id)
// and global definitions (their clock properties hold the wall-clock date of the run).
void expect_same_files(const std::string& a, const std::string& b, const std::string& name) {
  size_t compared = 0;
  for (const auto& entry : fs::recursive_directory_iterator(a)) {
    const auto extension = entry.path().extension();
    if (!entry.is_regular_file() || extension == ".otf2" || extension == ".def") continue;
    const auto relative = fs::relative(entry.path(), a);
    EXPECT_EQ(ts::read_file(entry.path().string()),
              ts::read_file((fs::path(b) / relative).string()))
        << name << ": " << relative;
    ++compared;
  }
  EXPECT_GT(compared, 0u) << name << " wrote nothing";
}

TEST(record_kind_extension, every_writer_takes_the_new_kind) {
  ts::synthetic_options so;
  so.records_per_kind = 60;
  const auto trace = ts::make_synthetic_trace(so);
  for (const auto& name : tr::writer_names()) {
    ts::temp_dir with("kind-ext-with"), without("kind-ext-without");
    const auto handling = run_writer(name, with.path(), trace, true);
    run_writer(name, without.path(), trace, false);
    // The new kind's records are dropped without a trace by writers that have not decided...
    expect_same_files(with.path(), without.path(), name);
    // ... and the probe names them: only the config writer ignores every kind by construction.
    const auto expected =
        name == "config" ? tr::kind_handling::ignores : tr::kind_handling::undecided;
    EXPECT_EQ(handling[static_cast<size_t>(fake_kind)], expected) << name;
    for (size_t k = 0; k + 1 < tr::record_kind_count; ++k)
      EXPECT_NE(handling[k], tr::kind_handling::undecided) << name << " / " << k;
  }
}

// Fake and API records appended in alternation come back per kind, in order, from memory or,
// with a budget of a few records, from the spill file.
void spool_round_trip(size_t budget_bytes, bool expect_spill) {
  ts::temp_dir dir("kind-ext-spool");
  rocprof::tool::record_spool spool(budget_bytes, dir.path());
  std::vector<test_fake_record> fake_in;
  std::vector<tr::api_record> api_in;
  for (uint64_t i = 0; i < 4000; i += 100) {
    const auto fake = fake_records(100, i);
    std::vector<tr::api_record> api(7);
    for (size_t j = 0; j < api.size(); ++j)
      api[j].corr.internal = i + j;
    spool.append(fake.data(), fake.size());
    spool.append(api.data(), api.size());
    fake_in.insert(fake_in.end(), fake.begin(), fake.end());
    api_in.insert(api_in.end(), api.begin(), api.end());
  }
  EXPECT_EQ(spool.total_records(), fake_in.size() + api_in.size());
  EXPECT_EQ(!spool.spill_path().empty(), expect_spill);
  if (expect_spill) {
    EXPECT_GT(spool.spilled_bytes(), 0u);
  }
  ts::record_collector out;
  spool.replay(out, 256);
  EXPECT_TRUE(spool.last_error().empty()) << spool.last_error();
  EXPECT_TRUE(ts::same_records(out.of<test_fake_record>(), fake_in));
  EXPECT_TRUE(ts::same_records(out.of<tr::api_record>(), api_in));
}

TEST(record_kind_extension, the_spool_keeps_the_new_kind_in_memory) {
  spool_round_trip(size_t{64} << 20, false);
}

TEST(record_kind_extension, the_spool_spills_the_new_kind_and_reads_it_back) {
  spool_round_trip(50 * sizeof(test_fake_record), true);
}

TEST(record_kind_extension, a_record_batch_cuts_and_spools_the_new_kind) {
  rocprof::tool::record_batch batch;
  batch.of<test_fake_record>() = fake_records(10, 100);  // start_ns 100..109
  batch.drop_before(105);
  ASSERT_EQ(batch.of<test_fake_record>().size(), 5u);
  EXPECT_EQ(batch.of<test_fake_record>().front().start_ns, 105u);
  ts::temp_dir dir("kind-ext-batch");
  rocprof::tool::record_spool spool(size_t{1} << 20, dir.path());
  batch.append_to(spool);
  ts::record_collector out;
  spool.replay(out);
  EXPECT_TRUE(ts::same_records(out.of<test_fake_record>(), batch.of<test_fake_record>()));
}

}  // namespace
