// Summary tables (-S, -D, --summary-groups): golden layout, units, destinations (stderr really
// is stderr), table order and call totals.
#include <gtest/gtest.h>

#include <sstream>

#include "common/trace_stats.hpp"
#include "rocprof/test_support/synthetic_trace.hpp"
#include "rocprof/test_support/test_env.hpp"
#include "rocprof/trace/writer_registry.hpp"
#include "summary/summary_table.hpp"

namespace {

using namespace rocprof;
namespace ts = rocprof::test_support;

std::vector<formats::stats_row> two_kernels() {
  formats::stats_row a{formats::stats_domain::kernel_dispatch, "kernel_a", {}};
  a.stats.add(100);
  a.stats.add(300);
  formats::stats_row b{formats::stats_domain::kernel_dispatch, "kernel_b", {}};
  b.stats.add(100);
  return {a, b};
}

TEST(summary_table, golden_layout) {
  const std::string expected =
      "\n"
      "    ROCPROFV3 KERNEL_DISPATCH SUMMARY:\n"
      "\n"
      "    |                   NAME                   |     DOMAIN      |      CALLS      | "
      "DURATION (nsec) | AVERAGE (nsec)  | PERCENT (INC) |   MIN (nsec)    |   MAX (nsec)    |     "
      "STDDEV      |\n"
      "    "
      "|------------------------------------------|-----------------|-----------------|------------"
      "-----|-----------------|---------------|-----------------|-----------------|----------------"
      "-|\n"
      "    | kernel_a                                 | KERNEL_DISPATCH |               2 |        "
      "     400 |       2.000e+02 |     80.000000 |             100 |             300 |       "
      "1.414e+02 |\n"
      "    | kernel_b                                 | KERNEL_DISPATCH |               1 |        "
      "     100 |       1.000e+02 |     20.000000 |             100 |             100 |       "
      "0.000e+00 |\n"
      "\n";
  EXPECT_EQ(formats::summary::render_table("KERNEL_DISPATCH SUMMARY", two_kernels(),
                                           trace::summary_unit::nsec, "    "),
            expected);
}

TEST(summary_table, units_scale_durations) {
  auto text =
      formats::summary::render_table("SUMMARY", two_kernels(), trace::summary_unit::usec, "");
  EXPECT_NE(text.find("| DURATION (usec) |"), std::string::npos) << text;
  EXPECT_NE(text.find("|             0.4 |       2.000e-01 |"), std::string::npos) << text;
  EXPECT_EQ(text.find("\n    |"), std::string::npos) << "no indent for files";
}

TEST(summary_table, long_names_widen_the_column) {
  auto rows = two_kernels();
  rows[0].name = std::string(57, 'k');
  auto text = formats::summary::render_table("SUMMARY", rows, trace::summary_unit::nsec, "");
  EXPECT_NE(text.find("| " + std::string(57, 'k') + " |"), std::string::npos);
  EXPECT_NE(text.find("| kernel_b" + std::string(57 - 8, ' ') + " |"), std::string::npos);
}

struct summary_run {
  std::string text, error;
};

summary_run run_summary(const trace::output_options& o, const ts::synthetic_trace& t) {
  std::string error;
  auto w = trace::make_writer("summary", o, &error);
  EXPECT_TRUE(w) << error;
  return {"", w ? ts::write_synthetic_trace(*w, t, 50) : error};
}

TEST(summary_writer, file_destination_order_and_totals) {
  ts::temp_dir dir{"summary"};
  auto t = ts::make_synthetic_trace({});
  trace::output_options o;
  o.output_directory = dir.path();
  o.file_prefix = "run";
  o.summary = true;
  o.summary_per_domain = true;
  o.summary_groups = {".*_API", "KERNEL.*|MEMORY_COPY"};
  o.summary_output = "my_summary";
  ASSERT_EQ(run_summary(o, t).error, "");
  const auto text = ts::read_file(o.path_for("my_summary", "txt"));
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.find("\n    "), std::string::npos) << "a file has no indent";
  const auto hsa = text.find("ROCPROFV3 HSA_API SUMMARY:");
  const auto kernel = text.find("ROCPROFV3 KERNEL_DISPATCH SUMMARY:");
  const auto group1 = text.find(
      "ROCPROFV3 HSA_API + HIP_API + MARKER_API + RCCL_API + ROCDECODE_API + ROCJPEG_API + "
      "CUDA_RUNTIME_API + CUDA_DRIVER_API SUMMARY:");
  const auto group2 = text.find("ROCPROFV3 KERNEL_DISPATCH + MEMORY_COPY SUMMARY:");
  const auto all = text.find("ROCPROFV3 SUMMARY:");
  ASSERT_NE(hsa, std::string::npos);
  ASSERT_NE(kernel, std::string::npos);
  ASSERT_NE(group1, std::string::npos) << text.substr(0, 4000);
  ASSERT_NE(group2, std::string::npos);
  ASSERT_NE(all, std::string::npos);
  EXPECT_LT(hsa, kernel);
  EXPECT_LT(kernel, group1);
  EXPECT_LT(group1, group2);
  EXPECT_LT(group2, all);

