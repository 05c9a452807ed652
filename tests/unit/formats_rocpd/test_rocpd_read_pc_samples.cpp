// rocpd reader, PC samples: every field of the three shapes (AMD host-trap, AMD stochastic,
// NVIDIA aggregated) back from rocpd_pc_sample as written, in order; the time window on
// samples with and without a timestamp; a database without the table (AMD's) reads as none.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <map>

#include "rocprof/formats/rocpd_reader.hpp"
#include "rocprof/test_support/record_collector.hpp"
#include "rocprof/test_support/synthetic_trace.hpp"
#include "rocprof/test_support/test_env.hpp"
#include "rocprof/trace/writer_registry.hpp"

namespace {

using namespace rocprof;
namespace ts = rocprof::test_support;
using formats::rocpd::database_reader;
using formats::rocpd::read_options;

// The synthetic trace's host-trap samples, with every third one made stochastic (AMD: per-sample
// detail) and every third + 1 aggregated (NVIDIA: counts, warp state, kernel only).
ts::synthetic_trace mixed_trace() {
  ts::synthetic_options so;
  so.records_per_kind = 90;
  auto t = ts::make_synthetic_trace(so);
  const auto state = ts::add_string(t.defs, "long_scoreboard");
  for (size_t i = 0; i < t.pc_samples.size(); ++i) {
    auto& r = t.pc_samples[i];
    const auto& k = t.kernels[i % t.kernels.size()];
    r.agent_id = k.agent_id;
    r.kernel_id = k.kernel_id;
    if (i % 3 == 0) {
      r.method = trace::pc_sample_method::stochastic;
      r.wave_issued = i % 2 == 0;
      r.instruction_type = r.instruction;
    } else if (i % 3 == 1) {
      r.method = trace::pc_sample_method::stochastic;
      r.has_sample_detail = false;
      r.dispatch_exact = false;
      r.dispatch_id = k.dispatch_id;
      r.correlation_internal = 0;
      r.timestamp_ns = r.exec_mask = r.wave_count = 0;
      r.sample_count = 10 + i;
      r.not_issued_count = i;
      r.wave_issued = true;
      r.warp_state = state;
    }
  }
  return t;
}

class rocpd_read_pc : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new ts::temp_dir{"rocpd_read_pc"};
    trace_ = new ts::synthetic_trace{mixed_trace()};
    trace::output_options o;
    o.output_directory = dir_->path();
    o.file_prefix = "pc";
    db_ = o.path_for("results", "db");
    std::string error;
    auto w = trace::make_writer("rocpd", o, &error);
    ASSERT_TRUE(w) << error;
    ASSERT_EQ(ts::write_synthetic_trace(*w, *trace_, 37), "");
  }
  static void TearDownTestSuite() {
    delete trace_;
    delete dir_;
  }

  // The samples read back (definitions in *defs).
  static std::vector<trace::pc_sample_record> read(const read_options& o,
                                                   trace::trace_definitions* defs) {
    std::string error;
    auto r = database_reader::open(db_, &error);
    EXPECT_TRUE(r) << error;
    if (!r) return {};
    EXPECT_TRUE(r->read_definitions(0, *defs, &error)) << error;
    ts::record_collector got;
    EXPECT_TRUE(r->read_records(0, *defs, o, {&got}, nullptr, &error)) << error;
    return got.of<trace::pc_sample_record>();
  }

  static inline ts::temp_dir* dir_ = nullptr;
  static inline ts::synthetic_trace* trace_ = nullptr;
  static inline std::string db_;
};

