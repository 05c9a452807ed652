// Limits shared by the CLI and the tool: counter names, linear de-duplication, integer ranges
// of the schema, placeholders that cannot overflow or grow without bound, and the tool's reader
// refusing what the CLI refuses (issue 14, item 5).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <map>

#include "rocprof/common/placeholders.hpp"
#include "rocprof/common/utf8.hpp"
#include "rocprof/config/schema.hpp"
#include "rocprof/config/tool_settings.hpp"
#include "rocprof/config/values.hpp"
#include "rocprof/test_support/test_env.hpp"

using namespace rocprof::config;
using rocprof::common::expand_placeholders;
using rocprof::common::placeholder_context;
using rocprof::common::placeholder_problem;

namespace {

read_result read(const std::map<std::string, std::string>& env) {
  return read_tool_settings([&env](const char* name) -> const char* {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

std::string first_error(const std::map<std::string, std::string>& env) {
  const auto result = read(env);
  return result.errors.empty() ? "" : result.errors.front();
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

placeholder_context context() {
  placeholder_context c;
  c.argv = {"/bin/app", "a"};
  c.pid = 7;
  c.hostname = "h";
  return c;
}

}  // namespace

TEST(Utf8, WellFormedSequencesOnly) {
  using rocprof::common::invalid_utf8_offset;
  EXPECT_TRUE(rocprof::common::is_valid_utf8("SQ_WAVES caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
  EXPECT_EQ(invalid_utf8_offset("ab\xff"), 2u);
  EXPECT_EQ(invalid_utf8_offset("\xc0\xaf"), 0u);          // overlong '/'
  EXPECT_EQ(invalid_utf8_offset("x\xed\xa0\x80"), 1u);     // surrogate
  EXPECT_EQ(invalid_utf8_offset("\xf4\x90\x80\x80"), 0u);  // past U+10FFFF
  EXPECT_EQ(invalid_utf8_offset("\xe2\x82"), 0u);          // cut short
  EXPECT_EQ(rocprof::common::control_character_offset("a\x7f"), 1u);
  EXPECT_EQ(rocprof::common::control_character_offset("a\xc2\x85"), 1u);  // C1 NEL
  EXPECT_EQ(rocprof::common::control_character_offset("\xc3\xa9"), std::string::npos);
}

TEST(CounterNames, OneRuleForTheCliAndTheTool) {
  EXPECT_EQ(counter_name_problem("SQ_WAVES"), "");
  EXPECT_EQ(counter_name_problem("TCC_HIT[0]:device=1"), "");
  EXPECT_EQ(counter_name_problem("gpu__time_duration.sum"), "");
  EXPECT_EQ(counter_name_problem("d\xc3\xa9"
                                 "bit"),
            "");
  EXPECT_NE(counter_name_problem("SQ\xff").find("not valid UTF-8"), std::string::npos);
  EXPECT_NE(counter_name_problem("SQ\x01").find("control character"), std::string::npos);
  EXPECT_NE(counter_name_problem(std::string(k_counter_name_max_length + 1, 'A')), "");
  EXPECT_NE(counter_name_problem(""), "");
  // The tool refuses what the CLI refuses, naming its variable.
  EXPECT_NE(first_error({{"ROCPROF_COUNTERS", "pmc: A \xff"}}).find("ROCPROF_COUNTERS"),
            std::string::npos);
  EXPECT_NE(first_error({{"ROCPROF_COUNTER_GROUPS", "pmc: A\npmc: \x02"}})
                .find("ROCPROF_COUNTER_GROUPS: "),
            std::string::npos);
}

TEST(CounterNames, DeduplicationIsLinear) {
  std::string line = "pmc:";
  for (int i = 0; i < 200000; ++i)
    line += " COUNTER_" + std::to_string(i % 150000);
  const double start = rocprof::test_support::thread_cpu_seconds();
  const auto names = parse_pmc_line(line);
  EXPECT_LT(rocprof::test_support::thread_cpu_seconds() - start,
            1.0);  // CPU time (load-proof); was 22 s (quadratic)
  ASSERT_EQ(names.size(), 150000u);
  EXPECT_EQ(names.front(), "COUNTER_0");
  EXPECT_EQ(names.back(), "COUNTER_149999");
}

TEST(IntegerRanges, SchemaRowsCarryTheirRange) {
  const auto& minimum = option("minimum_output_data");
  EXPECT_EQ(integer_range_problem(minimum, UINT64_MAX / 1024), "");
  EXPECT_NE(integer_range_problem(minimum, UINT64_MAX / 1024 + 1).find("at most"),
            std::string::npos);  // KB x 1024 would wrap around
  EXPECT_NE(integer_range_problem(option("pc_sampling_interval"), 0).find("greater than 0"),
            std::string::npos);
  EXPECT_NE(integer_range_problem(option("pmc_group_interval"), 0), "");
  EXPECT_NE(integer_range_problem(option("perfetto_buffer_size"), 1ull << 32).find("between"),
            std::string::npos);
  EXPECT_NE(integer_range_problem(option("att_perfcounter_ctrl"), 33), "");
  EXPECT_NE(integer_range_problem(option("att_activity"), 0).find("between 1 and 32"),
            std::string::npos);
  for (const auto& spec : schema()) {  // only integer rows carry a range
    if (spec.type != value_type::integer) {
      EXPECT_EQ(spec.min_value, 0u) << spec.key;
      EXPECT_EQ(spec.max_value, UINT64_MAX) << spec.key;
    }
  }
}

TEST(IntegerRanges, TheToolRefusesOutOfRangeValuesOfTextRows) {
  EXPECT_NE(
      first_error({{"ROCPROF_PC_SAMPLING_INTERVAL", "0"}}).find("ROCPROF_PC_SAMPLING_INTERVAL"),
      std::string::npos);
  EXPECT_NE(first_error({{"ROCPROF_PERFETTO_BUFFER_SIZE_KB", "4294967296"}}), "");
  EXPECT_NE(first_error({{"ROCPROF_COUNTER_GROUPS_INTERVAL", "0"}}), "");
  // Bytes, not KB: the tool's variable of --minimum-output-data takes the full 64 bits.
  EXPECT_EQ(first_error({{"ROCPROF_MINIMUM_OUTPUT_BYTES", "18446744073709551615"}}), "");
}

TEST(ToolSettingsChecks, RegexesIterationRangeAndPeriods) {
  EXPECT_NE(first_error({{"ROCPROF_KERNEL_FILTER_INCLUDE_REGEX", "(a)\\1"}}).find("backreference"),
            std::string::npos);
  EXPECT_NE(first_error({{"ROCPROF_KERNEL_FILTER_EXCLUDE_REGEX", "((("}})
                .find("ROCPROF_KERNEL_FILTER_EXCLUDE_REGEX"),
            std::string::npos);
  EXPECT_NE(first_error({{"ROCPROF_STATS_SUMMARY_GROUPS", "A##@@##(?=B)"}}).find("lookahead"),
            std::string::npos);
  EXPECT_NE(first_error({{"ROCPROF_KERNEL_FILTER_RANGE", "[1-"}}).find("range A-B"),
            std::string::npos);
  EXPECT_NE(first_error({{"ROCPROF_COLLECTION_PERIOD", "99999999999999999999:1:1"}}), "");
  const auto ok = read({{"ROCPROF_KERNEL_FILTER_RANGE", "[1, [3-5]]"}});
  ASSERT_TRUE(ok.errors.empty());
  EXPECT_EQ(ok.settings.kernel_iterations.intervals,
            (std::vector<iteration_interval>{{1, 1}, {3, 5}}));
}

TEST(PlaceholderLimits, HugeArgumentIndexNeverThrows) {
  const auto c = context();
  EXPECT_EQ(expand_placeholders("out_%arg99999999999999999999%-x", c), "out_x");
  EXPECT_EQ(expand_placeholders("out_{arg18446744073709551616}_x", c), "out_x");
  EXPECT_EQ(expand_placeholders("%arg1%", c), "a");
  EXPECT_NE(placeholder_problem("%arg99999999999999999999%", c).find("argument index"),
            std::string::npos);
  EXPECT_NE(placeholder_problem("{arg1000000001}", c), "");
  EXPECT_EQ(placeholder_problem("%arg1000000000%_%arg2%", c), "");  // past the end: removed
}

TEST(PlaceholderLimits, ExpansionStopsGrowing) {
  const auto c = context();
  // Each round doubles the text: 16 rounds would make 64 K copies of the value.
  ::setenv("ROCPROF_TEST_DOUBLING", "%env{ROCPROF_TEST_DOUBLING}%%env{ROCPROF_TEST_DOUBLING}%", 1);
  const auto start = std::chrono::steady_clock::now();
  const auto out = expand_placeholders("%env{ROCPROF_TEST_DOUBLING}%", c);
  EXPECT_LE(out.size(), rocprof::common::k_max_expanded_length);
  EXPECT_NE(placeholder_problem("%env{ROCPROF_TEST_DOUBLING}%", c).find("expands to more than"),
            std::string::npos);
  std::string many;
  for (int i = 0; i < 10000; ++i)  // 60 KB of template, each copy 1 MB when expanded
    many += "%argv%";
  placeholder_context long_argv = c;
  long_argv.argv.assign(1000, std::string(1000, 'x'));  // 1 MB command line
  EXPECT_LE(expand_placeholders(many, long_argv).size(), rocprof::common::k_max_expanded_length);
  EXPECT_LT(seconds_since(start), 1.0);
  ::unsetenv("ROCPROF_TEST_DOUBLING");
}
