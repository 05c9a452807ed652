// rocpd writer: the database is read back with the sqlite3 program (a reader we did not write):
// schema version 3 metadata, uuid-suffixed tables behind plain views, natural ids, the data and
// summary views, record counts per kind and a `rocpd summary`-style aggregate.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

#include "rocprof/test_support/synthetic_trace.hpp"
#include "rocprof/test_support/test_env.hpp"
#include "rocprof/trace/writer_registry.hpp"

namespace {

using namespace rocprof;
namespace ts = rocprof::test_support;

// Runs SQL on `db` through the sqlite3 CLI; returns its output without the trailing newline.
std::string sqlite_query(const std::string& db, const std::string& sql) {
  int status = 0;
  auto out = ts::run_command("sqlite3 -batch -noheader -separator '|' " + ts::shell_quote(db) +
                                 " " + ts::shell_quote(sql) + " 2>&1",
                             &status);
  EXPECT_EQ(status, 0) << sql << "\n" << out;
  while (!out.empty() && out.back() == '\n')
    out.pop_back();
  return out;
}

class rocpd_db : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!ts::have_program("sqlite3")) return;
    dir_ = new ts::temp_dir{"rocpd"};
    ts::synthetic_options so;
    so.records_per_kind = 700;
    trace_ = new ts::synthetic_trace{ts::make_synthetic_trace(so)};
    trace::output_options o;
    o.output_directory = dir_->path();
    o.file_prefix = "host/4242";  // a prefix with a directory, as the %hostname%/%pid% default
    db_ = o.path_for("results", "db");
    std::string error;
    auto w = trace::make_writer("rocpd", o, &error);
    ASSERT_TRUE(w) << error;
    ASSERT_EQ(ts::write_synthetic_trace(*w, *trace_, 101), "");
  }
  static void TearDownTestSuite() {
    delete trace_;
    delete dir_;
    trace_ = nullptr;
    dir_ = nullptr;
  }
  void SetUp() override { ASSERT_NE(dir_, nullptr) << ts::missing_reader("sqlite3"); }

  static std::string query(const std::string& sql) { return sqlite_query(db_, sql); }
  static uint64_t count(const std::string& from_where) {
    return std::stoull(query("SELECT COUNT(*) FROM " + from_where));
  }

  static ts::temp_dir* dir_;
  static ts::synthetic_trace* trace_;
  static std::string db_;
};
ts::temp_dir* rocpd_db::dir_ = nullptr;
ts::synthetic_trace* rocpd_db::trace_ = nullptr;
std::string rocpd_db::db_;

TEST_F(rocpd_db, metadata_and_uuid_tables) {
  EXPECT_EQ(query("SELECT value FROM rocpd_metadata WHERE tag='schema_version'"), "3");
  const auto uuid = query("SELECT value FROM rocpd_metadata WHERE tag='uuid'");
  const auto guid = query("SELECT value FROM rocpd_metadata WHERE tag='guid'");
  ASSERT_EQ(uuid.size(), 37u);
  EXPECT_EQ(uuid[0], '_');
  std::string expected_uuid = "_" + guid;
  for (auto& c : expected_uuid)
    if (c == '-') c = '_';
  EXPECT_EQ(uuid, expected_uuid);
  EXPECT_EQ(guid[14], '7') << "UUID version 7";
  // Every physical table carries the suffix and a guid column holding the guid.
  EXPECT_EQ(query("SELECT COUNT(*) FROM sqlite_master WHERE type='table' AND name LIKE 'rocpd_%" +
                  uuid + "'"),
            "21");  // AMD's 20 and the rocpd_pc_sample extension
  EXPECT_EQ(query("SELECT DISTINCT guid FROM rocpd_event"), guid);
  EXPECT_EQ(query("SELECT DISTINCT guid FROM rocpd_kernel_dispatch"), guid);
}

