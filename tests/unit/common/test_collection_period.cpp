// --collection-period values: the CLI's conversion and the tool's parse share one rule, and no
// value wraps around (issue 14: huge values went through silently).
#include <gtest/gtest.h>

#include "rocprof/config/collection_period.hpp"

using namespace rocprof::config;

namespace {

std::string converted(const std::string& text, const std::string& unit) {
  const auto parsed = parse_period_in_unit(text, unit);
  return parsed.period ? format_period_ns(*parsed.period) : "error: " + parsed.error;
}

}  // namespace

TEST(CollectionPeriod, UnitsAndDecimals) {
  EXPECT_EQ(converted("1:2.5:3", "msec"), "1000000:2500000:3");
  EXPECT_EQ(converted("0:1:0", "sec"), "0:1000000000:0");
  EXPECT_EQ(converted("0.5:.25:1", "sec"), "500000000:250000000:1");
  EXPECT_EQ(converted("1e3:2E-3:1", "usec"), "1000000:2:1");
  EXPECT_EQ(converted("1:1:1", "hour"), "3600000000000:3600000000000:1");
  // The largest double below 2^63: decimals go through a double, as in rocprofv3.
  EXPECT_EQ(converted("9223372036854774784:0:0", "nsec"), "9223372036854774784:0:0");
  EXPECT_EQ(converted("1:1:18446744073709551615", "min"),
            "60000000000:60000000000:18446744073709551615");
}

TEST(CollectionPeriod, HugeOrMalformedValuesAreErrors) {
  const std::pair<const char*, const char*> cases[] = {
      {"9223372036854775808:0:0", "longer than"},    // 2^63 ns
      {"3000000:1:1", "longer than"},                // hours: past 292 years
      {"1e400:1:1", "longer than"},                  // infinite as a double
      {"1:1:18446744073709551616", "repeat count"},  // 2^64
      {"1:1:-1", "repeat count"},
      {"1:1:1.5", "repeat count"},
      {"-1:1:1", "not a non-negative number"},
      {"inf:1:1", "not a non-negative number"},
      {"nan:1:1", "not a non-negative number"},
      {"0x10:1:1", "not a non-negative number"},
      {" 1:1:1", "not a non-negative number"},
      {"1:1", "DELAY:DURATION:REPEAT"},
      {"1:1:1:1", "DELAY:DURATION:REPEAT"},
      {"", "DELAY:DURATION:REPEAT"},
  };
  for (const auto& [text, expected] : cases) {
    const auto result = converted(text, "hour");
    EXPECT_NE(result.find(expected), std::string::npos) << text << ": " << result;
  }
  EXPECT_NE(converted("1:1:1", "fortnight").find("unknown unit"), std::string::npos);
}

TEST(CollectionPeriod, TheToolsFormIsIntegerNanoseconds) {
  const auto ok = parse_period_ns("5:6:0");
  ASSERT_TRUE(ok.period.has_value());
  EXPECT_EQ(ok.period->delay_ns, 5u);
  EXPECT_EQ(ok.period->duration_ns, 6u);
  EXPECT_EQ(ok.period->repeat, 0u);
  for (const char* bad : {"9223372036854775808:1:1", "1:9223372036854775808:1", "1.5:1:1",
                          "1:1:18446744073709551616", "0x5:1:1", "1:1", "a:b:c"}) {
    EXPECT_FALSE(parse_period_ns(bad).period.has_value()) << bad;
  }
  EXPECT_TRUE(parse_period_ns("9223372036854775807:1:18446744073709551615").period.has_value());
}
