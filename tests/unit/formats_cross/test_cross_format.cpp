// Writes one synthetic trace in every trace format and lets check_cross.py read each back with
// independent readers. Expected counts are computed here from the records themselves.
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

namespace {

namespace ts = rocprof::test_support;
namespace tr = rocprof::trace;

using ts::run;

TEST(CrossFormat, SameCountsPerDomainInEveryFormat) {
  ASSERT_TRUE(ts::have_program(ROCPROF_CROSS_PYTHON)) << ts::missing_reader("python3");
  ASSERT_TRUE(ts::have_program(ROCPROF_CROSS_PROTOC)) << ts::missing_reader("protoc");
  ASSERT_TRUE(ts::have_program(ROCPROF_CROSS_OTF2_PRINT)) << ts::missing_reader("otf2-print");

  ts::synthetic_options so;
  so.records_per_kind = 250;
  const auto trace = ts::make_synthetic_trace(so);

  const std::filesystem::path dir = ts::scratch_dir("cross");
  tr::output_options options;
  options.output_directory = dir.string();
  options.file_prefix = "cross";
  for (const char* format : {"rocpd", "csv", "json", "pftrace", "otf2"}) {
    std::string error;
    auto w = tr::make_writer(format, options, &error);
    ASSERT_NE(w, nullptr) << format << ": " << error;
    ASSERT_EQ(ts::write_synthetic_trace(*w, trace, 100), "") << format;
  }

  // Expectations from the records: per API domain (json key) its record count, the count
  // without marks (OTF2 skips instants), its categories and its CSV file.
  nlohmann::json expected;
  expected["prefix"] = "cross";
  expected["protoc"] = ROCPROF_CROSS_PROTOC;
  expected["proto_dir"] = ROCPROF_PERFETTO_PROTO_DIR;
  expected["otf2_print"] = ROCPROF_CROSS_OTF2_PRINT;
  std::map<std::string, std::pair<size_t, size_t>> api_counts;
  std::set<uint64_t> correlation_ids;
  for (const auto& r : trace.api) {
    const auto& d = tr::info(r.domain);
    auto& [all, ranges] = api_counts[std::string(d.json_key)];
    ++all;
    if (!(r.domain == tr::api_domain::marker_core_range && r.start_ns == r.end_ns)) ++ranges;
    correlation_ids.insert(r.corr.internal);
  }
  EXPECT_EQ(correlation_ids.size(), trace.api.size()) << "synthetic correlation ids repeat";
  for (const auto& [key, counts] : api_counts) {
    auto& e = expected["api"][key];
    e["count"] = counts.first;
    e["without_marks"] = counts.second;
    for (const auto& d : tr::domain_table)
      if (d.json_key == key) {
        e["categories"].push_back(std::string(d.category));
        e["csv"] = std::string(d.csv_stem);
      }
  }
  expected["kernel_dispatch"] = trace.kernels.size();
  expected["memory_copy"] = trace.memory_copies.size();
  expected["memory_set"] = trace.memory_sets.size();
  expected["memory_allocation"] = trace.memory_allocations.size();
  const auto expected_path = dir / "expected.json";
  std::ofstream(expected_path) << expected.dump(2);

  const auto [status, out] = run(std::string(ROCPROF_CROSS_PYTHON) + " " + ROCPROF_CROSS_SCRIPT +
                                 " '" + dir.string() + "' '" + expected_path.string() + "' 2>&1");
  EXPECT_EQ(status, 0) << out;
  std::printf("%s", out.c_str());  // the outputs stay with ROCPROF_KEEP_TEST_OUTPUT=1
}

}  // namespace