// CUDA graph membership and cluster shape live in the dispatch's extdata (no column in schema 3).
TEST_F(rocpd_db, graph_and_cluster_extdata) {
  const auto kernels = trace_->kernels.size();
  EXPECT_EQ(count("rocpd_kernel_dispatch WHERE json_extract(extdata, '$.graph_id') > 0"),
            kernels / 4);
  EXPECT_EQ(count("rocpd_kernel_dispatch WHERE json_extract(extdata, '$.graph_id') > 0 AND "
                  "dispatch_id % 4 != 0"),
            0u);
  EXPECT_EQ(count("rocpd_kernel_dispatch WHERE json_extract(extdata, '$.cluster_size.x') = 2"),
            kernels / 8);
  EXPECT_EQ(count("rocpd_memory_allocate WHERE json_extract(extdata, '$.memory_kind') != ''"),
            trace_->memory_allocations.size());
}

TEST_F(rocpd_db, all_views_exist) {
  const std::vector<std::string> views{"rocpd_metadata",
                                       "rocpd_string",
                                       "rocpd_info_node",
                                       "rocpd_info_process",
                                       "rocpd_info_thread",
                                       "rocpd_info_agent",
                                       "rocpd_info_queue",
                                       "rocpd_info_stream",
                                       "rocpd_info_pmc",
                                       "rocpd_info_code_object",
                                       "rocpd_info_kernel_symbol",
                                       "rocpd_track",
                                       "rocpd_event",
                                       "rocpd_arg",
                                       "rocpd_pmc_event",
                                       "rocpd_region",
                                       "rocpd_sample",
                                       "rocpd_kernel_dispatch",
                                       "rocpd_memory_copy",
                                       "rocpd_memory_allocate",
                                       "code_objects",
                                       "kernel_symbols",
                                       "processes",
                                       "threads",
                                       "regions",
                                       "region_args",
                                       "samples",
                                       "sample_regions",
                                       "regions_and_samples",
                                       "events_args",
                                       "stream_args",
                                       "kernels",
                                       "memory_copies",
                                       "memory_allocations",
                                       "scratch_memory",
                                       "pmc_info",
                                       "pmc_events",
                                       "counters_collection",
                                       "top_kernels",
                                       "busy",
                                       "top"};
  for (const auto& v : views) {
    EXPECT_EQ(query("SELECT COUNT(*) FROM sqlite_master WHERE type='view' AND name='" + v + "'"),
              "1")
        << v;
    query("SELECT * FROM \"" + v + "\" LIMIT 1");  // the view compiles and runs
  }
}

TEST_F(rocpd_db, natural_ids_and_strings) {
  const auto& t = *trace_;
  EXPECT_EQ(query("SELECT id, pid FROM rocpd_info_process"), "4242|4242");
  EXPECT_EQ(query("SELECT id FROM rocpd_string WHERE string=''"), "1");
  EXPECT_EQ(
      query("SELECT COUNT(*) FROM rocpd_string WHERE id != (SELECT COUNT(*) FROM rocpd_string s2 "
            "WHERE s2.string <= rocpd_string.string)"),
      "0")
      << "string ids follow lexicographic order";
  EXPECT_EQ(count("threads"), t.defs.threads.size());
  EXPECT_EQ(query("SELECT COUNT(*) FROM rocpd_info_thread WHERE id != tid"), "0");
  EXPECT_EQ(count("rocpd_info_agent"), t.defs.agents.size());
  EXPECT_EQ(query("SELECT name FROM rocpd_info_stream WHERE id=0"), "Default Stream");
  EXPECT_EQ(count("kernel_symbols"), t.defs.kernel_symbols.size());
  EXPECT_EQ(count("pmc_info"), t.defs.counters.size());
}

