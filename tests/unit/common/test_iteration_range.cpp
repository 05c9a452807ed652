// --kernel-iteration-range: rocprofv3's syntax, fully validated (the "[1-" of issue 14 is an
// error), no overflow, no set of a billion numbers.
#include <gtest/gtest.h>

#include "rocprof/config/iteration_range.hpp"

using rocprof::config::iteration_interval;
using rocprof::config::parse_iteration_range;

namespace {

std::vector<iteration_interval> intervals(const std::string& text) {
  const auto range = parse_iteration_range(text);
  EXPECT_EQ(range.error, "") << text;
  return range.intervals;
}

}  // namespace

TEST(IterationRange, Rocprofv3Syntax) {
  using v = std::vector<iteration_interval>;
  EXPECT_EQ(intervals(""), v{});
  EXPECT_EQ(intervals("[]"), v{});
  EXPECT_EQ(intervals("[1, 2, [5-8]]"), (v{{1, 2}, {5, 8}}));
  EXPECT_EQ(intervals("1, [3-4]"), (v{{1, 1}, {3, 4}}));       // the CLI's join of "1" "[3-4]"
  EXPECT_EQ(intervals("[7-9] [1-3,4]"), (v{{1, 4}, {7, 9}}));  // sorted and merged
  EXPECT_EQ(intervals("18446744073709551615"), (v{{UINT64_MAX, UINT64_MAX}}));
  EXPECT_EQ(intervals("[1-18446744073709551615, 5]"), (v{{1, UINT64_MAX}}));
}

TEST(IterationRange, IncludesIsABinarySearchOverIntervals) {
  const auto range = parse_iteration_range("[1-1000000000000, 2000000000000]");
  ASSERT_EQ(range.error, "");
  EXPECT_TRUE(range.includes(1));
  EXPECT_TRUE(range.includes(999999999999));
  EXPECT_FALSE(range.includes(1000000000001));
  EXPECT_TRUE(range.includes(2000000000000));
  EXPECT_TRUE(parse_iteration_range("").includes(12345));  // empty: every iteration
}

TEST(IterationRange, EveryMalformedTextIsAnError) {
  const std::pair<const char*, const char*> cases[] = {
      {"[1-", "range A-B"},  // the piece is reported before the bracket
      {"[1, 2", "never closed"},
      {"1]", "closes nothing"},
      {"1-", "range A-B"},
      {"-3", "range A-B"},
      {"1-2-3", "range A-B"},
      {"5-2", "ends before it starts"},
      {"0", "count from 1"},
      {"x", "not an iteration number"},
      {"1;2", "not an iteration number"},
      {"1\t2", "not an iteration number"},
      {"18446744073709551616", "not an iteration number"},  // 2^64
      {"[1-99999999999999999999]", "range A-B"},
  };
  for (const auto& [text, expected] : cases) {
    const auto range = parse_iteration_range(text);
    EXPECT_NE(range.error.find(expected), std::string::npos) << text << ": " << range.error;
    EXPECT_TRUE(range.intervals.empty()) << text;
  }
}

TEST(IterationRange, DeepBracketsAreCountedNotRecursed) {
  const std::string deep = std::string(1000000, '[') + "1" + std::string(1000000, ']');
  EXPECT_EQ(parse_iteration_range(deep).error, "");
  EXPECT_NE(parse_iteration_range(std::string(1000000, '[')).error, "");
}
