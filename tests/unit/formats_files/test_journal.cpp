// The record journal: what a process wrote before it died is read back whole (definitions and
// records, byte for byte), a live writer's journal is refused, a forked child never writes into
// its parent's journal, and a recovered journal runs through the real writers.
#include "rocprof/trace/journal.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "rocprof/test_support/synthetic_trace.hpp"
#include "rocprof/test_support/test_env.hpp"

namespace {

namespace trace = rocprof::trace;
using rocprof::test_support::synthetic_trace;

// Records of every kind in the synthetic trace.
uint64_t record_count(const synthetic_trace& t) {
  uint64_t n = 0;
  std::apply([&n](const auto&... tables) { ((n += tables.size()), ...); },
             rocprof::test_support::record_tables(t));
  return n;
}
using rocprof::test_support::temp_dir;

// Keeps every record it is handed, per kind, as bytes.
class byte_collector : public trace::writer {
 public:
  void begin(const trace::trace_definitions&) override {}
  std::string finish() override { return {}; }
  // clang-format off
#define ROCPROF_COLLECT(TYPE, NAME)                                           \
  void write(trace::record_span<trace::TYPE> r) override {                    \
    auto& bytes = kinds[static_cast<size_t>(trace::record_kind::NAME)];       \
    bytes.append(reinterpret_cast<const char*>(r.data), r.size * sizeof(trace::TYPE)); \
  }
  ROCPROF_TRACE_RECORD_KINDS(ROCPROF_COLLECT)
#undef ROCPROF_COLLECT
  // clang-format on
  std::string kinds[trace::record_kind_count];
};

template <typename T>
std::string bytes_of(const std::vector<T>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

trace::output_plan test_plan(const std::string& dir) {
  trace::output_plan plan;
  plan.writers = {"csv", "json"};
  plan.options.output_directory = dir;
  plan.options.file_prefix = "recovered";
  plan.options.summary_groups = {"MARKER.*"};
  plan.options.stats = true;
  plan.minimum_output_bytes = 7;
  return plan;
}

// Journals a whole synthetic trace, definitions first.
void journal_everything(trace::journal_writer& j, const synthetic_trace& t) {
  const auto& d = t.defs;
  j.define_process(d.process, d.node);
  for (size_t id = 1; id < d.strings.size(); ++id)
    j.define_string(static_cast<trace::string_id>(id), d.strings[id]);
  for (const auto& th : d.threads) {
    j.name_thread(th.tid, th.name);
    j.observe_thread(th.tid, th.start_ns, th.end_ns);
  }
  for (const auto& a : d.agents)
    j.define_agent(a);
  for (const auto& c : d.code_objects)
    j.define_code_object(c);
  for (const auto& k : d.kernel_symbols)
    j.define_kernel_symbol(k);
  for (const auto& c : d.counters)
    j.define_counter(c);
  j.add_dropped(40);
  j.add_dropped(2);
  std::apply([&j](const auto&... tables) { (j.append(tables.data(), tables.size()), ...); },
             rocprof::test_support::record_tables(t));
}

// Runs body in a child that then dies without any cleanup (its journal stays, unlocked).
template <typename F>
void in_child_that_dies(F body) {
  const pid_t child = ::fork();
  if (child == 0) {
    body();
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

std::string only_journal_in(const std::string& dir) {
  const auto listing = rocprof::test_support::run_command("ls -A " + dir);
  EXPECT_EQ(listing.find('\n'), listing.size() - 1) << listing;
  return dir + "/" + listing.substr(0, listing.size() - 1);
}

rocprof::test_support::synthetic_options big_trace() {
  rocprof::test_support::synthetic_options o;
  o.records_per_kind = 30000;  // api records span several 1 MiB extents
  return o;
}

TEST(Journal, WhatADeadProcessWroteIsReadBackWhole) {
  temp_dir dir("journal");
  const auto t = rocprof::test_support::make_synthetic_trace(big_trace());
  in_child_that_dies([&] {
    trace::journal_writer j;
    std::string error;
    if (!j.create(dir.path(), test_plan(dir.path()), &error)) ::_exit(2);
    journal_everything(j, t);
    ::_exit(0);  // SIGKILL-like: no destructor, no removal
  });
  trace::journal_reader r;
  std::string error;
  ASSERT_TRUE(r.open(only_journal_in(dir.path()), &error)) << error;
  EXPECT_TRUE(r.recognized());
  EXPECT_FALSE(r.outputs_written());
  EXPECT_NE(r.pid(), ::getpid());

  const auto& plan = r.plan();
  EXPECT_EQ(plan.writers, (std::vector<std::string>{"csv", "json"}));
  EXPECT_EQ(plan.options.file_prefix, "recovered");
  EXPECT_EQ(plan.options.summary_groups, std::vector<std::string>{"MARKER.*"});
  EXPECT_TRUE(plan.options.stats);
  EXPECT_EQ(plan.minimum_output_bytes, 7u);

  const auto& d = r.definitions();
  EXPECT_EQ(d.strings, t.defs.strings);
  EXPECT_EQ(d.process.pid, t.defs.process.pid);
  EXPECT_EQ(d.process.environment, t.defs.process.environment);
  EXPECT_EQ(d.process.config_json, t.defs.process.config_json);
  EXPECT_EQ(d.node.hostname, t.defs.node.hostname);
  ASSERT_EQ(d.agents.size(), t.defs.agents.size());
  EXPECT_EQ(d.agents.back().name, t.defs.agents.back().name);
  EXPECT_EQ(d.agents.back().workgroup_max_dim[2], t.defs.agents.back().workgroup_max_dim[2]);
  ASSERT_EQ(d.kernel_symbols.size(), t.defs.kernel_symbols.size());
  EXPECT_EQ(d.kernel_symbols[1].display_name, t.defs.kernel_symbols[1].display_name);
  EXPECT_EQ(d.code_objects.size(), t.defs.code_objects.size());
  EXPECT_EQ(d.counters.size(), t.defs.counters.size());
  ASSERT_EQ(d.threads.size(), t.defs.threads.size());
  EXPECT_EQ(d.threads[0].name, t.defs.threads[0].name);
  EXPECT_EQ(d.dropped_records, 42u);

  byte_collector got;
  r.replay({&got}, 1000);
  std::vector<std::string> expected;
  std::apply([&expected](const auto&... tables) { (expected.push_back(bytes_of(tables)), ...); },
             rocprof::test_support::record_tables(t));
  for (size_t k = 0; k < expected.size(); ++k)
    EXPECT_EQ(got.kinds[k], expected[k]) << "kind " << k;
  EXPECT_EQ(r.total_records(), record_count(t));
  EXPECT_TRUE(r.warnings().empty());
}

TEST(Journal, ALiveWritersJournalIsRefused) {
  temp_dir dir("journal");
  trace::journal_writer j;
  std::string error;
  ASSERT_TRUE(j.create(dir.path(), test_plan(dir.path()), &error)) << error;
  trace::journal_reader r;
  bool busy = false;
  EXPECT_FALSE(r.open(j.path(), &error, &busy));
  EXPECT_TRUE(busy);
  j.remove();
  struct stat info {};
  EXPECT_NE(::stat(j.path().c_str(), &info), 0) << "removed";
}

TEST(Journal, TheWritersOwnReplayServesTheNormalEnd) {
  temp_dir dir("journal");
  rocprof::test_support::synthetic_options o;
  o.records_per_kind = 20000;
  const auto t = rocprof::test_support::make_synthetic_trace(o);
  trace::journal_writer j;
  std::string error;
  ASSERT_TRUE(j.create(dir.path(), test_plan(dir.path()), &error)) << error;
  journal_everything(j, t);
  EXPECT_EQ(j.total_records(), record_count(t));
  byte_collector got;
  EXPECT_EQ(j.replay({&got}), "");
  EXPECT_EQ(got.kinds[0], bytes_of(t.api));
  EXPECT_EQ(got.kinds[1], bytes_of(t.kernels));
  j.mark_outputs_written();
  j.remove();
}

TEST(Journal, AForkedChildNeverWritesIntoItsParentsJournal) {
  temp_dir dir("journal");
  const auto t = rocprof::test_support::make_synthetic_trace({});
  trace::journal_writer j;
  std::string error;
  ASSERT_TRUE(j.create(dir.path(), test_plan(dir.path()), &error)) << error;
  j.append(t.api.data(), 10);
  in_child_that_dies([&] {
    // Before and after the child abandons it, the parent's journal takes nothing from it.
    const bool before = j.append(t.api.data() + 10, 5) == 0;
    j.define_string(999, "child's");
    j.abandon_in_forked_child();
    const bool after = j.append(t.api.data() + 10, 5) == 0;
    ::_exit(before && after ? 0 : 1);
  });
  j.append(t.api.data() + 10, 1);
  EXPECT_EQ(j.total_records(), 11u);
  byte_collector got;
  EXPECT_EQ(j.replay({&got}), "");
  EXPECT_EQ(got.kinds[0],
            bytes_of(std::vector<trace::api_record>(t.api.begin(), t.api.begin() + 11)));
  j.remove();
}

TEST(Journal, OutputsWrittenIsNoted) {
  temp_dir dir("journal");
  in_child_that_dies([&] {
    trace::journal_writer j;
    std::string error;
    if (!j.create(dir.path(), test_plan(dir.path()), &error)) ::_exit(2);
    j.mark_outputs_written();
    ::_exit(0);
  });
  trace::journal_reader r;
  std::string error;
  ASSERT_TRUE(r.open(only_journal_in(dir.path()), &error)) << error;
  EXPECT_TRUE(r.outputs_written());
}

TEST(Journal, AFileThatIsNotAJournalIsNotRecognized) {
  temp_dir dir("journal");
  const auto path = dir.write("not-a-journal", std::string(8192, 'x'));
  trace::journal_reader r;
  std::string error;
  EXPECT_FALSE(r.open(path, &error));
  EXPECT_FALSE(r.recognized());
  EXPECT_NE(error.find("not a journal"), std::string::npos) << error;
}

TEST(Journal, ARecoveredJournalRunsThroughTheWriters) {
  temp_dir dir("journal");
  rocprof::test_support::synthetic_options o;
  o.records_per_kind = 500;
  const auto t = rocprof::test_support::make_synthetic_trace(o);
  in_child_that_dies([&] {
    trace::journal_writer j;
    std::string error;
    if (!j.create(dir.path() + "/scratch", test_plan(dir.path() + "/out"), &error)) ::_exit(2);
    journal_everything(j, t);
    ::_exit(0);
  });
  trace::journal_reader r;
  std::string error;
  ASSERT_TRUE(r.open(only_journal_in(dir.path() + "/scratch"), &error)) << error;
  const auto report =
      trace::run_output_plan(r.plan(), r.definitions(), r.total_records(),
                             [&r](const std::vector<trace::writer*>& outs) { r.replay(outs); });
  EXPECT_TRUE(report.errors.empty()) << report.errors.front();
  EXPECT_EQ(report.written, (std::vector<std::string>{"csv", "json"}));
  const auto rows = rocprof::test_support::run_command(
      "python3 -c \"import csv,sys; print(sum(1 for _ in csv.DictReader(open(sys.argv[1]))))\" " +
      dir.path() + "/out/recovered_kernel_trace.csv");
  EXPECT_EQ(rows, std::to_string(t.kernels.size()) + "\n");
}

}  // namespace
