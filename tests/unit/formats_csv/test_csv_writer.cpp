// CSV writer: exact headers (golden, from the rocprofv3 fact sheet), number formats, and the
// files read back by Python's csv module with counts computed from the synthetic trace.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "common/number_format.hpp"
#include "csv/csv_writer.hpp"
#include "rocprof/test_support/synthetic_trace.hpp"
#include "rocprof/test_support/test_env.hpp"
#include "rocprof/trace/writer_registry.hpp"

namespace {

using namespace rocprof;
namespace ts = rocprof::test_support;

std::string first_line(const std::string& path) {
  auto text = ts::read_file(path);
  return text.substr(0, text.find('\n'));
}

trace::output_options options_for(const std::string& dir) {
  trace::output_options o;
  o.output_directory = dir;
  o.file_prefix = "synth";
  o.stats = true;
  return o;
}

std::string write_csv(const ts::synthetic_trace& t, const trace::output_options& o) {
  std::string error;
  auto w = trace::make_writer("CSV", o, &error);
  EXPECT_TRUE(w) << error;
  return w ? ts::write_synthetic_trace(*w, t, 37) : error;
}

TEST(csv_format, trace_doubles) {
  std::string s;
  formats::append_trace_double(s, 16384.0);
  EXPECT_EQ(s, "16384.000000");
  s.clear();
  formats::append_trace_double(s, 0.5);
  EXPECT_EQ(s, "5.00000000e-01");
}

TEST(csv_format, stats_numbers) {
  std::string s;
  formats::append_stats_double(s, 1234.5);
  EXPECT_EQ(s, "1234.500000");
  s.clear();
  formats::append_stats_double(s, 0.005);
  EXPECT_EQ(s, "5.00000000e-03");
  s.clear();
  formats::append_stats_percent(s, 42.123);
  EXPECT_EQ(s, "42.12");
  s.clear();
  formats::append_stats_percent(s, 0.5);
  EXPECT_EQ(s, "0.5000");
  s.clear();
  formats::append_stats_percent(s, 0.001);
  EXPECT_EQ(s, "1.000e-03");
  s.clear();
  formats::append_hex_address(s, 0x7ffb26354000ull);
  EXPECT_EQ(s, "0x00007ffb26354000");
}

TEST(csv_writer, golden_headers) {
  ts::temp_dir dir{"csv-headers"};
  auto t = ts::make_synthetic_trace({});
  auto o = options_for(dir.path());
  ASSERT_EQ(write_csv(t, o), "");
  // Copied from rocprofv3-facts.md §3.5, not from our sources.
  const std::map<std::string, std::string> golden{
      {"kernel_trace",
       R"("Kind","Agent_Id","Queue_Id","Stream_Id","Thread_Id","Dispatch_Id","Kernel_Id","Kernel_Name","Correlation_Id","Start_Timestamp","End_Timestamp","LDS_Block_Size","Scratch_Size","VGPR_Count","Accum_VGPR_Count","SGPR_Count","Workgroup_Size_X","Workgroup_Size_Y","Workgroup_Size_Z","Grid_Size_X","Grid_Size_Y","Grid_Size_Z")"},
      {"hip_api_trace",
       R"("Domain","Function","Process_Id","Thread_Id","Correlation_Id","Start_Timestamp","End_Timestamp")"},
      {"marker_api_trace",
       R"("Domain","Function","Process_Id","Thread_Id","Correlation_Id","Start_Timestamp","End_Timestamp")"},
      {"cuda_api_trace",
       R"("Domain","Function","Process_Id","Thread_Id","Correlation_Id","Start_Timestamp","End_Timestamp")"},
      {"memory_copy_trace",
       R"("Kind","Direction","Stream_Id","Source_Agent_Id","Destination_Agent_Id","Correlation_Id","Start_Timestamp","End_Timestamp")"},
      {"memory_allocation_trace",
       R"("Kind","Operation","Agent_Id","Allocation_Size","Address","Correlation_Id","Start_Timestamp","End_Timestamp")"},
      {"scratch_memory_trace",
       R"("Kind","Operation","Agent_Id","Queue_Id","Thread_Id","Alloc_Flags","Start_Timestamp","End_Timestamp","Allocation_Size")"},
      {"counter_collection",
       R"("Correlation_Id","Dispatch_Id","Agent_Id","Queue_Id","Process_Id","Thread_Id","Grid_Size","Kernel_Id","Kernel_Name","Workgroup_Size","LDS_Block_Size","Scratch_Size","VGPR_Count","Accum_VGPR_Count","SGPR_Count","Counter_Name","Counter_Value","Start_Timestamp","End_Timestamp")"},
      {"agent_info",
       R"("Node_Id","Logical_Node_Id","Agent_Type","Cpu_Cores_Count","Simd_Count","Cpu_Core_Id_Base","Simd_Id_Base","Max_Waves_Per_Simd","Lds_Size_In_Kb","Gds_Size_In_Kb","Num_Gws","Wave_Front_Size","Num_Xcc","Cu_Count","Array_Count","Num_Shader_Banks","Simd_Arrays_Per_Engine","Cu_Per_Simd_Array","Simd_Per_Cu","Max_Slots_Scratch_Cu","Gfx_Target_Version","Vendor_Id","Device_Id","Location_Id","Domain","Drm_Render_Minor","Num_Sdma_Engines","Num_Sdma_Xgmi_Engines","Num_Sdma_Queues_Per_Engine","Num_Cp_Queues","Max_Engine_Clk_Ccompute","Max_Engine_Clk_Fcompute","Sdma_Fw_Version","Fw_Version","Capability","Cu_Per_Engine","Max_Waves_Per_Cu","Family_Id","Workgroup_Max_Size","Grid_Max_Size","Local_Mem_Size","Hive_Id","Gpu_Id","Workgroup_Max_Dim_X","Workgroup_Max_Dim_Y","Workgroup_Max_Dim_Z","Grid_Max_Dim_X","Grid_Max_Dim_Y","Grid_Max_Dim_Z","Name","Vendor_Name","Product_Name","Model_Name")"},
      {"kernel_stats",
       R"("Name","Calls","TotalDurationNs","AverageNs","Percentage","MinNs","MaxNs","StdDev")"},
      {"domain_stats",
       R"("Name","Calls","TotalDurationNs","AverageNs","Percentage","MinNs","MaxNs","StdDev")"},
      {"device_counter_collection",
       R"("Agent_Id","Counter_Id","Counter_Name","Timestamp","Counter_Value")"},
  };
  for (const auto& [stem, header] : golden)
    EXPECT_EQ(first_line(o.path_for(stem, "csv")), header) << stem;
}

TEST(csv_writer, rows_read_back_by_python_csv) {
  ASSERT_TRUE(ts::have_program("python3")) << ts::missing_reader("python3");
  ts::temp_dir dir{"csv-rows"};
  ts::synthetic_options so;
  so.records_per_kind = 500;
  auto t = ts::make_synthetic_trace(so);
  auto o = options_for(dir.path());
  ASSERT_EQ(write_csv(t, o), "");

  // Expected rows per file, from the synthetic records themselves.
  nlohmann::json files;
  std::map<std::string, size_t> api_rows;
  size_t marks = 0;
  for (const auto& r : t.api) {
    ++api_rows[std::string{trace::info(r.domain).csv_stem} + ".csv"];
    if (r.domain == trace::api_domain::marker_core_range && r.start_ns == r.end_ns) ++marks;
  }
  for (const auto& [file, rows] : api_rows)
    files[file] = {{"rows", rows}};
  files["marker_api_trace.csv"]["marks"] = marks;
  files["kernel_trace.csv"] = {{"rows", t.kernels.size()}};
  files["memory_copy_trace.csv"] = {{"rows", t.memory_copies.size()}};
  files["memory_set_trace.csv"] = {{"rows", t.memory_sets.size()}};
  files["memory_allocation_trace.csv"] = {{"rows", t.memory_allocations.size()}};
  files["scratch_memory_trace.csv"] = {{"rows", t.scratch_memory.size()}};
  files["pc_sampling_host_trap.csv"] = {{"rows", t.pc_samples.size()}};
  files["device_counter_collection.csv"] = {{"rows", t.device_counter_samples.size()}};
  std::set<std::pair<uint64_t, uint64_t>> counter_keys;
  for (const auto& c : t.counter_values)
    counter_keys.emplace(c.dispatch_id, c.counter_id);
  files["counter_collection.csv"] = {{"rows", counter_keys.size()}};
  // Ours with --stats: one row per (kernel, counter name) of the counted dispatches (a counter
  // of the same name on several agents is one row, as in the summary table).
  std::map<uint64_t, std::string> counter_name;
  for (const auto& c : t.defs.counters)
    counter_name[c.id] = c.name;
  std::set<std::pair<std::string, std::string>> kernel_counters;
  for (const auto& [dispatch_id, counter_id] : counter_keys) {
    const uint64_t kernel_id = t.kernels[dispatch_id - 1].kernel_id;
    for (const auto& k : t.defs.kernel_symbols)
      if (k.kernel_id == kernel_id)
        kernel_counters.emplace(k.display_name, counter_name[counter_id]);
  }
  files["counter_collection_stats.csv"] = {{"rows", kernel_counters.size()},
                                           {"dispatch_values", counter_keys.size()}};
  files["agent_info.csv"] = {{"rows", t.defs.agents.size()}};

  // Stats: one file per stem with rows, plus domain_stats.csv.
  std::map<std::string, std::set<std::string>> stat_names;
  for (const auto& r : t.api)
    stat_names[std::string{trace::info(r.domain).stats_stem} + ".csv"].insert(
        std::string{formats::api_display_name(t.defs, r)});
  for (const auto& [file, names] : stat_names)
    files[file] = {{"rows", names.size()}};
  files["kernel_stats.csv"] = {{"rows", t.defs.kernel_symbols.size()}};
  files["memory_copy_stats.csv"] = {{"rows", 4}};  // four directions generated
  files["memory_set_stats.csv"] = {{"rows", 1}};
  files["memory_allocation_stats.csv"] = {{"rows", 2}};
  files["scratch_memory_stats.csv"] = {{"rows", 3}};
  const size_t stats_domains = 14 - 1;  // every stats domain but COUNTER_COLLECTION has rows
  const size_t calls = t.api.size() + t.kernels.size() + t.memory_copies.size() +
                       t.memory_sets.size() + t.memory_allocations.size() + t.scratch_memory.size();
  files["domain_stats.csv"] = {{"rows", stats_domains}, {"calls", calls}};

  const std::string expected =
      dir.path() + "/../" + "csv-expected-" + std::to_string(::getpid()) + ".json";
  {
    std::ofstream f{expected};
    f << nlohmann::json{{"files", files}}.dump(1);
  }
  int status = 0;
  auto out = ts::run_command("python3 " + ts::shell_quote(ROCPROF_CHECK_CSV_SCRIPT) + " " +
                                 ts::shell_quote(dir.path()) + " synth " +
                                 ts::shell_quote(expected) + " 2>&1",
                             &status);
  std::remove(expected.c_str());
  EXPECT_EQ(status, 0) << out;
}

TEST(csv_writer, only_domains_with_rows_get_files) {
  ts::temp_dir dir{"csv-empty"};
  auto t = ts::make_synthetic_trace({});
  trace::output_options o = options_for(dir.path());
  auto w = formats::csv::make_csv_writer(o);
  w->begin(t.defs);
  w->write(trace::make_span(t.kernels));
  ASSERT_EQ(w->finish(), "");
  std::set<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    files.insert(e.path().filename().string());
  EXPECT_EQ(files, (std::set<std::string>{"synth_kernel_trace.csv", "synth_agent_info.csv",
                                          "synth_kernel_stats.csv", "synth_domain_stats.csv"}));
}

TEST(csv_writer, no_records_no_files) {
  ts::temp_dir dir{"csv-none"};
  auto t = ts::make_synthetic_trace({});
  auto w = formats::csv::make_csv_writer(options_for(dir.path()));
  w->begin(t.defs);
  ASSERT_EQ(w->finish(), "");
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

// VGPR_Count, Accum_VGPR_Count and SGPR_Count are the kernel's (its symbol's), as in rocpd: the
// core's dispatch records carry no registers, so the record's own values are 0 in a real run.
TEST(csv_writer, registers_come_from_the_kernel_symbol) {
  ASSERT_TRUE(ts::have_program("python3")) << ts::missing_reader("python3");
  ts::temp_dir dir{"csv-registers"};
  auto t = ts::make_synthetic_trace({});
  std::map<uint64_t, uint32_t> vgpr_of_kernel;
  for (auto& k : t.defs.kernel_symbols) {
    k.sgpr_count = 24;
    vgpr_of_kernel[k.kernel_id] = k.arch_vgpr_count;
  }
  for (auto& r : t.kernels) {
    r.arch_vgpr_count = 0;  // what the tool's records hold
    r.sgpr_count = 0;
  }
  auto o = options_for(dir.path());
  o.stats = false;
  ASSERT_EQ(write_csv(t, o), "");
  int status = 0;
  const std::string out = ts::run_command(
      "python3 -c \"import csv, sys; [print(r['Kernel_Id'], r['VGPR_Count'], r['SGPR_Count']) "
      "for r in csv.DictReader(open(sys.argv[1]))]\" " +
          ts::shell_quote(o.path_for("kernel_trace", "csv")) + " 2>&1",
      &status);
  ASSERT_EQ(status, 0) << out;
  std::istringstream rows(out);
  uint64_t kernel = 0, vgpr = 0, sgpr = 0;
  size_t checked = 0;
  while (rows >> kernel >> vgpr >> sgpr) {
    EXPECT_EQ(vgpr, vgpr_of_kernel.at(kernel)) << "kernel " << kernel;
    EXPECT_EQ(sgpr, 24u) << "kernel " << kernel;
    ++checked;
  }
  EXPECT_EQ(checked, t.kernels.size()) << out;
}

}  // namespace