  // CALLS of the combined table add up to every record with a duration.
  std::istringstream in{text.substr(all)};
  std::string line;
  uint64_t calls = 0;
  int rows = 0;
  while (std::getline(in, line)) {
    if (line.rfind("| ", 0) != 0 || line.find("| NAME") != std::string::npos) continue;
    if (line.find("   NAME   ") != std::string::npos) continue;
    std::vector<std::string> cells;
    std::stringstream ls{line};
    std::string cell;
    while (std::getline(ls, cell, '|'))
      cells.push_back(cell);
    ASSERT_GE(cells.size(), 4u) << line;
    calls += std::stoull(cells[3]);
    ++rows;
  }
  EXPECT_GT(rows, 10);
  EXPECT_EQ(calls, t.api.size() + t.kernels.size() + t.memory_copies.size() + t.memory_sets.size() +
                       t.memory_allocations.size() + t.scratch_memory.size());
}

TEST(summary_writer, stderr_means_stderr) {
  auto t = ts::make_synthetic_trace({});
  trace::output_options o;
  o.summary = true;
  o.summary_output = "stderr";
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  auto r = run_summary(o, t);
  const auto out = testing::internal::GetCapturedStdout();
  const auto err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(out, "");
  EXPECT_NE(err.find("\n    ROCPROFV3 SUMMARY:\n\n    | "), std::string::npos) << err;
}

TEST(summary_writer, stdout_destination) {
  auto t = ts::make_synthetic_trace({});
  trace::output_options o;
  o.summary_per_domain = true;
  o.summary_output = "STDOUT";
  testing::internal::CaptureStdout();
  auto r = run_summary(o, t);
  const auto out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(r.error, "");
  EXPECT_NE(out.find("    ROCPROFV3 MARKER_API SUMMARY:"), std::string::npos);
}

TEST(summary_writer, invalid_regex_is_reported) {
  auto t = ts::make_synthetic_trace({});
  trace::output_options o;
  o.summary_groups = {"*._API"};  // the rocprofv3 help example, not a valid regex (§15.13)
  o.summary_output = "stdout";
  testing::internal::CaptureStdout();
  auto r = run_summary(o, t);
  testing::internal::GetCapturedStdout();
  EXPECT_NE(r.error.find("invalid --summary-groups regex"), std::string::npos) << r.error;
}

}  // namespace

namespace {

TEST(summary_writer, device_counter_samples_table) {
  ts::synthetic_options so;
  so.records_per_kind = 200;
  auto t = ts::make_synthetic_trace(so);
  trace::output_options o;
  o.summary = true;
  o.summary_output = "stdout";
  testing::internal::CaptureStdout();
  auto r = run_summary(o, t);
  const auto out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(r.error, "");
  const auto table = out.find("ROCPROFV3 DEVICE_COUNTER_SAMPLES SUMMARY:");
  ASSERT_NE(table, std::string::npos) << out.substr(0, 3000);
  EXPECT_LT(table, out.find("ROCPROFV3 SUMMARY:")) << "before the combined table";
  EXPECT_NE(out.find(" ABOVE_ZERO "), std::string::npos);
  // Values i % 100 for i = 0..199: one zero per hundred samples of a series.
  size_t rows = 0;
  std::istringstream in{out.substr(table)};
  for (std::string line;
       std::getline(in, line) && line.find("ROCPROFV3 SUMMARY") == std::string::npos;)
    if (line.find("| GPU") != std::string::npos || line.find("| Agent") != std::string::npos)
      ++rows;
  EXPECT_GT(rows, 0u) << out.substr(table, 2000);
}

}  // namespace
