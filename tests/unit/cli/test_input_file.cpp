#include <gtest/gtest.h>

#include "command_line.hpp"
#include "input_file.hpp"
#include "passes.hpp"
#include "rocprof/test_support/test_env.hpp"

using namespace rocprof::cli;
using rocprof::test_support::temp_dir;

namespace {

std::string error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const usage_error& error) {
    return error.what();
  }
  return "";
}

std::vector<pass> passes_of(std::vector<std::string> args) {
  return build_passes(parse_command_line(args));
}

}  // namespace

TEST(InputFile, TextFilePmcLines) {
  temp_dir dir;
  const auto file = dir.write("counters.txt",
                              "# comment line pmc: IGNORED\n"
                              "pmc: SQ_WAVES  GRBM_COUNT\n"
                              "not a counter line\n"
                              "pmc:\tSQ_INSTS_VALU, SQ_INSTS_SALU # trailing\n");
  const auto input = read_input_file(file);
  EXPECT_EQ(input.sub_directory, "pmc_");
  ASSERT_EQ(input.jobs.size(), 2u);
  EXPECT_EQ(input.jobs[0].list("pmc"), (std::vector<std::string>{"SQ_WAVES", "GRBM_COUNT"}));
  EXPECT_EQ(input.jobs[1].list("pmc"),
            (std::vector<std::string>{"SQ_INSTS_VALU", "SQ_INSTS_SALU"}));

  const auto passes = passes_of({"-i", file, "--kernel-trace"});
  ASSERT_EQ(passes.size(), 2u);
  EXPECT_EQ(passes[0].sub_directory, "pmc_1");
  EXPECT_EQ(passes[1].sub_directory, "pmc_2");
  EXPECT_TRUE(passes[1].config.flag("kernel_trace"));
}

TEST(InputFile, YamlJobsWithEveryValueType) {
  temp_dir dir;
  const auto file = dir.write("jobs.yaml", R"(jobs:
  - kernel_trace: true
    hsa_trace: no
    output_format: [CSV, json]
    pmc: [SQ_WAVES, GRBM_COUNT]
    kernel_iteration_range: "[1, [3-4]]"
    perfetto_buffer_size: 0x400
    summary_units: usec
    output_file: "run_%pid%"
  - sys_trace: "on"
    pmc_groups: [[A, B], [C]]
    pmc_group_interval: 2
)");
  const auto input = read_input_file(file);
  EXPECT_EQ(input.sub_directory, "pass_");
  ASSERT_EQ(input.jobs.size(), 2u);
  const auto& first = input.jobs[0];
  EXPECT_TRUE(first.flag("kernel_trace"));
  EXPECT_TRUE(first.has("hsa_trace"));
  EXPECT_FALSE(first.flag("hsa_trace"));
  EXPECT_EQ(first.list("output_format"), (std::vector<std::string>{"csv", "json"}));
  EXPECT_EQ(first.list("pmc"), (std::vector<std::string>{"SQ_WAVES", "GRBM_COUNT"}));
  // A string iteration range is wrapped into a list.
  EXPECT_EQ(first.list("kernel_iteration_range"), std::vector<std::string>{"[1, [3-4]]"});
  EXPECT_EQ(first.number("perfetto_buffer_size"), std::optional<uint64_t>(1024));
  EXPECT_EQ(first.text("summary_units"), std::optional<std::string>("usec"));
  EXPECT_EQ(first.text("output_file"), std::optional<std::string>("run_%pid%"));
  const auto& second = input.jobs[1];
  EXPECT_TRUE(second.flag("sys_trace"));
  EXPECT_EQ(second.list("pmc_groups"), (std::vector<std::string>{"A B", "C"}));
  EXPECT_EQ(second.number("pmc_group_interval"), std::optional<uint64_t>(2));

  const auto passes = passes_of({"-i", file});
  ASSERT_EQ(passes.size(), 2u);
  EXPECT_EQ(passes[0].sub_directory, "pass_1");
  EXPECT_EQ(passes[1].sub_directory, "pass_2");
  EXPECT_FALSE(passes[0].config.flag("hsa_core_trace"));
  EXPECT_TRUE(passes[1].config.flag("hsa_core_trace"));
}

