// A counter run without --kernel-trace (only counter_dispatch and counter_value records) in every
// format, checked by check_counter_outputs.py with independent readers against expectations
// computed here from the records; and the -S counter table's exact text.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "rocprof/test_support/synthetic_trace.hpp"
#include "rocprof/test_support/test_env.hpp"
#include "rocprof/trace/writer_registry.hpp"
#include "summary/counter_table.hpp"

namespace {

namespace ts = rocprof::test_support;
namespace tr = rocprof::trace;

// The synthetic trace as a counter-only run: its counted dispatches and their values, the
// counters defined with one DIMENSION_INSTANCE of size 1 (as a CUDA metric is).
ts::synthetic_trace counter_run() {
  ts::synthetic_options so;
  so.records_per_kind = 90;
  auto full = ts::make_synthetic_trace(so);
  ts::synthetic_trace t;
  t.defs = full.defs;
  t.counter_values = full.counter_values;
  std::set<uint64_t> counted;
  for (const auto& v : t.counter_values)
    counted.insert(v.dispatch_id);
  for (const auto& d : full.counter_dispatches)
    if (counted.count(d.dispatch.dispatch_id)) t.counter_dispatches.push_back(d);
  for (auto& c : t.defs.counters) {
    c.dimensions = {{1, "DIMENSION_INSTANCE", 1}};
    c.instances = {{c.id << 32, {0}}};
  }
  return t;
}

std::string kernel_name(const tr::trace_definitions& defs, uint64_t kernel_id) {
  for (const auto& k : defs.kernel_symbols)
    if (k.kernel_id == kernel_id) return k.display_name;
  return {};
}

TEST(counter_outputs, a_counter_run_without_kernel_trace_in_every_format) {
  ASSERT_TRUE(ts::have_program(ROCPROF_COUNTERS_PYTHON)) << ts::missing_reader("python3");
  ASSERT_TRUE(ts::have_program(ROCPROF_COUNTERS_PROTOC)) << ts::missing_reader("protoc");
  ASSERT_TRUE(ts::have_program(ROCPROF_COUNTERS_OTF2_PRINT)) << ts::missing_reader("otf2-print");
  const auto trace = counter_run();
  ASSERT_FALSE(trace.counter_dispatches.empty());

  const std::filesystem::path dir = ts::scratch_dir("counters");
  tr::output_options options;
  options.output_directory = dir.string();
  options.file_prefix = "pmc";
  options.stats = true;
  options.summary = true;
  options.summary_output = "summary";
  for (const char* format : {"rocpd", "csv", "json", "pftrace", "otf2", "summary"}) {
    std::string error;
    auto w = tr::make_writer(format, options, &error);
    ASSERT_NE(w, nullptr) << format << ": " << error;
    ASSERT_EQ(ts::write_synthetic_trace(*w, trace, 7), "") << format;
  }

  nlohmann::json expected;
  expected["prefix"] = "pmc";
  expected["protoc"] = ROCPROF_COUNTERS_PROTOC;
  expected["proto_dir"] = ROCPROF_PERFETTO_PROTO_DIR;
  expected["otf2_print"] = ROCPROF_COUNTERS_OTF2_PRINT;
  std::map<uint64_t, std::string> counter_names;
  for (const auto& c : trace.defs.counters)
    counter_names[c.id] = c.name;
  expected["counters"] = trace.defs.counters.size();
  std::map<std::pair<uint64_t, uint64_t>, double> sums;
  std::set<std::pair<uint64_t, uint64_t>> agent_counters;
  for (const auto& v : trace.counter_values) {
    sums[{v.dispatch_id, v.counter_id}] += v.value;
    agent_counters.emplace(v.agent_id, v.counter_id);
  }
  std::map<uint64_t, const tr::kernel_dispatch_record*> dispatches;
  for (const auto& d : trace.counter_dispatches)
    dispatches[d.dispatch.dispatch_id] = &d.dispatch;
  std::set<std::pair<std::string, std::string>> kernel_counters;
  for (const auto& [key, value] : sums) {
    const auto& d = *dispatches.at(key.first);
    const std::string kernel = kernel_name(trace.defs, d.kernel_id);
    kernel_counters.emplace(kernel, counter_names[key.second]);
    expected["rows"].push_back(
        {{"dispatch", key.first},
         {"counter", counter_names[key.second]},
         {"value", value},
         {"kernel", kernel},
         {"correlation", d.corr.internal},
         {"thread", d.tid},
         {"grid", uint64_t{d.grid_size.x} * d.grid_size.y * d.grid_size.z},
         {"workgroup", uint64_t{d.workgroup_size.x} * d.workgroup_size.y * d.workgroup_size.z},
         {"start", d.start_ns},
         {"end", d.end_ns}});
  }
  expected["dispatches"] = dispatches.size();
  expected["values"] = trace.counter_values.size();
  expected["kernel_counter_pairs"] = kernel_counters.size();
  expected["pmc_tracks"] = agent_counters.size();
  const auto expected_path = dir / "expected.json";
  std::ofstream(expected_path) << expected.dump(1);

  const auto [status, out] =
      ts::run(std::string(ROCPROF_COUNTERS_PYTHON) + " " + ROCPROF_COUNTERS_SCRIPT + " '" +
              dir.string() + "' '" + expected_path.string() + "' 2>&1");
  EXPECT_EQ(status, 0) << out;
  std::printf("%s", out.c_str());
}

TEST(counter_outputs, the_summary_counter_table) {
  const std::vector<rocprof::formats::counter_stats_row> rows{
      {"copy(float*, float*, int)", "FETCH_SIZE", 4, 1048576, 1048576, 1048576, 4194304},
      {"fma_loop(float*, int)", "smsp__warps_active.avg.pct_of_peak_sustained_active", 2, 41.25,
       97.5, 69.375, 138.75}};
  const auto text = rocprof::formats::summary::render_counter_table(rows, "");
  EXPECT_EQ(text,
            "\nROCPROFV3 COUNTER_COLLECTION SUMMARY:\n\n"
            "|                  KERNEL                  |                       COUNTER            "
            "           |   DISPATCHES    |       MIN       |     AVERAGE     |       MAX       |\n"
            "|------------------------------------------|------------------------------------------"
            "-----------|-----------------|-----------------|-----------------|-----------------|\n"
            "| copy(float*, float*, int)                | FETCH_SIZE                               "
            "           |               4 |         1048576 |         1048576 |         1048576 |\n"
            "| fma_loop(float*, int)                    | "
            "smsp__warps_active.avg.pct_of_peak_sustained_active |               2 |           "
            "41.25 |          69.375 |            97.5 |\n"
            "\n");
  EXPECT_EQ(rocprof::formats::summary::render_counter_table({}, "    "), "");
}

}  // namespace
