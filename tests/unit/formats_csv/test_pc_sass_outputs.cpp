// The SASS text of NVIDIA's sampled PCs (trace_definitions::pc_instructions, found at the end of
// the run) in every output: the CSV Instruction column, JSON pc_sample_instructions, the rocpd
// instruction (read back by sqlite3) and the hot-spot report's instruction rows and location
// names. Samples of two kernels at the same function-relative offset keep their own text.
#include <gtest/gtest.h>

#include <string>

#include "hotspots/pc_hotspots.hpp"
#include "rocprof/test_support/synthetic_trace.hpp"
#include "rocprof/test_support/test_env.hpp"
#include "writer_helpers.hpp"

namespace {

using namespace rocprof;
namespace ts = rocprof::test_support;
using ts::add_string;
using ts::write_with;

// The chase (LDG at 0x1e0, with a line), the FMA loop (FFMA at 0x1e0 too, no line) and one PC
// whose text is unknown.
ts::synthetic_trace sass_trace() {
  auto t = ts::make_synthetic_trace({});
  t.pc_samples.clear();
  auto& d = t.defs;
  const uint64_t chase = d.kernel_symbols.at(0).kernel_id;
  const uint64_t fma = d.kernel_symbols.at(1).kernel_id;
  d.pc_instructions = {{1, chase, 0x1e0, add_string(d, "LDG.E R7, desc[UR4][R6.64]")},
                       {1, fma, 0x1e0, add_string(d, "FFMA R4, R7, R4, R6")}};
  std::sort(d.pc_instructions.begin(), d.pc_instructions.end());
  const auto line30 = add_string(d, "/src/app.cu:30");
  const auto ls = add_string(d, "long_scoreboard");
  auto sample = [&](uint64_t kernel, uint64_t offset, uint64_t n, trace::string_id line) {
    auto r = ts::aggregated_pc_sample(3, kernel, offset, n, 0);
    r.warp_state = ls;
    r.comment = line;
    t.pc_samples.push_back(r);
  };
  sample(chase, 0x1e0, 900, line30);
  sample(fma, 0x1e0, 300, 0);
  sample(fma, 0x2f0, 100, 0);
  return t;
}

using ts::run_python;

TEST(pc_sass_outputs, csv_and_json_carry_each_kernels_own_instruction_text) {
  ASSERT_TRUE(ts::have_program("python3")) << ts::missing_reader("python3");
  ts::temp_dir dir{"pc-sass"};
  const auto o = ts::options_for(dir.path(), "pc");
  const auto t = sass_trace();
  ASSERT_EQ(write_with("csv", t, o), "");
  ASSERT_EQ(write_with("json", t, o), "");
  std::string out;
  const int status = run_python(
      "import csv, json\n"
      "rows = list(csv.DictReader(open('" +
          o.path_for("pc_sampling_stochastic", "csv") +
          "', newline='')))\n"
          "got = sorted((r['Sample_Count'], r['Instruction']) for r in rows)\n"
          "assert got == [('100', ''), ('300', 'FFMA R4, R7, R4, R6'), "
          "('900', 'LDG.E R7, desc[UR4][R6.64]')], got\n"
          "doc = json.load(open('" +
          o.path_for("results", "json") +
          "'))['rocprofiler-sdk-tool'][0]\n"
          "insts = doc['strings']['pc_sample_instructions']\n"
          "s = doc['buffer_records']['pc_sample_stochastic']\n"
          "got = sorted((x['sample_count'], insts[x['inst_index']]) for x in s)\n"
          "assert got == [(100, ''), (300, 'FFMA R4, R7, R4, R6'), "
          "(900, 'LDG.E R7, desc[UR4][R6.64]')], got\n"
          "print('ok')\n",
      &out);
  EXPECT_EQ(status, 0) << out;
}

TEST(pc_sass_outputs, rocpd_instruction_column_read_back_by_sqlite3) {
  ASSERT_TRUE(ts::have_program("sqlite3")) << ts::missing_reader("sqlite3");
  ts::temp_dir dir{"pc-sass-db"};
  const auto o = ts::options_for(dir.path(), "pc");
  ASSERT_EQ(write_with("rocpd", sass_trace(), o), "");
  const std::string out = ts::run_command(
      "sqlite3 -batch -noheader -separator '|' " + ts::shell_quote(o.path_for("results", "db")) +
      " \"SELECT sample_count, IFNULL(instruction, 'NULL') FROM pc_samples ORDER BY "
      "sample_count\"");
  EXPECT_EQ(out, "100|NULL\n300|FFMA R4, R7, R4, R6\n900|LDG.E R7, desc[UR4][R6.64]\n");
}

TEST(pc_sass_outputs, hotspots_rank_instructions_beside_source_lines) {
  const auto t = sass_trace();
  const auto report = formats::hotspots::build_hotspots(t.defs, trace::make_span(t.pc_samples),
                                                        ts::options_for("/tmp", "pc"), 5);
  ASSERT_EQ(report.size(), 2u);
  ASSERT_EQ(report[0].instructions.size(), 1u);
  EXPECT_EQ(report[0].instructions[0].name, "0x01e0  LDG.E R7, desc[UR4][R6.64]  (/src/app.cu:30)");
  EXPECT_DOUBLE_EQ(report[0].instructions[0].percent, 100.0);
  // No source line: the location is the instruction, with its text.
  EXPECT_EQ(report[1].locations[0].name, "code object 1 +0x1e0  FFMA R4, R7, R4, R6");
  EXPECT_EQ(report[1].locations[1].name, "code object 1 +0x2f0");
  ASSERT_EQ(report[1].instructions.size(), 1u);  // only PCs whose text is known
  EXPECT_EQ(report[1].instructions[0].name, "0x01e0  FFMA R4, R7, R4, R6");
  EXPECT_DOUBLE_EQ(report[1].instructions[0].percent, 75.0);
  const std::string text = formats::hotspots::render_hotspots(report);
  EXPECT_NE(text.find("    top instructions:\n      100.00%  0x01e0  LDG.E"), std::string::npos)
      << text;
}

TEST(pc_sass_outputs, hotspot_csv_has_instruction_rows) {
  ASSERT_TRUE(ts::have_program("python3")) << ts::missing_reader("python3");
  ts::temp_dir dir{"pc-sass-hot"};
  const auto o = ts::options_for(dir.path(), "pc");
  ASSERT_EQ(write_with("pc_hotspots", sass_trace(), o), "");
  std::string out;
  const int status = run_python(
      "import csv\n"
      "rows = list(csv.DictReader(open('" +
          o.path_for("pc_sampling_hotspots", "csv") +
          "', newline='')))\n"
          "inst = [(r['Rank'], r['Name'], r['Percentage']) for r in rows if r['Kind'] == "
          "'instruction']\n"
          "assert inst == [('1', '0x01e0  LDG.E R7, desc[UR4][R6.64]  (/src/app.cu:30)', "
          "'100.00'), ('1', '0x01e0  FFMA R4, R7, R4, R6', '75.00')], inst\n"
          "print('ok')\n",
      &out);
  EXPECT_EQ(status, 0) << out;
}

}  // namespace