TEST(InputFile, JsonJobsAndYmlExtension) {
  temp_dir dir;
  const auto json = dir.write("jobs.json",
                              R"({"jobs": [{"kernel_trace": true, "pmc": ["A"]},
                                           {"marker_trace": 1, "summary_groups": ["KERNEL.*"]}]})");
  const auto input = read_input_file(json);
  ASSERT_EQ(input.jobs.size(), 2u);
  EXPECT_TRUE(input.jobs[1].flag("marker_trace"));
  EXPECT_EQ(input.jobs[1].list("summary_groups"), std::vector<std::string>{"KERNEL.*"});
  const auto yml = dir.write("jobs.yml", "jobs:\n  - stats: true\n");
  EXPECT_TRUE(read_input_file(yml).jobs[0].flag("stats"));
  const auto records = dir.write("records.yaml", "jobs:\n  - cuda_api_records: true\n");
  EXPECT_TRUE(read_input_file(records).jobs[0].flag("cuda_api_records"));
}

// cuda_api_args in input files (YAML and JSON); with cuda_api_records, from the file or the
// command line, the pass is refused before launch, naming both.
TEST(InputFile, CudaApiArgsKey) {
  temp_dir dir;
  const auto yaml = dir.write("args.yaml", "jobs:\n  - sys_trace: true\n    cuda_api_args: true\n");
  EXPECT_TRUE(read_input_file(yaml).jobs[0].flag("cuda_api_args"));
  EXPECT_TRUE(passes_of({"-i", yaml})[0].config.flag("cuda_api_args"));
  const auto json = dir.write("args.json", R"({"jobs": [{"cuda_api_args": false}]})");
  EXPECT_FALSE(read_input_file(json).jobs[0].flag("cuda_api_args"));
  const auto both =
      dir.write("both.yaml", "jobs:\n  - cuda_api_args: true\n    cuda_api_records: true\n");
  for (const auto& args : {std::vector<std::string>{"-i", both},
                           std::vector<std::string>{"-i", yaml, "--cuda-api-records"}}) {
    const auto message = error_of([&] { passes_of(args); });
    EXPECT_NE(message.find("--cuda-api-records"), std::string::npos) << message;
    EXPECT_NE(message.find("--cuda-api-args"), std::string::npos) << message;
  }
}

TEST(InputFile, MergeWithTheCommandLine) {
  temp_dir dir;
  const auto file = dir.write("jobs.yaml", "jobs:\n  - kernel_trace: true\n    output_file: a\n");
  // Equal values and values set on one side only merge.
  auto passes = passes_of({"-i", file, "--kernel-trace", "--stats"});
  EXPECT_TRUE(passes[0].config.flag("kernel_trace"));
  EXPECT_TRUE(passes[0].config.flag("stats"));
  EXPECT_EQ(passes[0].config.text("output_file"), std::optional<std::string>("a"));
  // Different values conflict, naming the file, the line and the key.
  const auto message = error_of([&] { passes_of({"-i", file, "-o", "b"}); });
  EXPECT_NE(message.find("jobs.yaml:3"), std::string::npos) << message;
  EXPECT_NE(message.find("output_file"), std::string::npos) << message;
  EXPECT_NE(message.find("conflicting"), std::string::npos) << message;
  EXPECT_NE(error_of([&] { passes_of({"-i", file, "--kernel-trace=no"}); }), "");
}

TEST(InputFile, PmcFlagsAndFilePasses) {
  temp_dir dir;
  const auto file = dir.write("jobs.yaml", "jobs:\n  - pmc: [A]\n  - kernel_trace: true\n");
  // One --pmc merges like any key (conflicts with the first job's different pmc).
  EXPECT_NE(error_of([&] { passes_of({"-i", file, "--pmc", "B"}); }), "");
  // Several --pmc flags: the file's passes first, then one pass per flag.
  const auto passes = passes_of({"-i", file, "--pmc", "X", "--pmc", "Y", "Z"});
  ASSERT_EQ(passes.size(), 4u);
  EXPECT_EQ(passes[0].config.list("pmc"), std::vector<std::string>{"A"});
  EXPECT_FALSE(passes[1].config.has("pmc"));
  EXPECT_EQ(passes[2].config.list("pmc"), std::vector<std::string>{"X"});
  EXPECT_EQ(passes[3].config.list("pmc"), (std::vector<std::string>{"Y", "Z"}));
  EXPECT_EQ(passes[3].sub_directory, "pass_4");
  // Without a file: one --pmc is one pass without sub-directory, several are pass_N.
  EXPECT_EQ(passes_of({"--pmc", "A"}).front().sub_directory, "");
  const auto cli_only = passes_of({"--pmc", "A", "--pmc", "B"});
  ASSERT_EQ(cli_only.size(), 2u);
  EXPECT_EQ(cli_only[1].sub_directory, "pass_2");
  // --pmc together with pmc_groups is an error.
  const auto groups = dir.write("groups.yaml", "jobs:\n  - pmc_groups: [[A], [B]]\n");
  const auto message = error_of([&] { passes_of({"-i", groups, "--pmc", "C"}); });
  EXPECT_NE(message.find("pmc_groups"), std::string::npos) << message;
}