TEST_F(rocpd_db, record_counts_per_kind) {
  const auto& t = *trace_;
  size_t marks = 0, messages = 0;
  for (const auto& r : t.api) {
    marks += r.start_ns == r.end_ns;
    messages += r.message != 0;
  }
  const size_t events = t.api.size() + t.kernels.size() + t.memory_copies.size() +
                        t.memory_sets.size() + t.memory_allocations.size() +
                        t.scratch_memory.size() + t.device_counter_samples.size();
  // Device counter samples: an event, a sample on their track and a pmc event each.
  const size_t device_samples = t.device_counter_samples.size();
  EXPECT_EQ(count("rocpd_event"), events);
  EXPECT_EQ(count("regions"), t.api.size() - marks);
  EXPECT_EQ(count("samples"), marks + device_samples);
  EXPECT_EQ(count("samples WHERE category = 'DEVICE_COUNTER_SAMPLE'"), device_samples);
  EXPECT_EQ(count("regions_and_samples"), t.api.size() + device_samples);
  EXPECT_EQ(count("kernels"), t.kernels.size());
  EXPECT_EQ(
      query("SELECT MIN(dispatch_id), MAX(dispatch_id), COUNT(DISTINCT dispatch_id) FROM kernels"),
      "1|" + std::to_string(t.kernels.size()) + "|" + std::to_string(t.kernels.size()));
  EXPECT_EQ(count("memory_copies"), t.memory_copies.size() + t.memory_sets.size());
  EXPECT_EQ(count("memory_copies WHERE name='MEMORY_SET'"), t.memory_sets.size());
  EXPECT_EQ(count("memory_allocations"), t.memory_allocations.size());
  EXPECT_EQ(count("scratch_memory"), t.scratch_memory.size());
  EXPECT_EQ(count("rocpd_pmc_event"), t.counter_values.size() + device_samples);
  std::set<std::pair<uint64_t, uint64_t>> keys;
  for (const auto& c : t.counter_values)
    keys.emplace(c.dispatch_id, c.counter_id);
  EXPECT_EQ(count("counters_collection"), keys.size());
  // Marker messages live in rocpd_event.extdata.message; marks are samples on a track.
  EXPECT_EQ(count("regions_and_samples WHERE json_extract(extdata, '$.message') IS NOT NULL"),
            messages);
  EXPECT_EQ(
      count("samples WHERE category='MARKER_CORE_RANGE_API' AND name='MARKER_CORE_RANGE_API'"),
      marks);
  // Region ids are the internal correlation ids.
  EXPECT_EQ(count("regions WHERE id != stack_id"), 0u);
}

// PC samples (extension table rocpd_pc_sample, view pc_samples): one row per record, AMD-style
// per-sample records with their timestamp and strings.
TEST_F(rocpd_db, pc_samples_one_row_per_record) {
  const auto& t = *trace_;
  ASSERT_FALSE(t.pc_samples.empty());
  EXPECT_EQ(count("rocpd_pc_sample"), t.pc_samples.size());
  EXPECT_EQ(count("pc_samples"), t.pc_samples.size());
  const auto& first = t.pc_samples[0];
  EXPECT_EQ(query("SELECT method, dispatch_id, code_object_id, code_object_offset, timestamp, "
                  "sample_count, wave_issued IS NULL, instruction, stall_reason FROM pc_samples "
                  "ORDER BY id LIMIT 1"),
            "HOST_TRAP|" + std::to_string(first.dispatch_id) + "|1|" +
                std::to_string(first.code_object_offset) + "|" +
                std::to_string(first.timestamp_ns) + "|1|1|" + t.defs.strings[first.instruction] +
                "|" + t.defs.strings[first.stall_reason]);
  EXPECT_EQ(count("pc_samples WHERE comment IS NULL OR timestamp IS NULL"), 0u);
}

