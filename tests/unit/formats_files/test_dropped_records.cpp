// Records lost before they reached the trace (DISCARD drops, a backend's drops such as CUPTI's)
// appear in every format, read back by readers we did not write: a CSV file, a JSON metadata
// key, a rocpd metadata row, a Perfetto counter track, an OTF2 archive property, a summary line.
// A trace without drops shows none of them (rocprofv3's own outputs have no such entry).
#include <gtest/gtest.h>

#include <string>

#include "rocprof/test_support/synthetic_trace.hpp"
#include "rocprof/test_support/test_env.hpp"
#include "rocprof/trace/writer_registry.hpp"

namespace {

namespace ts = rocprof::test_support;
namespace tr = rocprof::trace;

// Writes a small synthetic trace with `dropped` drops in every format and the summary (to a
// file); returns the output prefix.
std::string write_everything(const std::string& dir, uint64_t dropped) {
  ts::synthetic_options so;
  so.records_per_kind = 20;
  auto trace = ts::make_synthetic_trace(so);
  trace.defs.dropped_records = dropped;
  tr::output_options options;
  options.output_directory = dir;
  options.file_prefix = "drops";
  options.summary = true;
  options.summary_output = "summary";
  for (const char* format : {"rocpd", "csv", "json", "pftrace", "otf2", "summary"}) {
    std::string error;
    auto w = tr::make_writer(format, options, &error);
    EXPECT_NE(w, nullptr) << format << ": " << error;
    if (w) {
      EXPECT_EQ(ts::write_synthetic_trace(*w, trace, 100), "") << format;
    }
  }
  return dir + "/drops";
}

std::string python(const std::string& code, const std::string& argument) {
  return ts::run_command("python3 -c " + ts::shell_quote(code) + " " + ts::shell_quote(argument));
}

TEST(DroppedRecords, EveryFormatShowsTheCount) {
  ASSERT_TRUE(ts::have_program(ROCPROF_FILES_PROTOC)) << ts::missing_reader("protoc");
  ASSERT_TRUE(ts::have_program(ROCPROF_FILES_OTF2_PRINT)) << ts::missing_reader("otf2-print");
  ASSERT_TRUE(ts::have_program(ROCPROF_FILES_SQLITE3)) << ts::missing_reader("sqlite3");
  ts::temp_dir dir("drops");
  const std::string prefix = write_everything(dir.path(), 4242);

  EXPECT_EQ(python("import csv,sys; print([r['Dropped_Records'] for r in "
                   "csv.DictReader(open(sys.argv[1]))])",
                   prefix + "_dropped_records.csv"),
            "['4242']\n");
  EXPECT_EQ(python("import json,sys; print(json.load(open(sys.argv[1]))['rocprofiler-sdk-tool'][0]"
                   "['metadata']['dropped_records'])",
                   prefix + "_results.json"),
            "4242\n");
  EXPECT_EQ(ts::run_command(std::string(ROCPROF_FILES_SQLITE3) + " " + prefix +
                            "_results.db \"SELECT value FROM rocpd_metadata WHERE "
                            "tag = 'dropped_records'\""),
            "4242\n");
  const auto perfetto = ts::run_command(
      std::string(ROCPROF_FILES_PROTOC) + " --proto_path=" + ROCPROF_PERFETTO_PROTO_DIR +
      " --decode=perfetto.protos.Trace perfetto_trace.proto < " + prefix + "_results.pftrace");
  EXPECT_NE(perfetto.find("name: \"DROPPED RECORDS\""), std::string::npos);
  EXPECT_NE(perfetto.find("counter_value: 4242"), std::string::npos);
  const auto otf2 =
      ts::run_command(std::string(ROCPROF_FILES_OTF2_PRINT) + " -I " + prefix + "_results.otf2");
  EXPECT_NE(otf2.find("ROCPROFV3::DROPPED_RECORDS"), std::string::npos) << otf2;
  EXPECT_NE(otf2.find("4242"), std::string::npos) << otf2;
  EXPECT_NE(ts::read_file(prefix + "_summary.txt").find("4242 records were dropped"),
            std::string::npos);
}

TEST(DroppedRecords, ATraceWithoutDropsShowsNone) {
  ts::temp_dir dir("drops");
  const std::string prefix = write_everything(dir.path(), 0);
  EXPECT_EQ(ts::read_file(prefix + "_dropped_records.csv"), "") << "no such file";
  EXPECT_EQ(ts::read_file(prefix + "_results.json").find("dropped_records"), std::string::npos);
  EXPECT_EQ(ts::run_command("strings " + prefix + "_results.pftrace | grep -c 'DROPPED RECORDS'"),
            "0\n");
  EXPECT_EQ(ts::read_file(prefix + "_summary.txt").find("dropped"), std::string::npos);
}

}  // namespace
