// Host call stacks of kernel launches (--kernel-host-callstack) in the outputs, on a synthetic
// trace whose definitions carry two stacks: kernel_host_callstacks.csv (golden header, rows read
// back by Python's csv module), JSON host_callstacks and callstack_id (Python's json module),
// the rocpd extension table and view (Python's sqlite3 module), and the hot-spot report's launch
// sites (the first frame that is neither CUDA's nor the kernel's host stub).
#include <gtest/gtest.h>

#include <string>

#include "hotspots/launch_sites.hpp"
#include "hotspots/pc_hotspots.hpp"
#include "rocprof/test_support/synthetic_trace.hpp"
#include "rocprof/test_support/test_env.hpp"
#include "rocprof/trace/writer_registry.hpp"
#include "writer_helpers.hpp"

namespace {

using namespace rocprof;
namespace ts = rocprof::test_support;

trace::host_frame frame(uint64_t address, const char* function, const char* file, uint32_t line,
                        const char* module) {
  return trace::host_frame{address, function, file, line, module};
}

// Ten dispatches (correlation ids 1..10): odd ones launched from stack 1 (through launch_a),
// even ones from stack 2 (main directly), the tenth without a stack.
ts::synthetic_trace traced_with_stacks() {
  ts::synthetic_options o;
  o.records_per_kind = 10;
  auto t = ts::make_synthetic_trace(o);
  auto& d = t.defs;
  const char* cudart = "/usr/local/cuda/lib64/libcudart.so.12";
  d.host_callstacks.push_back({1,
                               {frame(0x1000, "cudaLaunchKernel", "", 0, cudart),
                                frame(0x2000, "launch_a()", "/src/app.cpp", 12, "/bin/app"),
                                frame(0x3000, "main", "/src/app.cpp", 40, "/bin/app")}});
  d.host_callstacks.push_back({2,
                               {frame(0x1000, "cudaLaunchKernel", "", 0, cudart),
                                frame(0x3100, "main", "/src/app.cpp", 44, "/bin/app")}});
  for (uint64_t corr = 1; corr <= 9; ++corr)
    d.launch_callstacks.push_back({corr, corr % 2 == 1 ? 1u : 2u});
  return t;
}

trace::output_options options_for(const std::string& dir) {
  return ts::options_for(dir, "cs");
}

using ts::write_with;

void expect_python(const std::string& script) {
  ASSERT_TRUE(ts::have_program("python3")) << ts::missing_reader("python3");
  int status = 0;
  const std::string out =
      ts::run_command("python3 -c " + ts::shell_quote(script) + " 2>&1", &status);
  EXPECT_EQ(status, 0) << out;
}

TEST(host_callstack_outputs, definitions_join_by_correlation_id) {
  const auto t = traced_with_stacks();
  EXPECT_EQ(t.defs.callstack_of(3), 1u);
  EXPECT_EQ(t.defs.callstack_of(4), 2u);
  EXPECT_EQ(t.defs.callstack_of(10), 0u);
  const trace::host_callstack_info* stack = t.defs.host_callstack(2);
  ASSERT_NE(stack, nullptr);
  if (stack != nullptr) {
    EXPECT_EQ(stack->frames.size(), 2u);
  }
  EXPECT_EQ(t.defs.host_callstack(3), nullptr);
}

TEST(host_callstack_outputs, csv_one_row_per_frame_of_each_dispatch) {
  ts::temp_dir dir{"cs-csv"};
  const auto o = options_for(dir.path());
  ASSERT_EQ(write_with("csv", traced_with_stacks(), o), "");
  const std::string path = o.path_for("kernel_host_callstacks", "csv");
  const std::string text = ts::read_file(path);
  EXPECT_EQ(
      text.substr(0, text.find('\n')),
      R"("Dispatch_Id","Correlation_Id","Kernel_Name","Depth","Function","File","Line","Module")");
  expect_python(
      "import csv\n"
      "rows = list(csv.DictReader(open('" +
      path +
      "', newline='')))\n"
      "assert len(rows) == 5 * 3 + 4 * 2, len(rows)\n"
      "assert not [r for r in rows if r['Dispatch_Id'] == '10']\n"
      "d3 = [r for r in rows if r['Dispatch_Id'] == '3']\n"
      "assert [r['Depth'] for r in d3] == ['0', '1', '2']\n"
      "assert d3[1]['Function'] == 'launch_a()' and d3[1]['Line'] == '12'\n"
      "assert d3[0]['Line'] == '' and d3[0]['File'] == ''\n"
      "assert d3[0]['Module'].endswith('libcudart.so.12')\n"
      "assert all(r['Kernel_Name'] for r in rows)\n"
      "print('ok')\n");
}

TEST(host_callstack_outputs, json_table_and_callstack_id) {
  ts::temp_dir dir{"cs-json"};
  const auto o = options_for(dir.path());
  ASSERT_EQ(write_with("json", traced_with_stacks(), o), "");
  expect_python(
      "import json\n"
      "doc = json.load(open('" +
      o.path_for("results", "json") +
      "'))['rocprofiler-sdk-tool'][0]\n"
      "stacks = {s['id']: s['frames'] for s in doc['host_callstacks']}\n"
      "assert sorted(stacks) == [1, 2]\n"
      "assert stacks[1][2] == {'address': 0x3000, 'function': 'main', "
      "'file': '/src/app.cpp', 'line': 40, 'module': '/bin/app'}\n"
      "k = doc['buffer_records']['kernel_dispatch']\n"
      "ids = {r['correlation_id']['internal']: r['callstack_id'] for r in k}\n"
      "assert ids[1] == 1 and ids[2] == 2 and ids[10] == 0, ids\n"
      "print('ok')\n");
}

TEST(host_callstack_outputs, rocpd_extension_table_and_view) {
  ts::temp_dir dir{"cs-rocpd"};
  const auto o = options_for(dir.path());
  ASSERT_EQ(write_with("rocpd", traced_with_stacks(), o), "");
  expect_python(
      "import sqlite3\n"
      "db = sqlite3.connect('" +
      o.path_for("results", "db") +
      "')\n"
      "n = db.execute('SELECT COUNT(*) FROM rocpd_kernel_callstack').fetchone()[0]\n"
      "assert n == 23, n\n"
      "rows = db.execute('SELECT depth, function, file, line, module, kernel_name, callstack_id "
      "FROM kernel_callstacks WHERE dispatch_id = 3 ORDER BY depth').fetchall()\n"
      "assert [r[1] for r in rows] == ['cudaLaunchKernel', 'launch_a()', 'main'], rows\n"
      "assert rows[0][3] is None and rows[2][3] == 40 and rows[2][4] == '/bin/app'\n"
      "assert rows[0][5] is not None and rows[0][6] == 1\n"
      "print('ok')\n");
}

// A run without stacks keeps exactly the layouts it had: no JSON member, no rocpd table.
TEST(host_callstack_outputs, without_stacks_no_extension_in_json_or_rocpd) {
  ts::temp_dir dir{"cs-none"};
  const auto o = options_for(dir.path());
  ts::synthetic_options so;
  so.records_per_kind = 5;
  const auto t = ts::make_synthetic_trace(so);
  ASSERT_EQ(write_with("json", t, o), "");
  ASSERT_EQ(write_with("rocpd", t, o), "");
  expect_python(
      "import json, sqlite3\n"
      "doc = json.load(open('" +
      o.path_for("results", "json") +
      "'))['rocprofiler-sdk-tool'][0]\n"
      "assert 'host_callstacks' not in doc\n"
      "assert all('callstack_id' not in r for r in "
      "doc['buffer_records']['kernel_dispatch'])\n"
      "db = sqlite3.connect('" +
      o.path_for("results", "db") +
      "')\n"
      "names = [r[0] for r in db.execute(\"SELECT name FROM sqlite_master WHERE name "
      "LIKE '%callstack%'\")]\n"
      "assert names == [], names\n"
      "print('ok')\n");
}

TEST(host_callstack_outputs, launch_site_skips_cuda_frames_and_the_kernel_stub) {
  trace::host_callstack_info stack{
      7,
      {frame(0x10, "cudaLaunchKernel", "", 0, "/bin/app"),  // static runtime, inside the app
       frame(0x20, "__device_stub__Z6vecAddPf(float*)", "/tmp/x.cudafe1.stub.c", 3, "/bin/app"),
       frame(0x30, "vecAdd(float*)", "/src/k.cu", 5, "/bin/app"),
       frame(0x40, "cuda_forward(at::Tensor)", "/src/ext.cpp", 21, "/lib/ext.so"),
       frame(0x50, "main", "/src/main.cpp", 9, "/bin/app")}};
  EXPECT_EQ(formats::hotspots::launch_site(stack, "vecAdd(float*)"),
            "cuda_forward(at::Tensor) (/src/ext.cpp:21)");
  trace::host_callstack_info bare{8,
                                  {frame(0x10, "cuLaunchKernel", "", 0, "/usr/lib/libcuda.so.1"),
                                   frame(0x60, "run_model", "", 0, "/opt/lib/libmodel.so")}};
  EXPECT_EQ(formats::hotspots::launch_site(bare, ""), "run_model (libmodel.so)");
  trace::host_callstack_info only_cuda{9, {frame(0x10, "cuLaunchKernel", "", 0, "libcuda.so.1")}};
  EXPECT_EQ(formats::hotspots::launch_site(only_cuda, ""), "(unknown)");
}

TEST(host_callstack_outputs, hotspot_report_names_launch_sites_by_dispatches) {
  ts::temp_dir dir{"cs-hot"};
  auto o = options_for(dir.path());
  auto t = traced_with_stacks();
  ASSERT_FALSE(t.pc_samples.empty());
  for (size_t i = 0; i < t.pc_samples.size(); ++i)
    t.pc_samples[i].kernel_id = 1 + i % 5;
  ASSERT_EQ(write_with("pc_hotspots", t, o), "");
  expect_python(
      "import csv\n"
      "rows = list(csv.DictReader(open('" +
      o.path_for("pc_sampling_hotspots", "csv") +
      "', newline='')))\n"
      "sites = [r for r in rows if r['Kind'] == 'launch_site']\n"
      "assert sum(int(r['Samples']) for r in sites) == 9, sites\n"
      "k1 = {r['Name']: r['Percentage'] for r in sites if r['Kernel_Id'] == '1'}\n"
      "assert k1 == {'launch_a() (/src/app.cpp:12)': '50.00', "
      "'main (/src/app.cpp:44)': '50.00'}, k1\n"
      "print('ok')\n");
}

}  // namespace