// NVIDIA's aggregated samples: their count, the vendor's warp state, and NULL where nothing
// was measured (timestamp, exec mask, wave count, the unknown dispatch).
TEST(rocpd_pc_samples, aggregated_samples_keep_counts_and_leave_unmeasured_fields_null) {
  if (!ts::have_program("sqlite3")) GTEST_FAIL() << ts::missing_reader("sqlite3");
  ts::temp_dir dir{"rocpd_pc"};
  ts::synthetic_options so;
  so.records_per_kind = 2;
  ts::synthetic_trace t = ts::make_synthetic_trace(so);
  auto& r = t.pc_samples[1];
  r.method = trace::pc_sample_method::stochastic;
  r.has_sample_detail = false;
  r.dispatch_exact = false;
  r.dispatch_id = 0;
  r.sample_count = 40;
  r.not_issued_count = 30;
  r.wave_issued = true;
  r.warp_state = r.stall_reason;
  // NVIDIA's samples name their kernel: the view shows its display name, as the kernels view.
  const auto& symbol = t.defs.kernel_symbols.at(0);
  r.kernel_id = symbol.kernel_id;
  trace::output_options o;
  o.output_directory = dir.path();
  o.file_prefix = "pc";
  std::string error;
  auto w = trace::make_writer("rocpd", o, &error);
  ASSERT_TRUE(w) << error;
  ASSERT_EQ(ts::write_synthetic_trace(*w, t, 101), "");
  const std::string out = sqlite_query(
      o.path_for("results", "db"),
      "SELECT method, dispatch_id IS NULL, timestamp IS NULL, exec_mask IS NULL, "
      "wave_count IS NULL, wave_issued, sample_count, not_issued_count, vendor_stall_reason, "
      "json_extract(extdata, '$.dispatch_exact') FROM pc_samples ORDER BY id");
  const std::string warp_state = t.defs.strings[r.warp_state];
  EXPECT_EQ(out, "HOST_TRAP|0|0|0|0||1|0||\nSTOCHASTIC|1|1|1|1|1|40|30|" + warp_state + "|0");
  EXPECT_EQ(sqlite_query(o.path_for("results", "db"),
                         "SELECT kernel_name FROM pc_samples WHERE kernel_id IS NOT NULL"),
            symbol.display_name);
}

TEST_F(rocpd_db, summary_style_aggregate_matches_records) {
  const auto& t = *trace_;
  std::map<std::string, std::pair<uint64_t, uint64_t>> expected;  // name -> calls, total ns
  for (const auto& k : t.kernels) {
    std::string name;
    for (const auto& s : t.defs.kernel_symbols)
      if (s.kernel_id == k.kernel_id) name = s.display_name;
    auto& e = expected[name];
    ++e.first;
    e.second += k.end_ns - k.start_ns;
  }
  std::ostringstream want;
  for (const auto& [name, e] : expected)
    want << name << '|' << e.first << '|' << e.second << '\n';
  auto got = query("SELECT name, COUNT(*), SUM(duration) FROM kernels GROUP BY name ORDER BY name");
  EXPECT_EQ(got + "\n", want.str());
  // top_kernels is in microseconds and its percentages add up to 100.
  EXPECT_EQ(query("SELECT ROUND(SUM(percentage), 6) FROM top_kernels"), "100.0");
  EXPECT_EQ(query("SELECT COUNT(*) FROM busy WHERE Busy > 0"),
            std::to_string(t.defs.agents.size()));
}

}  // namespace

