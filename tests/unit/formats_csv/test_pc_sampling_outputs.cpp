// PC sampling outputs of aggregated (NVIDIA) samples: pc_sampling_stochastic.csv (golden header,
// rows read back by Python's csv module), the JSON pc_sample_stochastic array (read back by
// Python's json module) and the hot-spot report (ranking, shares, its CSV read back by Python).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "hotspots/pc_hotspots.hpp"
#include "rocprof/test_support/synthetic_trace.hpp"
#include "rocprof/test_support/test_env.hpp"
#include "rocprof/trace/writer_registry.hpp"
#include "writer_helpers.hpp"

namespace {

using namespace rocprof;
namespace ts = rocprof::test_support;

using ts::add_string;

// A pointer chase (kernel A: mostly long_scoreboard at line 30) and an FMA loop (kernel B).
ts::synthetic_trace sampled_trace() {
  auto t = ts::make_synthetic_trace({});
  t.pc_samples.clear();
  auto& d = t.defs;
  const uint64_t chase = d.kernel_symbols.at(0).kernel_id;
  const uint64_t fma = d.kernel_symbols.at(1).kernel_id;
  const auto ls = add_string(d, "long_scoreboard"), wait = add_string(d, "wait");
  const auto sel = add_string(d, "selected");
  const auto waitcnt =
      add_string(d, "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT");
  const auto alu =
      add_string(d, "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ALU_DEPENDENCY");
  const auto none = add_string(d, "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NONE");
  const auto line30 = add_string(d, "/src/app.cu:30"), line31 = add_string(d, "/src/app.cu:31");
  const auto line40 = add_string(d, "/src/app.cu:40");
  auto sample = [&](uint64_t kernel, trace::string_id state, trace::string_id reason,
                    trace::string_id line, uint64_t offset, uint64_t n, uint64_t not_issued) {
    auto r = ts::aggregated_pc_sample(3, kernel, offset, n, not_issued);
    r.warp_state = state;
    r.stall_reason = reason;
    r.comment = line;
    t.pc_samples.push_back(r);
  };
  sample(chase, ls, waitcnt, line30, 0x1e0, 900, 890);
  sample(chase, sel, none, line31, 0x1f0, 100, 0);
  sample(fma, wait, alu, line40, 0x200, 300, 200);
  sample(fma, sel, none, line40, 0x210, 100, 0);
  return t;
}

trace::output_options options_for(const std::string& dir) {
  return ts::options_for(dir, "pc");
}

using ts::write_with;

using ts::run_python;

TEST(pc_sampling_outputs, stochastic_csv_has_rocprofv3_columns_then_extensions) {
  ASSERT_TRUE(ts::have_program("python3")) << ts::missing_reader("python3");
  ts::temp_dir dir{"pc-csv"};
  const auto t = sampled_trace();
  const auto o = options_for(dir.path());
  ASSERT_EQ(write_with("csv", t, o), "");
  const std::string path = o.path_for("pc_sampling_stochastic", "csv");
  const std::string text = ts::read_file(path);
  // rocprofv3-facts.md §3.5's ten columns, then ours.
  EXPECT_EQ(
      text.substr(0, text.find('\n')),
      R"("Sample_Timestamp","Exec_Mask","Dispatch_Id","Instruction","Instruction_Comment","Correlation_Id","Wave_Issued_Instruction","Instruction_Type","Stall_Reason","Wave_Count","Sample_Count","Not_Issued_Count","Vendor_Stall_Reason","Agent_Id","Kernel_Id","Kernel_Name","Code_Object_Id","Code_Object_Offset")");
  std::string out;
  const int status = run_python(
      "import csv\n"
      "rows = list(csv.DictReader(open('" +
          path +
          "', newline='')))\n"
          "assert len(rows) == 4, rows\n"
          "assert sum(int(r['Sample_Count']) for r in rows) == 1400\n"
          "for r in rows:\n"
          "    assert r['Sample_Timestamp'] == '' and r['Exec_Mask'] == '' and r['Wave_Count'] == "
          "''\n"
          "    assert r['Dispatch_Id'] == '' and r['Correlation_Id'] == ''\n"
          "    assert r['Kernel_Name'] != ''\n"
          "ls = [r for r in rows if r['Vendor_Stall_Reason'] == 'long_scoreboard'][0]\n"
          "assert ls['Not_Issued_Count'] == '890' and ls['Wave_Issued_Instruction'] == '1'\n"
          "assert ls['Instruction_Comment'] == '/src/app.cu:30'\n"
          "assert ls['Stall_Reason'].endswith('WAITCNT') and ls['Code_Object_Offset'] == '480'\n"
          "print('ok')\n",
      &out);
  EXPECT_EQ(status, 0) << out;
}

TEST(pc_sampling_outputs, json_pc_sample_stochastic_leaves_out_what_does_not_exist) {
  ASSERT_TRUE(ts::have_program("python3")) << ts::missing_reader("python3");
  ts::temp_dir dir{"pc-json"};
  const auto o = options_for(dir.path());
  ASSERT_EQ(write_with("json", sampled_trace(), o), "");
  std::string out;
  const int status = run_python(
      "import json\n"
      "doc = json.load(open('" +
          o.path_for("results", "json") +
          "'))\n"
          "s = doc['rocprofiler-sdk-tool'][0]['buffer_records']['pc_sample_stochastic']\n"
          "assert len(s) == 4 and sum(x['sample_count'] for x in s) == 1400\n"
          "for x in s:\n"
          "    assert 'timestamp' not in x and 'exec_mask' not in x and 'dispatch_id' not in x\n"
          "    assert x['pc']['code_object_id'] == 1 and x['agent_id'] == 3\n"
          "assert {x['warp_state'] for x in s} == {'long_scoreboard', 'wait', 'selected'}\n"
          "print('ok')\n",
      &out);
  EXPECT_EQ(status, 0) << out;
}

TEST(pc_sampling_outputs, hotspots_rank_reasons_and_lines_per_kernel) {
  const auto t = sampled_trace();
  const auto report = formats::hotspots::build_hotspots(t.defs, trace::make_span(t.pc_samples),
                                                        options_for("/tmp"), 5);
  ASSERT_EQ(report.size(), 2u);
  EXPECT_EQ(report[0].samples, 1000u);  // the chase: most samples first
  ASSERT_FALSE(report[0].reasons.empty());
  EXPECT_EQ(report[0].reasons[0].name, "long_scoreboard");
  EXPECT_DOUBLE_EQ(report[0].reasons[0].percent, 90.0);
  EXPECT_EQ(report[0].locations[0].name, "/src/app.cu:30");
  EXPECT_EQ(report[1].reasons[0].name, "wait");
  EXPECT_DOUBLE_EQ(report[1].reasons[0].percent, 75.0);
  EXPECT_EQ(report[1].locations[0].name, "/src/app.cu:40");
  EXPECT_EQ(report[1].locations[0].samples, 400u);
  const std::string text = formats::hotspots::render_hotspots(report);
  EXPECT_NE(text.find("PC SAMPLING HOT SPOTS"), std::string::npos);
  EXPECT_NE(text.find(" 90.00%  long_scoreboard"), std::string::npos) << text;
}

TEST(pc_sampling_outputs, hotspot_csv_read_back_by_python) {
  ASSERT_TRUE(ts::have_program("python3")) << ts::missing_reader("python3");
  ts::temp_dir dir{"pc-hot"};
  const auto o = options_for(dir.path());
  ASSERT_EQ(write_with("pc_hotspots", sampled_trace(), o), "");
  std::string out;
  const int status = run_python(
      "import csv\n"
      "rows = list(csv.DictReader(open('" +
          o.path_for("pc_sampling_hotspots", "csv") +
          "', newline='')))\n"
          "top = [r for r in rows if r['Kind'] == 'stall_reason' and r['Rank'] == '1']\n"
          "assert [r['Name'] for r in top] == ['long_scoreboard', 'wait'], top\n"
          "assert top[0]['Percentage'] == '90.00' and top[0]['Kernel_Samples'] == '1000'\n"
          "print('ok')\n",
      &out);
  EXPECT_EQ(status, 0) << out;
}

}  // namespace