TEST_F(rocpd_read_pc, every_field_back_in_order) {
  trace::trace_definitions d;
  const auto got = read({}, &d);
  const auto& want = trace_->pc_samples;
  const auto& wd = trace_->defs;
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    const auto &a = got[i], &b = want[i];
    EXPECT_EQ(a.method, b.method) << i;
    EXPECT_EQ(a.has_sample_detail, b.has_sample_detail) << i;
    EXPECT_EQ(a.dispatch_exact, b.dispatch_exact) << i;
    EXPECT_EQ(a.timestamp_ns, b.timestamp_ns) << i;
    EXPECT_EQ(a.exec_mask, b.exec_mask) << i;
    EXPECT_EQ(a.wave_count, b.wave_count) << i;
    EXPECT_EQ(a.dispatch_id, b.dispatch_id) << i;
    EXPECT_EQ(a.correlation_internal, b.correlation_internal) << i;
    EXPECT_EQ(a.agent_id, b.agent_id) << i;
    EXPECT_EQ(a.kernel_id, b.kernel_id) << i;
    EXPECT_EQ(a.code_object_id, b.code_object_id) << i;
    EXPECT_EQ(a.code_object_offset, b.code_object_offset) << i;
    EXPECT_EQ(a.sample_count, b.sample_count) << i;
    EXPECT_EQ(a.not_issued_count, b.not_issued_count) << i;
    // Host-trap samples say nothing about issue: the database keeps no value to read back.
    if (b.method == trace::pc_sample_method::stochastic) {
      EXPECT_EQ(a.wave_issued, b.wave_issued) << i;
    }
    EXPECT_EQ(d.str(a.instruction), wd.str(b.instruction)) << i;
    EXPECT_EQ(d.str(a.comment), wd.str(b.comment)) << i;
    EXPECT_EQ(d.str(a.stall_reason), wd.str(b.stall_reason)) << i;
    EXPECT_EQ(d.str(a.warp_state), wd.str(b.warp_state)) << i;
    EXPECT_EQ(d.str(a.instruction_type), wd.str(b.instruction_type)) << i;
  }
}

// Timed samples by their timestamp; aggregated ones by their dispatch's span.
TEST_F(rocpd_read_pc, window_applies_to_timestamps_and_dispatch_spans) {
  const auto& t = *trace_;
  read_options o;
  o.window.begin = t.kernels[t.kernels.size() / 3].start_ns;
  o.window.end = t.kernels[2 * t.kernels.size() / 3].end_ns;
  o.window.inclusive = true;
  std::map<uint64_t, const trace::kernel_dispatch_record*> dispatches;
  for (const auto& k : t.kernels)
    dispatches[k.dispatch_id] = &k;
  size_t expected = 0;
  for (const auto& r : t.pc_samples) {
    if (r.has_sample_detail) {
      expected += r.timestamp_ns >= o.window.begin && r.timestamp_ns <= o.window.end;
    } else {
      const auto* k = dispatches.at(r.dispatch_id);
      expected += k->start_ns >= o.window.begin && k->end_ns <= o.window.end;
    }
  }
  trace::trace_definitions d;
  const auto got = read(o, &d);
  EXPECT_GT(expected, 0u);
  EXPECT_LT(expected, t.pc_samples.size());
  EXPECT_EQ(got.size(), expected);
}

TEST_F(rocpd_read_pc, database_without_the_table_has_no_samples) {
  const std::string copy = dir_->path() + "/amd_like.db";
  std::filesystem::copy_file(db_, copy, std::filesystem::copy_options::overwrite_existing);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(copy.c_str(), &db), SQLITE_OK);
  std::vector<std::string> tables;
  sqlite3_exec(
      db, "SELECT name FROM sqlite_master WHERE type='table' AND name LIKE 'rocpd_pc_sample%'",
      [](void* out, int, char** values, char**) {
        static_cast<std::vector<std::string>*>(out)->emplace_back(values[0]);
        return 0;
      },
      &tables, nullptr);
  ASSERT_EQ(tables.size(), 1u);
  const std::string drop =
      "DROP VIEW IF EXISTS pc_samples; DROP VIEW IF EXISTS rocpd_pc_sample; "
      "DROP TABLE \"" +
      tables[0] + "\";";
  EXPECT_EQ(sqlite3_exec(db, drop.c_str(), nullptr, nullptr, nullptr), SQLITE_OK)
      << sqlite3_errmsg(db);
  sqlite3_close(db);
  std::string error;
  auto r = database_reader::open(copy, &error);
  ASSERT_TRUE(r) << error;
  trace::trace_definitions d;
  ASSERT_TRUE(r->read_definitions(0, d, &error)) << error;
  ts::record_collector got;
  ASSERT_TRUE(r->read_records(0, d, {}, {&got}, nullptr, &error)) << error;
  EXPECT_TRUE(got.of<trace::pc_sample_record>().empty());
  EXPECT_EQ(got.of<trace::kernel_dispatch_record>().size(), trace_->kernels.size());
}

}  // namespace
