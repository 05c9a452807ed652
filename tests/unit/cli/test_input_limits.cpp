// Input-file bombs of issue 14: each is a clean usage error naming the file, in well under a
// second, and legitimate anchors and aliases still work.
#include <gtest/gtest.h>
#include <unistd.h>

#include <functional>

#include "command_line.hpp"
#include "input_file.hpp"
#include "passes.hpp"
#include "rocprof/test_support/test_env.hpp"
#include "yaml_reader.hpp"

using namespace rocprof::cli;
using rocprof::test_support::temp_dir;
using rocprof::test_support::thread_cpu_seconds;

namespace {

// The usage error of reading `text` as file `name`, checked to cost less than a second of CPU.
std::string error_reading(temp_dir& dir, const std::string& name, const std::string& text) {
  const auto file = dir.write(name, text);
  const double start = thread_cpu_seconds();
  std::string message;
  try {
    read_input_file(file);
  } catch (const usage_error& error) {
    message = error.what();
  }
  EXPECT_LT(thread_cpu_seconds() - start, 1.0) << name;
  EXPECT_NE(message.find(name), std::string::npos) << message;
  return message;
}

// The classic "billion laughs": ten levels of nine aliases to the level below, about 1 KB that
// would expand to 9^9 (387 million) values.
std::string alias_bomb() {
  std::string text = "a0: &a0 [\"lol\"]\n";
  for (int level = 1; level <= 9; ++level) {
    const std::string below = "*a" + std::to_string(level - 1);
    text += "a" + std::to_string(level) + ": &a" + std::to_string(level) + " [";
    for (int i = 0; i < 9; ++i)
      text += (i ? "," : "") + below;
    text += "]\n";
  }
  return text + "jobs: [{pmc: *a9}]\n";
}

}  // namespace

TEST(InputLimits, SelfReferentialAliasIsAnError) {
  temp_dir dir;
  const auto message = error_reading(dir, "self.yaml", "a: &a [*a,*a]");  // 14 bytes
  EXPECT_NE(message.find("recursive alias"), std::string::npos) << message;
  EXPECT_NE(message.find("self.yaml:1"), std::string::npos) << message;
  const auto nested = error_reading(dir, "nested.yaml", "jobs:\n  - &j {pmc: [A, *j]}\n");
  EXPECT_NE(nested.find("recursive alias"), std::string::npos) << nested;
}

TEST(InputLimits, AliasBombStopsAtTheBudget) {
  temp_dir dir;
  const std::string bomb = alias_bomb();
  EXPECT_LT(bomb.size(), 1100u);
  const auto message = error_reading(dir, "bomb.yaml", bomb);
  EXPECT_NE(message.find("alias bomb"), std::string::npos) << message;
}

TEST(InputLimits, DeepNestingIsAnError) {
  temp_dir dir;
  const std::string deep_yaml = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_NE(error_reading(dir, "deep.yaml", deep_yaml).find("nested deeper than"),
            std::string::npos);
  const std::string deep_json = std::string(1000000, '[') + std::string(1000000, ']');
  EXPECT_NE(error_reading(dir, "deep.json", deep_json).find("nested deeper than"),
            std::string::npos);
  const std::string ok(k_input_max_depth - 3, '[');  // {, [ and { come first
  const auto within = R"({"jobs": [{"pmc": )" + ok + "1" + std::string(ok.size(), ']') + "}]}";
  // Within the limit the depth check passes; the value is then refused by the schema instead.
  EXPECT_EQ(error_reading(dir, "within.json", within).find("nested deeper"), std::string::npos);
}

TEST(InputLimits, JsonNumberOverflowIsAUsageError) {
  temp_dir dir;
  EXPECT_NE(error_reading(dir, "huge.json", R"({"jobs": [{"pmc_group_interval": 1e400}]})")
                .find("malformed JSON"),
            std::string::npos);
}

TEST(InputLimits, AnchorsAndAliasesStillWork) {
  temp_dir dir;
  const auto file = dir.write("anchors.yaml",
                              "jobs:\n"
                              "  - &first\n"
                              "    pmc: &counters [SQ_WAVES, GRBM_COUNT]\n"
                              "    kernel_trace: true\n"
                              "  - pmc: *counters\n"
                              "    output_file: second\n"
                              "  - *first\n");
  const auto input = read_input_file(file);
  ASSERT_EQ(input.jobs.size(), 3u);
  const std::vector<std::string> counters = {"SQ_WAVES", "GRBM_COUNT"};
  EXPECT_EQ(input.jobs[1].list("pmc"), counters);
  EXPECT_EQ(input.jobs[2].list("pmc"), counters);
  EXPECT_TRUE(input.jobs[2].flag("kernel_trace"));
  EXPECT_NE(input.jobs[1].where.at("output_file").find("anchors.yaml:6"), std::string::npos);
}

TEST(InputLimits, ReaderKeepsYamlTypesAndLines) {
  const auto doc =
      read_yaml_text("jobs:\n  - a: 'true'\n    b: yes\n    c: 0x10\n    d: 12\n", "t.yaml");
  const auto& job = doc.root["jobs"][0];
  EXPECT_TRUE(job["a"].is_string());
  EXPECT_EQ(job["b"], true);
  EXPECT_EQ(job["c"], "0x10");  // only plain decimal digits become numbers, as before
  EXPECT_EQ(job["d"], 12u);
  ASSERT_EQ(doc.job_key_lines.size(), 1u);
  EXPECT_EQ(doc.job_key_lines[0].at("d"), 5);
  EXPECT_TRUE(read_yaml_text("", "empty.yaml").root.is_null());
}

TEST(InputLimits, TwoHundredThousandCountersAreFast) {
  temp_dir dir;
  std::string line = "pmc:";
  std::string list;
  for (int i = 0; i < 200000; ++i) {
    const std::string name = "COUNTER_" + std::to_string(i % 180000);
    line += " " + name;
    list += (i ? ",\"" : "\"") + name + "\"";
  }
  const auto txt = dir.write("many.txt", line + "\n");
  const auto json = dir.write("many.json", R"({"jobs": [{"pmc": [)" + list + "]}]}");
  for (const auto& file : {txt, json}) {
    const double start = thread_cpu_seconds();
    const auto passes = build_passes(parse_command_line({"-i", file, "--", "/bin/true"}));
    // Was 22 s with quadratic de-duplication; the checks of every name are linear too.
    EXPECT_LT(thread_cpu_seconds() - start, 3.0) << file;
    ASSERT_EQ(passes.size(), 1u);
    EXPECT_GE(passes[0].config.list("pmc").size(), 180000u);
  }
}

TEST(InputLimits, HugeAndUnreadableFiles) {
  temp_dir dir;
  // A device named like an input file: read up to the limit, then refused.
  const auto link = dir.path() + "/zero.txt";
  ASSERT_EQ(::symlink("/dev/zero", link.c_str()), 0);
  const double start = thread_cpu_seconds();
  try {
    read_input_file(link);
    ADD_FAILURE() << "read /dev/zero";
  } catch (const usage_error& error) {
    EXPECT_NE(std::string(error.what()).find("larger than"), std::string::npos) << error.what();
  }
  EXPECT_LT(thread_cpu_seconds() - start, 5.0);
}
