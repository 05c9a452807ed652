// The record store: under the launcher (a recovery registry), records reach a journal that is
// registered by pid and removed once the outputs are written; without it, the spool alone.
#include "record_store.hpp"

#include <gtest/gtest.h>
#include <limits.h>
#include <unistd.h>

#include <string>

#include "rocprof/test_support/test_env.hpp"

namespace {

namespace ts = rocprof::test_support;
namespace trace = rocprof::trace;
using rocprof::tool::definitions_builder;
using rocprof::tool::record_batch;
using rocprof::tool::record_store;

rocprof::config::tool_settings settings_for(const std::string& out, const std::string& registry) {
  rocprof::config::tool_settings s;
  s.output_path = out;
  s.output_file = "store";
  s.tmp_directory.clear();
  s.output_formats = {"CSV"};
  s.recovery_registry = registry;
  return s;
}

record_batch marker_batch(definitions_builder& defs, size_t n) {
  record_batch batch;
  for (size_t i = 0; i < n; ++i) {
    trace::api_record r;
    r.domain = trace::api_domain::marker_core_range;
    r.operation = defs.intern("roctxRangePushA");
    r.message = defs.intern("stored");
    r.pid = ::getpid();
    r.tid = ::getpid();
    r.corr.internal = i + 1;
    r.start_ns = 1000 + i;
    r.end_ns = 2000 + i;
    batch.of<trace::api_record>().push_back(r);
  }
  return batch;
}

std::string csv_rows(const std::string& path) {
  return ts::run_command(
      "python3 -c \"import csv,sys; print(sum(1 for _ in "
      "csv.DictReader(open(sys.argv[1]))))\" " +
      path);
}

TEST(RecordStore, UnderTheLauncherRecordsReachARegisteredJournal) {
  ts::temp_dir out("store-out"), registry("store-registry");
  const auto settings = settings_for(out.path(), registry.path());
  definitions_builder defs;
  record_store store(settings, defs, size_t{1} << 20);
  EXPECT_FALSE(store.journaling()) << "nothing recorded yet: no journal, no claim";
  store.append(marker_batch(defs, 100));
  ASSERT_TRUE(store.journaling());
  const std::string link = registry.path() + "/" + std::to_string(::getpid());
  char target[PATH_MAX] = {};
  ASSERT_GT(::readlink(link.c_str(), target, sizeof(target) - 1), 0);
  EXPECT_EQ(::access(target, F_OK), 0) << "the journal exists: " << target;
  EXPECT_EQ(store.total_records(), 100u);

  const auto report = store.write_outputs(defs.snapshot());
  EXPECT_TRUE(report.errors.empty());
  EXPECT_EQ(csv_rows(out.path() + "/store_marker_api_trace.csv"), "100\n");
  store.finish();
  EXPECT_NE(::access(target, F_OK), 0) << "journal removed";
  EXPECT_NE(::access(link.c_str(), F_OK), 0) << "registration removed";
}

TEST(RecordStore, WithoutTheLauncherThereIsNoJournal) {
  ts::temp_dir out("store-out");
  const auto settings = settings_for(out.path(), "");
  definitions_builder defs;
  record_store store(settings, defs, size_t{1} << 20);
  store.append(marker_batch(defs, 10));
  EXPECT_FALSE(store.journaling());
  EXPECT_EQ(ts::run_command("ls -A " + out.path()), "");
  store.write_outputs(defs.snapshot());
  EXPECT_EQ(csv_rows(out.path() + "/store_marker_api_trace.csv"), "10\n");
  store.finish();
}

TEST(RecordStore, ASecondStoreOfTheSameNamesWritesUnderItsPid) {
  ts::temp_dir out("store-out"), registry("store-registry");
  const auto settings = settings_for(out.path(), registry.path());
  definitions_builder defs_a, defs_b;
  record_store a(settings, defs_a, size_t{1} << 20), b(settings, defs_b, size_t{1} << 20);
  a.append(marker_batch(defs_a, 3));
  EXPECT_EQ(a.output_options().file_prefix, "store");
  EXPECT_EQ(b.output_options().file_prefix, "store-" + std::to_string(::getpid()));
}

}  // namespace