TEST(InputFile, ErrorsNameFileLineAndKey) {
  temp_dir dir;
  struct bad_case {
    const char* name;
    const char* text;
    std::vector<const char*> expected;
  };
  const std::vector<bad_case> cases = {
      {"unknown.yaml",
       "jobs:\n  - kernel_trace: true\n    kernel_traces: true\n",
       {"unknown.yaml:3", "kernel_traces", "unknown key"}},
      {"type.yaml", "jobs:\n  - kernel_trace: maybe\n", {"type.yaml:2", "kernel_trace"}},
      {"int.yaml",
       "jobs:\n  - perfetto_buffer_size: [1]\n",
       {"int.yaml:2", "perfetto_buffer_size"}},
      {"choice.json",
       R"({"jobs": [{"output_format": ["xml"]}]})",
       {"choice.json", "output_format"}},
      {"cli_only.json", R"({"jobs": [{"input": "x.yaml"}]})", {"cli_only.json", "input"}},
      {"malformed.yaml", "jobs:\n  - kernel_trace: [true\n", {"malformed.yaml:", "malformed YAML"}},
      {"malformed.json",
       "{\"jobs\": [\n{\"kernel_trace\": tru}]}",
       {"malformed.json:2", "malformed"}},
      {"nojobs.yaml", "kernel_trace: true\n", {"nojobs.yaml", "jobs"}},
      {"notalist.json", R"({"jobs": {"kernel_trace": true}})", {"notalist.json", "jobs"}},
      {"extra.json", R"({"jobs": [{}], "other": 1})", {"extra.json", "other"}},
      {"empty.txt", "# nothing\n", {"empty.txt", "pmc:"}},
      {"seqkey.yaml", "jobs:\n  - [a]: 1\n", {"seqkey.yaml:2", "key"}},
      {"topkey.yaml", "? [a]\n: 1\njobs: []\n", {"topkey.yaml:1", "key"}},
      {"huge.yaml",
       "jobs:\n  - perfetto_buffer_size: 99999999999999999999999\n",
       {"huge.yaml:2", "perfetto_buffer_size", "integer"}},
      {"bad.ini", "[x]\n", {"bad.ini", "input file type"}},
  };
  for (const auto& c : cases) {
    const auto file = dir.write(c.name, c.text);
    const auto message = error_of([&] { read_input_file(file); });
    ASSERT_NE(message, "") << c.name;
    for (const char* part : c.expected) {
      EXPECT_NE(message.find(part), std::string::npos) << c.name << ": " << message;
    }
  }
  EXPECT_NE(error_of([&] { read_input_file(dir.path() + "/missing.yaml"); }).find("missing.yaml"),
            std::string::npos);
}

// rocprofv3 adds pass_N / pmc_N only with several passes or counters in the one pass
// (rocprofv3-facts.md §1.2): a single job without them writes where -d (or its own
// output_directory) says.
TEST(InputFile, OneJobWithoutCountersHasNoPassDirectory) {
  temp_dir dir;
  const auto plain =
      dir.write("one.yaml", "jobs:\n  - kernel_trace: true\n    output_directory: /tmp/here\n");
  auto passes = passes_of({"-i", plain});
  ASSERT_EQ(passes.size(), 1u);
  EXPECT_EQ(passes[0].sub_directory, "");
  EXPECT_EQ(passes[0].config.text("output_directory"), std::optional<std::string>("/tmp/here"));
  const auto groups = dir.write("groups.json", R"({"jobs": [{"pmc_groups": [["A"], ["B"]]}]})");
  EXPECT_EQ(passes_of({"-i", groups})[0].sub_directory, "");
  const auto counters = dir.write("counters.json", R"({"jobs": [{"pmc": ["A", "B"]}]})");
  EXPECT_EQ(passes_of({"-i", counters})[0].sub_directory, "pass_1");
  const auto txt = dir.write("counters.txt", "pmc: A B\n");
  EXPECT_EQ(passes_of({"-i", txt})[0].sub_directory, "pmc_1");
  // A --pmc on the command line is a counter of the file's one job: pass_1, as rocprofv3.
  EXPECT_EQ(passes_of({"-i", plain, "--pmc", "A"})[0].sub_directory, "pass_1");
}