namespace {

// Region ids are correlation ids; a producer that repeats one must not lose the database.
TEST(rocpd_writer, repeated_correlation_ids_keep_every_region) {
  ASSERT_TRUE(ts::have_program("sqlite3")) << ts::missing_reader("sqlite3");
  ts::temp_dir dir{"rocpd-dup"};
  ts::synthetic_options so;
  so.records_per_kind = 300;
  auto t = ts::make_synthetic_trace(so);
  for (auto& r : t.api)  // many repeats, and some records without a correlation id
    r.corr.internal = r.corr.internal % 7 == 0 ? 0 : 1 + r.corr.internal % 50;
  trace::output_options o;
  o.output_directory = dir.path();
  o.file_prefix = "dup";
  std::string error;
  auto w = trace::make_writer("rocpd", o, &error);
  ASSERT_TRUE(w) << error;
  ASSERT_EQ(ts::write_synthetic_trace(*w, t, 64), "");
  int status = 0;
  auto out = ts::run_command("sqlite3 -batch " + ts::shell_quote(o.path_for("results", "db")) +
                                 " 'SELECT COUNT(*) FROM regions_and_samples' 2>&1",
                             &status);
  EXPECT_EQ(status, 0) << out;
  // Device counter samples are samples too (one each).
  EXPECT_EQ(out, std::to_string(t.api.size() + t.device_counter_samples.size()) + "\n");
}

// --cuda-api-args: each argument of a call is a rocpd_arg row of the call's event (position
// from 0, type, name, value, as AMD's rocpd stores HIP's), read through AMD's events_args view;
// a non-zero return value goes to the event's extdata.
TEST(rocpd_writer, cuda_api_arguments_fill_rocpd_arg) {
  ASSERT_TRUE(ts::have_program("sqlite3")) << ts::missing_reader("sqlite3");
  ts::temp_dir dir{"rocpd-args"};
  ts::synthetic_options so;
  so.records_per_kind = 40;
  auto t = ts::make_synthetic_trace(so);
  const auto args_id = ts::add_copy_arguments(t.defs, 700);
  size_t with_args = 0;
  for (auto& r : t.api)
    if (r.domain == trace::api_domain::cuda_runtime && r.message == trace::empty_string)
      r.args = args_id, ++with_args;
  ASSERT_GT(with_args, 0u);
  trace::output_options o;
  o.output_directory = dir.path();
  o.file_prefix = "args";
  std::string error;
  auto w = trace::make_writer("rocpd", o, &error);
  ASSERT_TRUE(w) << error;
  ASSERT_EQ(ts::write_synthetic_trace(*w, t, 16), "");
  const std::string db = o.path_for("results", "db");
  EXPECT_EQ(sqlite_query(db, "SELECT COUNT(*) FROM rocpd_arg"), std::to_string(2 * with_args));
  EXPECT_EQ(sqlite_query(db,
                         "SELECT arg_position, arg_type, arg_name, arg_value, COUNT(*) FROM "
                         "events_args GROUP BY 1, 2, 3, 4 ORDER BY 1"),
            "0|void*|dst|0xd000|" + std::to_string(with_args) + "\n1|size_t|count|4096|" +
                std::to_string(with_args));
  EXPECT_EQ(sqlite_query(db,
                         "SELECT COUNT(*) FROM rocpd_event WHERE "
                         "json_extract(extdata, '$.retval') = 700"),
            std::to_string(with_args));
}

// Agent row ids are node ids. A backend that leaves them unset (every agent node 0) or a record
// naming an agent the definitions lack must still give every agent a row of its own, with the
// records joined to the right one (AMD's views join agents with inner joins).
TEST(rocpd_writer, agents_with_repeated_node_ids_keep_their_rows) {
  ASSERT_TRUE(ts::have_program("sqlite3")) << ts::missing_reader("sqlite3");
  ts::temp_dir dir{"rocpd-agents"};
  ts::synthetic_options so;
  so.records_per_kind = 50;
  auto t = ts::make_synthetic_trace(so);
  for (auto& a : t.defs.agents)
    a.node_id = 0;
  const uint64_t unknown_agent = 999;
  t.kernels.back().agent_id = unknown_agent;
  trace::output_options o;
  o.output_directory = dir.path();
  o.file_prefix = "agents";
  std::string error;
  auto w = trace::make_writer("rocpd", o, &error);
  ASSERT_TRUE(w) << error;
  ASSERT_EQ(ts::write_synthetic_trace(*w, t, 64), "");
  auto sql = [&](const std::string& q) {
    int status = 0;
    auto out = ts::run_command("sqlite3 -batch " + ts::shell_quote(o.path_for("results", "db")) +
                                   " " + ts::shell_quote(q) + " 2>&1",
                               &status);
    EXPECT_EQ(status, 0) << q << "\n" << out;
    while (!out.empty() && out.back() == '\n')
      out.pop_back();
    return out;
  };
  EXPECT_EQ(sql("SELECT COUNT(DISTINCT id) FROM rocpd_info_agent"),
            std::to_string(t.defs.agents.size() + 1));
  EXPECT_EQ(sql("SELECT COUNT(*) FROM rocpd_info_agent WHERE id != absolute_index OR "
                "id != json_extract(extdata, '$.node_id')"),
            "0");
  // Every dispatch but the last runs on a GPU row; the last on the row made for its handle.
  EXPECT_EQ(sql("SELECT COUNT(*) FROM rocpd_kernel_dispatch K JOIN rocpd_info_agent A "
                "ON A.id = K.agent_id WHERE A.type = 'GPU'"),
            std::to_string(t.kernels.size() - 1));
  EXPECT_EQ(sql("SELECT COUNT(*) FROM rocpd_kernel_dispatch K JOIN rocpd_info_agent A ON A.id = "
                "K.agent_id WHERE A.type IS NULL AND json_extract(A.extdata, '$.handle') = " +
                std::to_string(unknown_agent)),
            "1");
}

}  // namespace
